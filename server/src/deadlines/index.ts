import { DEADLINE_ROUTES, deadlines } from '@mizan/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute } from '../http/route';
import { defineReminderJobs } from '../reminders';
import { countPeriod } from './calendar';
import { installCalendarFeeds } from './feeds';
import { remindDeadlinesDue, tellClientsOfDeadlines } from './reminders';
import { installDeadlineHooks } from './rules';

export { deadlineMigrations } from './migrations';

/**
 * Legal periods: holidays and rules (settings lists), the deadlines a judgment starts on its
 * lawsuit, the date calculator (`GET /api/admin/deadlines/calculate`) and the morning reminder of
 * deadlines falling due; each employee's calendar feeds (feeds.ts). Periods are counted by one function (`addPeriod`, period.ts) on the
 * office's working calendar (calendar.ts).
 */
export const deadlinesPlugin: FastifyPluginAsync = async (app) => {
  installDeadlineHooks(app);
  installCalendarFeeds(app);
  defineReminderJobs(app, 'deadline reminders sent', [
    { name: 'reminders.deadlineDue', kind: 'deadlineDue', send: remindDeadlinesDue },
    // The clients' message, at the same morning time (its own run, so either may fail alone).
    { name: 'messages.deadlineApproaching', kind: 'deadlineDue', send: tellClientsOfDeadlines },
  ]);

  defineRoute(app, DEADLINE_ROUTES.calculate, {
    tags: [deadlines.name],
    labels: 'legal.calculator.fields',
    handler: async (_request, { query }) => ({
      data: await countPeriod(app.db, query.from, query, { country: query.country, field: 'from' }),
    }),
  });
};
// Hooks and routes belong to the app, not an encapsulated child context.
(deadlinesPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
