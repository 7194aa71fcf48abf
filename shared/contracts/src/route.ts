import type { z } from 'zod';

/**
 * A route that is not an entity's CRUD, declared once: its method, path, permission, input schemas
 * and the type of its answer. The server registers it (`defineRoute(app, ROUTE, { handler })`) and
 * the client calls it (`api.call(ROUTE, { params, query, body })`), so neither writes the path, the
 * method or a type a second time. See docs/architecture.md, "Routes".
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `permission` of a route anyone may call, signed in or not (the login page's). */
export const PUBLIC = 'public';

/**
 * Who may call a route: a permission key; a list (any one of them: the handler checks the one its
 * input asks for); `null`, any signed-in employee; `PUBLIC`, anyone.
 */
export type RoutePermission = string | readonly string[] | null;

type Schema = z.ZodType | undefined;

/** The type a route answers (the `data` of its `{ data }` body); types only, nothing at run time. */
export interface Answer<R> {
  readonly answerType?: R;
}

/** Marks a route's answer type: `answer: answer<TimerState | null>()`. */
export const answer = <R>(): Answer<R> => ({});

/**
 * The names of a path's `:parameters`: `'/chats/:chatId/messages/:id'` gives `'chatId' | 'id'`. A
 * name ends where a `.` or `-` follows it, as the router reads it: `'/calendar/:token.ics'` gives `'token'`.
 */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? ParamName<Name> | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? ParamName<Name>
    : never;

/** A parameter's name from what follows its `:` up to the next `/`, and any parameter after it. */
type ParamName<S extends string> = S extends `${infer Name}.${infer Rest}`
  ? ParamName<Name> | PathParamNames<Rest>
  : S extends `${infer Name}-${infer Rest}`
    ? ParamName<Name> | PathParamNames<Rest>
    : S;

/**
 * The parsed path parameters the server hands a route: `id` and names ending in `Id` are positive
 * integers (anything else answers 404), other names strings.
 */
export type PathParams<P extends string> = {
  [K in PathParamNames<P>]: K extends 'id' | `${string}Id` ? number : string;
};

/** Whether a path parameter holds a row's id (a positive integer). */
export const isIdParam = (name: string): boolean => name === 'id' || name.endsWith('Id');

/**
 * A multipart body's parts, for the documentation; the handler reads it. `json`: the JSON body the
 * route takes as well (the same fields without the files), which the handler parses itself; a caller
 * sends either.
 */
export interface MultipartBody {
  readonly parts: Record<string, 'file' | 'string'>;
  readonly required?: readonly string[];
  readonly json?: z.ZodType;
}

export interface RouteContract<
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  B extends Schema = Schema,
  Q extends Schema = Schema,
  R = unknown,
  U extends MultipartBody | undefined = MultipartBody | undefined,
> {
  readonly method: M;
  /** Under `API_BASE`, with `:name` parameters. */
  readonly path: P;
  readonly permission: RoutePermission;
  /**
   * One line for the API's documentation. Every route the server registers has one (`route()` and
   * `fullRoute` require it); a light route (`lightRoute`) leaves it to its full route.
   */
  readonly summary?: string;
  /** JSON body, parsed before the handler runs (422 with field messages). */
  readonly body?: B;
  readonly query?: Q;
  /** A multipart body (`MultipartBody`): the client sends FormData, or the `json` body when one is named. */
  readonly multipart?: U;
  /** The answer's schema, for the documentation (answers are not re-serialised by it). */
  readonly response?: z.ZodType;
  readonly answer?: Answer<R>;
}

/**
 * Declares a route contract, keeping its literal method and path for the types.
 *
 * @example
 * export const TIMER_START = route({
 *   method: 'POST',
 *   path: '/admin/finance/timer/start',
 *   permission: 'timeEntries.create',
 *   summary: 'Start the timer on a lawsuit, or resume the paused one',
 *   body: timerStartBody,
 *   answer: answer<TimerState>(),
 * });
 */
