import { SCHEDULED_NOTIFICATIONS, type ScheduledNotificationKind } from '@mizan/contracts';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { dailyAt, type JobRun } from '../scheduler';
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
  defineReminderJobs(app, 'reminders sent', [
    { name: 'reminders.hearingTomorrow', kind: 'hearingTomorrow', send: remindHearingsTomorrow },
    { name: 'reminders.hearingToday', kind: 'hearingToday', send: remindHearingsToday },
    { name: 'reminders.hearingNoDecision', kind: 'hearingNoDecision', send: remindHearingsWithoutDecision },
    { name: 'reminders.procurationExpiring', kind: 'procurationExpiring', send: remindProcurationsExpiring },
  ]);
};

/**
 * A reminder job: its scheduler name, the kind it sends (whose settings time it runs at,
 * `SCHEDULED_NOTIFICATIONS`), and the run (answers how many it sent).
 */
export interface ReminderJob {
  name: string;
  kind: ScheduledNotificationKind;
  send: (app: FastifyInstance, run: JobRun) => Promise<number>;
}

/**
 * Defines reminder jobs on the scheduler at the reminder times of the system settings
 * (`reminderEveningTime`, `reminderMorningTime`, read at each poll so a changed time applies to
 * the next run), logging `logMessage` with the count after each run. The hearing and power of
 * attorney reminders here, the task reminders in their own module.
 */
export function defineReminderJobs(
  app: FastifyInstance,
  logMessage: string,
  jobs: readonly ReminderJob[],
): void {
  const schedules = {
    evening: dailyAt(async () => (await readSettings(app.db)).reminderEveningTime),
    morning: dailyAt(async () => (await readSettings(app.db)).reminderMorningTime),
  };
  for (const { name, kind, send } of jobs)
    app.scheduler.define({
      name,
      schedule: schedules[SCHEDULED_NOTIFICATIONS[kind]],
      run: async (run) => {
        const sent = await send(app, run);
        app.log.info({ job: name, sent }, logMessage);
      },
    });
}
// Hooks and routes belong to the app, not an encapsulated child context.
(remindersPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
