import { deadlines, lawsuits } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { cols } from '../engine/rows';
import { officeToday } from '../engine/today';
import { raiseClientEvent, readDeadlineNoticeDays } from '../messages';
import { notify, type NotifyInput } from '../notifications/send';
import { activeEmployees, daysBetween, responsibleLawyers } from '../reminders/reminders';
import type { JobRun } from '../scheduler';
import { readSettings } from '../system';

const { dueDate: DUE, lawsuitId: LAWSUIT, lawyerId: LAWYER } = cols(deadlines);

/**
 * The open deadlines of active lawsuits falling due from the office's today to `leadDays` days
 * ahead (none when null), soonest first, with the today they were read for: what the lawyers'
 * reminders and the clients' messages both start from.
 */
async function deadlinesWithinLeadTime(app: FastifyInstance, run: JobRun, leadDays: number | null) {
  const { today, daysFromToday } = officeToday(run.timeZone, run.now);
  const rows =
    leadDays === null
      ? []
      : await app.db
          .selectFrom(`${deadlines.table} as d`)
          .innerJoin(`${lawsuits.table} as l`, 'l.id', `d.${LAWSUIT}`)
          .select([
            'd.id',
            `d.${DUE} as due`,
            `d.${LAWSUIT} as lawsuit`,
            `d.${LAWYER} as lawyer`,
            'l.file_number',
          ])
          .where('d.state', '=', 'open')
          .where('l.state', '=', 'active')
          .where(`d.${DUE}`, '>=', today)
          .where(`d.${DUE}`, '<=', daysFromToday(leadDays))
          .orderBy(`d.${DUE}`)
          .orderBy('d.id')
          .execute();
  return { today, rows };
}

/**
 * Each morning: open deadlines of active lawsuits falling due within one of the settings'
 * thresholds (`deadlineReminderDays`, days before the due date: 7, 3 and 1 by default), to the
 * deadline's lawyer and the lawsuit's responsible lawyers, once per deadline, threshold and due
 * date (a due date changed later is reminded of again). Only the smallest threshold reached is
 * sent: one first seen two days before with thresholds 7, 3, 1 gets the 3-day notice alone.
 */
export async function remindDeadlinesDue(app: FastifyInstance, run: JobRun): Promise<number> {
  const { deadlineReminderDays } = await readSettings(app.db);
  const { today, rows } = await deadlinesWithinLeadTime(
    app,
    run,
    deadlineReminderDays.length ? Math.max(...deadlineReminderDays) : null,
  );
  if (rows.length === 0) return 0;
  const responsible = await responsibleLawyers(
    app,
    rows.map((r) => Number(r.lawsuit)),
  );
  const recipients = rows.map((r) => {
    const to = new Set(responsible.get(Number(r.lawsuit)) ?? []);
    if (r.lawyer !== null) to.add(Number(r.lawyer));
    return to;
  });
  const active = await activeEmployees(
    app,
    recipients.flatMap((to) => [...to]),
  );
  const inputs: NotifyInput[] = [];
  rows.forEach((row, i) => {
    const due = String(row.due);
    const days = daysBetween(today, due);
    const threshold = Math.min(...deadlineReminderDays.filter((n) => n >= days));
    for (const employeeId of recipients[i]!)
      if (active.has(employeeId))
        inputs.push({
          employeeId,
          kind: 'deadlineDue',
          params: { fileNumber: String(row.file_number ?? ''), dueDate: due, days },
          link: `${deadlines.path}/${Number(row.id)}`,
          key: `deadlineDue:${Number(row.id)}:${threshold}:${due}`,
        });
  });
  return notify(app, app.db, inputs);
}

/**
 * Each morning: tells the clients of an active lawsuit (the `deadlineApproaching` message, by its
 * templates and the channels each agreed to) of an open deadline falling due within the clients'
 * lead time, the messaging setting `deadlineNoticeDays` (3 days by default, 0: never), apart from
 * the lawyers' `deadlineReminderDays`; once per deadline: the event's job is keyed by the
 * deadline, so a run repeated after a restart, or by a second instance, queues nothing more.
 * `{event.newDate}` is the due date. Answers how many deadlines are within the lead time.
 */
export async function tellClientsOfDeadlines(app: FastifyInstance, run: JobRun): Promise<number> {
  const days = await readDeadlineNoticeDays(app.db);
  const { rows } = await deadlinesWithinLeadTime(app, run, days > 0 ? days : null);
  for (const row of rows)
    await raiseClientEvent(
      app,
      { event: 'deadlineApproaching', recordId: Number(row.lawsuit), extra: { newDate: String(row.due) } },
      `deadlineApproaching:deadline:${Number(row.id)}`,
    );
  return rows.length;
}
