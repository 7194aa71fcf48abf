import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  onRequestAsyncHookHandler,
} from 'fastify';
import {
  API_BASE,
  isIdParam,
  PUBLIC,
  type AnyRoute,
  type PathParams,
  type RouteAnswer,
  type RouteContract,
} from '@mizan/contracts';
import { z } from 'zod';
import { requestLanguage } from './messages';
import { pathId } from './params';
import { parseInput } from './validation';

type JsonSchema = Record<string, unknown>;

const LAZY = Symbol.for('mizan.lazySchema');

/**
 * A route schema that only documents (validation is the handlers' own, with zod), built when the
 * OpenAPI document is first asked for rather than at start: converting every route's zod schemas
 * to JSON Schema is most of the work of registering the routes. `expandSchema` builds it; keys set
 * beside it meanwhile (the guard's `security` and `x-permission`) win over the built ones.
 */
export function lazySchema(build: () => FastifySchema & Record<string, unknown>): FastifySchema {
  return { [LAZY]: build } as FastifySchema;
}

/** The schema a route documents: a `lazySchema` built, merged with the keys set beside it. */
export function expandSchema(schema: FastifySchema | undefined): FastifySchema | undefined {
  const build = (schema as Record<symbol, unknown> | undefined)?.[LAZY] as (() => FastifySchema) | undefined;
  if (!build) return schema;
  const rest = { ...schema } as Record<PropertyKey, unknown>;
  delete rest[LAZY];
  return { ...build(), ...rest };
}

/** Each zod schema's JSON Schema by direction, converted once: route schemas are constants. */
const converted = {
  input: new WeakMap<z.ZodType, JsonSchema>(),
  output: new WeakMap<z.ZodType, JsonSchema>(),
};

/** JSON Schema (OpenAPI 3.0 flavour) of a zod schema, as its input is written or its output read. */
export function toOpenApi(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  let json = converted[io].get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as JsonSchema;
    delete json.$schema;
    converted[io].set(schema, json);
  }
  return json;
}

/** The error body of the API (docs/architecture.md), for the documentation. */
export const ERROR_BODY: JsonSchema = {
  type: 'object',
  properties: {
    message: { type: 'string' },
    code: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
};

export { PUBLIC };

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The check run before a route needing `permission` (`null`: any signed-in employee). The auth
     * module, a layer above this one, provides it when it registers; `defineRoute` only asks for it.
     */
    permissionGuard: (permission: string | readonly string[] | null) => onRequestAsyncHookHandler;
  }
}

/** The app's permission check (see `permissionGuard`), or a clear error when auth is not registered. */
function guardOf(app: FastifyInstance, spec: { method: string; url: string }) {
  if (!app.hasDecorator('permissionGuard'))
    throw new Error(
      `${spec.method} ${spec.url}: register the auth module before routes that need a permission`,
    );
  return app.permissionGuard;
}

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteSpec<B extends Schema, Q extends Schema, P extends Schema> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /**
   * The permission key the employee must hold; a list: any one of them (the handler checks the one
   * its input asks for); `null`: any signed-in employee; `PUBLIC`: anyone. Checked before the body
   * is read or anything validated.
   */
  permission: string | readonly string[] | null | typeof PUBLIC;
  tags: readonly string[];
  summary: string;
  /** JSON body, parsed before the handler runs (422 with field messages, 400 when not an object). */
  body?: B;
  query?: Q;
  params?: P;
  /** The `data` of a success answer, for the documentation (answers are not re-serialised by it). */
  response?: z.ZodType;
  /** A multipart body's parts, for the documentation; the handler reads it (`files/multipart`). */
  multipart?: { parts: Record<string, 'file' | 'string'>; required?: string[] };
  /**
   * Where field labels of 422 messages come from: an i18n key prefix (`system.fields` gives
   * `system.fields.<field>`). Default: the field's own name.
   */
  labels?: string;
  handler: (
    request: FastifyRequest,
    input: { body: Out<B>; query: Out<Q>; params: Out<P> },
    reply: FastifyReply,
  ) => Promise<unknown>;
}

/** Validation is zod's (translated field messages): Fastify's own validator only documents. */
const documentOnly = () => (data: unknown) => ({ value: data });
const asJson = () => (data: unknown) => JSON.stringify(data);

/**
 * The server's half of a route contract: the handler, and how the documentation groups it.
 * `input.params` holds the path's parameters, parsed (`PathParams`).
 */
export interface RouteImpl<C extends AnyRoute> {
  /** OpenAPI tags; default: the path's first segment after `/admin`. */
  tags?: readonly string[];
  /** Where field labels of 422 messages come from (see `RouteSpec.labels`). */
  labels?: string;
  handler: (
    request: FastifyRequest,
    input: C extends RouteContract<infer _M, infer P, infer B, infer Q, unknown>
      ? { body: Out<B>; query: Out<Q>; params: PathParams<P> }
      : never,
    reply: FastifyReply,
  ) => Promise<{ data: RouteAnswer<C> } | FastifyReply | void>;
}

