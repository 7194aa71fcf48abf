import type { FastifyPluginAsync } from 'fastify';
import { HEALTH } from '@mizan/contracts';
import { databaseAnswers } from './db';
import { t } from './http/messages';

/** `GET /api/health`: 200 while the database answers, 503 otherwise (for load balancers). */
export const healthPlugin: FastifyPluginAsync = async (app) => {
  app.get(
    HEALTH,
    { config: { public: true }, schema: { tags: ['system'], summary: 'Health check', security: [] } },
    async (request, reply) => {
      if (await databaseAnswers(app.db)) return { data: { status: 'ok' } };
      return reply.status(503).send({ message: t(request, 'http.unavailable'), code: 'unavailable' });
    },
  );
};
