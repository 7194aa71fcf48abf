import type { FastifyPluginAsync } from 'fastify';
import { JobQueue } from './queue';

export { jobsMigrations } from './migrations';
export {
  JobQueue,
  JOBS_TABLE,
  type EnqueueOptions,
  type JobContext,
  type JobFeeder,
  type JobKind,
  type JobState,
  type JobStatus,
} from './queue';

declare module 'fastify' {
  interface FastifyInstance {
    /** One-off background jobs, run once across instances (`app.jobs.define(...)` while registering). */
    jobs: JobQueue;
  }
}

/**
 * The job queue, on the app for the modules registered after it. It polls only once started
 * (main.ts, after listening, every `MIZAN_JOBS_POLL_SECONDS`): tests drive it with
 * `app.jobs.tick()` / `drain()`. Stopped before the app closes its database.
 */
export const jobsPlugin: FastifyPluginAsync = async (app) => {
  const jobs = new JobQueue({
    db: app.db,
    dialect: app.dialect,
    clock: app.clock,
    log: app.log.child({ module: 'jobs' }),
  });
  app.decorate('jobs', jobs);
  app.addHook('preClose', async () => {
    await jobs.stop();
  });
};
// The queue belongs to the app, not an encapsulated child context.
(jobsPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