/** A path's parameters as a route receives them: ids as positive integers (else 404), the rest as sent. */
function parsePathParams(raw: unknown): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries((raw ?? {}) as Record<string, string>))
    params[name] = isIdParam(name) ? pathId(value) : value;
  return params;
}

/** Routes are written under `/api/...`; a plugin registered under `/api` is also accepted. */
export function apiPath(app: FastifyInstance, path: string): string {
  return app.prefix.endsWith(API_BASE) ? path : `${API_BASE}${path}`;
}

/**
 * Declares one route that is not an entity's CRUD: checks the permission, parses `body`, `query`
 * and `params` with their zod schemas from `@mizan/contracts` (422 with every field's message in
 * the request's language), puts the route with its schemas in the OpenAPI document, then calls
 * `handler` with the parsed input.
 *
 * The route is one contract from `@mizan/contracts` (`route({ method, path, permission, ... })`),
 * which the client calls with `api.call`; the path's parameters arrive parsed (`PathParams`). The
 * older form, a whole spec with its `url`, is kept for routes not yet declared as contracts.
 *
 * @example
 * defineRoute(app, TIMER_START, {
 *   labels: 'entities:timeEntries.fields',
 *   handler: async (request, { body }) => ({ data: await start(request.user!.id, body) }),
 * });
 */
export function defineRoute<C extends AnyRoute>(app: FastifyInstance, contract: C, impl: RouteImpl<C>): void;
export function defineRoute<
  B extends Schema = undefined,
  Q extends Schema = undefined,
  P extends Schema = undefined,
>(app: FastifyInstance, spec: RouteSpec<B, Q, P>): void;
export function defineRoute(
  app: FastifyInstance,
  specOrContract: RouteSpec<Schema, Schema, Schema> | AnyRoute,
  impl?: RouteImpl<AnyRoute>,
): void {
  const summary = specOrContract.summary;
  // A light route (`lightRoute`) has neither summary nor schemas: its full route is the one to serve.
  if (summary === undefined)
    throw new Error(
      `${specOrContract.method} ${(specOrContract as AnyRoute).path}: a light route, serve its fullRoute`,
    );
  const spec: RouteSpec<Schema, Schema, Schema> & { pathParams?: boolean } = impl
    ? {
        ...(specOrContract as AnyRoute),
        summary,
        url: apiPath(app, (specOrContract as AnyRoute).path),
        multipart: (specOrContract as AnyRoute).multipart as RouteSpec<Schema, Schema, Schema>['multipart'],
        tags: impl.tags ?? [defaultTag((specOrContract as AnyRoute).path)],
        labels: impl.labels,
        handler: impl.handler as RouteSpec<Schema, Schema, Schema>['handler'],
        pathParams: true,
      }
    : (specOrContract as RouteSpec<Schema, Schema, Schema>);
  register(app, spec);
}

/** `/admin/finance/timer` is documented under `finance`; `/auth/login` under `auth`. */
function defaultTag(path: string): string {
  const [first, second] = path.split('/').filter(Boolean);
  return (first === 'admin' ? second : first) ?? 'api';
}

function register(
  app: FastifyInstance,
  spec: RouteSpec<Schema, Schema, Schema> & { pathParams?: boolean },
): void {
  const schema = lazySchema(() => {
    const doc: FastifySchema & Record<string, unknown> = { tags: [...spec.tags], summary: spec.summary };
    if (spec.permission !== PUBLIC) doc.security = [{ bearerAuth: [] }];
    if (spec.body) doc.body = toOpenApi(spec.body);
    if (spec.multipart) {
      doc.consumes = ['multipart/form-data'];
      doc.body = {
        type: 'object',
        properties: Object.fromEntries(
          Object.entries(spec.multipart.parts).map(([name, kind]) => [
            name,
            kind === 'file' ? { type: 'string', format: 'binary' } : { type: 'string' },
          ]),
        ),
        ...(spec.multipart.required?.length ? { required: spec.multipart.required } : {}),
      };
    }
    if (spec.query) doc.querystring = toOpenApi(spec.query);
    if (spec.params) doc.params = toOpenApi(spec.params);
    doc.response = {
      ...(spec.response
        ? { 200: { type: 'object', properties: { data: toOpenApi(spec.response, 'output') } } }
        : {}),
      '4xx': ERROR_BODY,
    };
    return doc;
  });
  const parse = <S extends Schema>(s: S, value: unknown, request: FastifyRequest): Out<S> =>
    (s ? parseInput(s, value ?? {}, requestLanguage(request), spec.labels) : undefined) as unknown as Out<S>;
  app.route({
    method: spec.method,
    url: spec.url,
    schema,
    validatorCompiler: documentOnly,
    serializerCompiler: asJson,
    config: { public: spec.permission === PUBLIC },
    onRequest: spec.permission === PUBLIC ? [] : [guardOf(app, spec)(spec.permission)],
    handler: async (request, reply) =>
      spec.handler(
        request,
        {
          params: spec.pathParams
            ? parsePathParams(request.params)
            : parse(spec.params, request.params, request),
          query: parse(spec.query, request.query, request),
          body: parse(spec.body, request.body, request),
        },
        reply,
      ),
  });
}
