import type { FastifyPluginAsync } from 'fastify';
import { HEALTH, READY, type ReadinessAnswer, type ReadinessState } from '@mizan/contracts';
import { databaseAnswers } from './db';
import { requestLanguage, t } from './http/messages';

/** One readiness check: true when what it checks is reachable. */
export type ReadinessCheck = () => boolean | Promise<boolean>;

/**
 * What `/api/ready` checks, by name, in order. The app adds the database, the Redis bus when
 * configured and the files storage; a module using another outside service adds its own
 * (`app.readiness.add('redis-limits', () => ping())`).
 */
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();

  /** `timeoutMs`: how long one check may take before it counts as failing (`timeout`). */
  constructor(private readonly timeoutMs: number) {}

  /**
   * Adds a check under `name`; several checks under one name must all pass (the bus and the sign-in
   * limits each hold their own Redis connection).
   */
  add(name: string, check: ReadinessCheck): void {
    const before = this.checks.get(name);
    this.checks.set(name, before ? async () => (await before()) && (await check()) : check);
  }

  names(): string[] {
    return [...this.checks.keys()];
  }

  /** Runs every check at once, each within its time limit. */
  async run(): Promise<ReadinessAnswer> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]): Promise<[string, ReadinessState]> => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), this.timeoutMs);
        });
        try {
          const outcome = await Promise.race([
            Promise.resolve()
              .then(check)
              .catch(() => false),
            timeout,
          ]);
          return [name, outcome === 'timeout' ? 'timeout' : outcome ? 'ok' : 'failing'];
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const checks = Object.fromEntries(entries);
    const missing = entries.filter(([, state]) => state !== 'ok').map(([name]) => name);
    return { status: missing.length ? 'unready' : 'ready', checks, missing };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The checks of `/api/ready`. */
    readiness: Readiness;
  }
}

/**
 * `GET /api/health` (liveness): 200 while the process serves and its database answers, 503
 * otherwise. `GET /api/ready` (readiness): 200 when every check of `app.readiness` passes
 * (database, Redis when configured, files storage), 503 listing those that do not, so a load
 * balancer sends no one to an instance that cannot serve them.
 */
export const healthPlugin: FastifyPluginAsync = async (app) => {
  app.get(
    HEALTH,
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Liveness: the process serves and its database answers',
        security: [],
      },
    },
    async (request, reply) => {
      if (await databaseAnswers(app.db)) return { data: { status: 'ok' } };
      return reply.status(503).send({ message: t(request, 'http.unavailable'), code: 'unavailable' });
    },
  );
  app.get(
    READY,
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Readiness: database, Redis (when configured) and files storage reachable',
        security: [],
      },
    },
    async (request, reply) => {
      const answer = await app.readiness.run();
      if (answer.status === 'ready') return { data: answer };
      return reply.status(503).send({
        message: t(request, 'http.notReady', {
          missing: new Intl.ListFormat(requestLanguage(request), { type: 'conjunction' }).format(
            answer.missing,
          ),
        }),
        code: 'unavailable',
        data: answer,
      });
    },
  );
};
