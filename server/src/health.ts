import type { FastifyPluginAsync } from 'fastify';
import { HEALTH, READY, type ReadyResult } from '@mizan/contracts';
import { databaseAnswers } from './db';
import { t } from './http/messages';

declare module 'fastify' {
  interface FastifyInstance {
    /** The parts `/api/ready` checks; modules add theirs while registering. */
    readiness: Readiness;
  }
}

/** Whether one part answers now; a check that throws or takes over 2 s counts as down. */
export type ReadyCheck = () => boolean | Promise<boolean>;

const CHECK_TIMEOUT_MS = 2000;

/**
 * The parts this instance needs to serve fully, by name (`database`, `redis`, ...). Several checks
 * under one name must all pass (the bus and the rate limits each hold a Redis connection).
 *
 * @example
 * app.readiness.add('redis', () => client.status === 'ready');
 */
export class Readiness {
  private readonly checks = new Map<string, ReadyCheck[]>();

  add(name: string, check: ReadyCheck): void {
    this.checks.set(name, [...(this.checks.get(name) ?? []), check]);
  }

  async run(): Promise<ReadyResult> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, checks]) => {
        const results = await Promise.all(checks.map(passes));
        return [name, results.every(Boolean) ? 'up' : 'down'] as const;
      }),
    );
    const checks = Object.fromEntries(entries);
    const missing = entries.filter(([, state]) => state === 'down').map(([name]) => name);
    return { status: missing.length ? 'degraded' : 'ready', checks, missing };
  }
}

async function passes(check: ReadyCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(check),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /api/health`: liveness, 200 while the database answers, 503 otherwise. `GET /api/ready`:
 * every part in `app.readiness` (database; Redis when configured), 503 naming what is missing
 * while the instance serves degraded (a load balancer may prefer the others meanwhile).
 */
export const healthPlugin: FastifyPluginAsync = async (app) => {
  app.get(
    HEALTH,
    { schema: { tags: ['system'], summary: 'Liveness check', security: [] } },
    async (request, reply) => {
      if (await databaseAnswers(app.db)) return { data: { status: 'ok' } };
      return reply.status(503).send({ message: t(request, 'http.unavailable'), code: 'unavailable' });
    },
  );
  app.get(
    READY,
    { schema: { tags: ['system'], summary: 'Readiness: the database, Redis when configured', security: [] } },
    async (request, reply) => {
      const result = await app.readiness.run();
      if (result.missing.length === 0) return { data: result };
      return reply.status(503).send({
        message: t(request, 'http.notReady', { missing: result.missing.join(', ') }),
        code: 'unavailable',
        ...result,
      });
    },
  );
};
