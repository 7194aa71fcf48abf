import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  onRequestAsyncHookHandler,
} from 'fastify';
import { z } from 'zod';
import { requestLanguage } from './messages';
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

/** `permission` of a route anyone may call, signed in or not (the login page's). */
export const PUBLIC = 'public';

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
 * Declares one route that is not an entity's CRUD: checks the permission, parses `body`, `query`
 * and `params` with their zod schemas from `@mizan/contracts` (422 with every field's message in
 * the request's language), puts the route with its schemas in the OpenAPI document, then calls
 * `handler` with the parsed input.
 *
 * @example
 * defineRoute(app, {
 *   method: 'GET',
 *   url: API_BASE + SYSTEM.audit,
 *   permission: AREA_PERMISSIONS.auditView,
 *   tags: ['system'],
 *   summary: 'Audit trail, newest first',
 *   query: auditQuery,
 *   response: auditPage,
 *   handler: async (_request, { query }) => ({ data: await listAudit(db, query) }),
 * });
 */
export function defineRoute<
  B extends Schema = undefined,
  Q extends Schema = undefined,
  P extends Schema = undefined,
>(app: FastifyInstance, spec: RouteSpec<B, Q, P>): void {
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
          params: parse(spec.params as P, request.params, request),
          query: parse(spec.query as Q, request.query, request),
          body: parse(spec.body as B, request.body, request),
        },
        reply,
      ),
  });
}
