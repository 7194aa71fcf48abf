import type { FastifySchema, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import { toOpenApi } from '../http/route';

/**
 * Route options that document a route without letting Fastify validate it, for the people
 * module's routes until they are declared with `defineRoute` (which does this and more).
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
  return { schema, validatorCompiler: () => (data: unknown) => ({ value: data }) };
}