export function route<
  const M extends HttpMethod,
  const P extends string,
  B extends Schema = undefined,
  Q extends Schema = undefined,
  R = unknown,
  const U extends MultipartBody | undefined = undefined,
>(contract: RouteContract<M, P, B, Q, R, U> & { readonly summary: string }): RouteContract<M, P, B, Q, R, U> {
  return contract;
}

/**
 * Declares a route for the light contracts (`@mizan/contracts/lightRoutes`, which hold no zod and
 * no entity definition): its method, path and permission. Its types are named here, its answer's
 * and those of its body and query schemas (`typeof loginBody`, imported as a type, which no bundle
 * downloads), so that a caller's body, query and answer are typed as the full route's; its schemas
 * and summary (bytes the client has no use for) are left out. The full contracts add them with
 * `fullRoute`; the server registers that one.
 *
 * @example
 * export const LIGHT_AUTH_ROUTES = {
 *   login: lightRoute<LoginAnswer, typeof loginBody>()({
 *     method: 'POST', path: '/auth/login', permission: PUBLIC,
 *   }),
 * };
 */
export const lightRoute =
  <R = unknown, B extends Schema = undefined, Q extends Schema = undefined>() =>
  <const M extends HttpMethod, const P extends string>(
    contract: Omit<RouteContract<M, P, undefined, undefined>, 'summary' | 'answer'>,
  ): RouteContract<M, P, B, Q, R> =>
    // Types only at run time: `fullRoute` adds the schemas and the summary.
    contract as RouteContract<M, P, never, never> as RouteContract<M, P, B, Q, R>;

/**
 * What a light route (`lightRoute`) was declared without: its summary, and each schema its types
 * name.
 */
type FullPart<B extends Schema, Q extends Schema> = (B extends z.ZodType ? { body: B } : unknown) &
  (Q extends z.ZodType ? { query: Q } : unknown) & { summary: string; response?: z.ZodType };

/**
 * A light route (`lightRoute`) with its summary and schemas: the route the server registers, the
 * path, method, permission and answer being the light one's.
 *
 * @example login: fullRoute(LIGHT_AUTH_ROUTES.login, { summary: 'Sign in', body: loginBody })
 */
export function fullRoute<M extends HttpMethod, P extends string, B extends Schema, Q extends Schema, R>(
  light: RouteContract<M, P, B, Q, R>,
  full: FullPart<B, Q>,
): RouteContract<M, P, B, Q, R> {
  return { ...light, ...full };
}

/** Any route contract. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteContract<HttpMethod, string, any, any, any>;

/** What a route answers. */
export type RouteAnswer<C> = C extends RouteContract<HttpMethod, string, Schema, Schema, infer R> ? R : never;

/** What a caller passes to call a route: its path parameters, query and body, as written. */
export type RouteInput<C> =
  C extends RouteContract<HttpMethod, infer P, infer B, infer Q, unknown, infer U>
    ? ([PathParamNames<P>] extends [never]
        ? unknown
        : { params: Record<PathParamNames<P>, string | number> }) &
        (B extends z.ZodType ? { body: z.input<B> } : unknown) &
        (Q extends z.ZodType ? { query?: z.input<Q> } : unknown) &
        (U extends { json: infer J extends z.ZodType }
          ? { body: FormDataLike | z.input<J> }
          : U extends MultipartBody
            ? { body: FormDataLike }
            : unknown)
    : never;

/** A multipart body (the browser's `FormData`), named without the DOM's types. */
interface FormDataLike {
  append(name: string, ...rest: never[]): void;
}

/**
 * A path with its `:parameters` filled in (each URI-encoded); a missing one throws, since the call
 * would reach another route.
 *
 * @example pathOf('/chats/:chatId/messages', { chatId: 4 }) // '/chats/4/messages'
 */
export function pathOf(path: string, params: Readonly<Record<string, string | number>> = {}): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`${path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}
