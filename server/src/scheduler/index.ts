import type { FastifyPluginAsync } from 'fastify';
import { readTimeZone } from '../system';
import { Scheduler } from './scheduler';

export { schedulerMigrations } from './migrations';
export { dailyAt, wallTimeInZone, type Schedule, type ScheduleEnv } from './schedule';
export { Scheduler, type JobDefinition, type JobRun } from './scheduler';

declare module 'fastify' {
  interface FastifyInstance {
    /** Recurring jobs, run once across instances (`app.scheduler.define(...)` while registering). */
    scheduler: Scheduler;
  }
}

/**
 * The job scheduler, on the app for the modules registered after it. It polls only once started
 * (main.ts, after listening): tests drive it with `app.scheduler.tick()` and the app's clock.
 * Stopped before the app closes its database.
 */
export const schedulerPlugin: FastifyPluginAsync = async (app) => {
  const scheduler = new Scheduler({
    db: app.db,
    clock: app.clock,
    timeZone: () => readTimeZone(app.db),
    log: app.log.child({ module: 'scheduler' }),
  });
  app.decorate('scheduler', scheduler);
  app.addHook('preClose', async () => {
    await scheduler.stop();
  });
};
// The scheduler belongs to the app, not an encapsulated child context.
(schedulerPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
