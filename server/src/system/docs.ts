import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { toOpenApi } from '../engine/openapi';

/** Bearer token required (every route but the public images). */
export const security = [{ bearerAuth: [] }];

/** A zod schema as an OpenAPI document entry. */
export const doc = (schema: z.ZodType): Record<string, unknown> => toOpenApi(schema);

/** A multipart body of the given parts, for the OpenAPI document. */
export function multipartBody(
  parts: Record<string, 'file' | 'string'>,
  required: string[] = [],
): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(parts).map(([name, kind]) => [
        name,
        kind === 'file' ? { type: 'string', format: 'binary' } : { type: 'string' },
      ]),
    ),
    ...(required.length ? { required } : {}),
  };
}

/**
 * Route schemas of this module document only: validation is zod's (translated field messages),
 * so Fastify's own validator is turned off for the routes of `app` (this plugin's context).
 */
export function documentOnly(app: FastifyInstance): void {
  app.setValidatorCompiler(() => (data) => ({ value: data }));
}
