import type { FastifyPluginAsync } from 'fastify';
import { dailyAt } from '../scheduler';
import { readSettings } from '../system';
import {
  remindHearingsToday,
  remindHearingsTomorrow,
  remindHearingsWithoutDecision,
  remindProcurationsExpiring,
} from './reminders';

/**
 * The reminders, as jobs of the scheduler at the times in the system settings (read at each
 * poll, so a changed time applies to the next run): the evening before a hearing
 * (`reminderEveningTime`), and each morning (`reminderMorningTime`) today's hearings, hearings left
 * without a decision and expiring powers of attorney. Every notification carries a key, so a run
 * repeated after a crash sends nothing twice.
 */
export const remindersPlugin: FastifyPluginAsync = async (app) => {
  const evening = dailyAt(async () => (await readSettings(app.db)).reminderEveningTime);
  const morning = dailyAt(async () => (await readSettings(app.db)).reminderMorningTime);
  const jobs = [
    { name: 'reminders.hearingTomorrow', schedule: evening, send: remindHearingsTomorrow },
    { name: 'reminders.hearingToday', schedule: morning, send: remindHearingsToday },
    { name: 'reminders.hearingNoDecision', schedule: morning, send: remindHearingsWithoutDecision },
    { name: 'reminders.procurationExpiring', schedule: morning, send: remindProcurationsExpiring },
  ];
  for (const { name, schedule, send } of jobs)
    app.scheduler.define({
      name,
      schedule,
      run: async (run) => {
        const sent = await send(app, run);
        app.log.info({ job: name, sent }, 'reminders sent');
      },
    });
};
// Hooks and routes belong to the app, not an encapsulated child context.
(remindersPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
