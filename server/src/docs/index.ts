import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { API_BASE, DOCS } from '@mizan/contracts';
import { expandSchema } from '../http/route';

/**
 * OpenAPI document at `/api/docs/json`, browsable at `/api/docs`. Must be registered before any
 * route: it collects the schemas routes declare (the engine's come from the contracts' zod schemas).
 */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    // Route schemas are built on this first request for the document (`lazySchema`).
    transform: ({ schema, url }) => ({ schema: expandSchema(schema) as typeof schema, url }),
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Mizan API',
        description:
          'Staff back-office of a law office. Success bodies are `{ data }`; errors `{ message, errors?, code }` ' +
          'in the language of `Accept-Language` (ar default, en).',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Token from POST /api/auth/login' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: API_BASE + DOCS, staticCSP: true });
}
