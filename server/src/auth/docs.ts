import type { FastifySchema, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import { toOpenApi } from '../engine/openapi';

/** Validation stays with the zod schemas (translated field messages); route schemas only document. */
const documentOnly = () => (data: unknown) => ({ value: data });

/**
 * Route options that put a route in the OpenAPI document (tags, summary, body or query) without
 * letting Fastify validate it.
 *
 * @example
 * app.post('/api/auth/login', docs({ tags: ['auth'], summary: 'Sign in', body: loginBody }), handler);
 */
export function docs(options: {
  tags: string[];
  summary: string;
  body?: z.ZodType;
  querystring?: z.ZodType;
  secured?: boolean;
}): RouteShorthandOptions {
  const schema: FastifySchema & Record<string, unknown> = { tags: options.tags, summary: options.summary };
  if (options.body) schema.body = toOpenApi(options.body);
  if (options.querystring) schema.querystring = toOpenApi(options.querystring);
  if (options.secured) schema.security = [{ bearerAuth: [] }];
  return { schema, validatorCompiler: documentOnly };
}
