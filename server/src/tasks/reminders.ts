import { CLOSED_TASK_STATES, tasks } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { cols, readRow, selectFields } from '../engine/rows';
import { officeToday } from '../engine/today';
import { notify, type NotifyInput } from '../notifications/send';
import { wallTimeInZone, type JobRun } from '../scheduler';
import { ASSIGNEES, employees, involved } from './people';
import { formatInZone, taskLink } from './text';

const { dueAt: DUE_AT, state: STATE } = cols(tasks);

interface DueTask {
  id: number;
  title: string;
  dueAt: string;
  assigneeIds: number[];
  createdById: number | null;
}

/** Open tasks due in [from, to), with their assignees. */
async function openTasksDue(app: FastifyInstance, from: Date | null, to: Date): Promise<DueTask[]> {
  let query = selectFields(app.db, tasks, ['title', 'dueAt', 'createdById'])
    .where(STATE, 'not in', [...CLOSED_TASK_STATES])
    .where(DUE_AT, '<', to.toISOString())
    .orderBy(DUE_AT)
    .orderBy('id');
  if (from) query = query.where(DUE_AT, '>=', from.toISOString());
  const rows = (await query.execute()).map((row) => readRow(tasks, row));
  if (!rows.length) return [];
  const links = await app.db
    .selectFrom(ASSIGNEES)
    .select(['owner_id', 'ref_id'])
    .where(
      'owner_id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  return rows.flatMap((r) =>
    r.dueAt === null
      ? []
      : {
          id: r.id,
          title: r.title,
          dueAt: new Date(r.dueAt).toISOString(),
          assigneeIds: links.filter((l) => Number(l.owner_id) === r.id).map((l) => Number(l.ref_id)),
          createdById: r.createdById,
        },
  );
}

/**
 * Notifies `recipients(task)` (active employees only) of each task in `kind`, once per task, due
 * instant and employee: the due instant is part of the key, so a task moved to another time is
 * reminded of again. Answers how many were stored.
 */
async function remind(
  app: FastifyInstance,
  run: JobRun,
  list: DueTask[],
  kind: 'taskDueTomorrow' | 'taskOverdue',
  recipients: (task: DueTask) => number[],
): Promise<number> {
  const active = new Set(
    (await employees(app.db, list.flatMap(recipients))).filter((e) => e.active).map((e) => e.id),
  );
  const inputs: NotifyInput[] = list.flatMap((task) =>
    [...new Set(recipients(task))]
      .filter((id) => active.has(id))
      .map((employeeId) => ({
        employeeId,
        kind,
        params: { title: task.title, dueAt: formatInZone(task.dueAt, run.timeZone) },
        link: taskLink(task.id),
        key: `${kind}:${task.id}:${task.dueAt}`,
      })),
  );
  return notify(app, app.db, inputs);
}

/** The evening before: open tasks due tomorrow (the office's day), to their assignees. */
export async function remindTasksDueTomorrow(app: FastifyInstance, run: JobRun): Promise<number> {
  const { daysFromToday } = officeToday(run.timeZone, run.now);
  const from = wallTimeInZone(run.timeZone, daysFromToday(1), '00:00');
  const to = wallTimeInZone(run.timeZone, daysFromToday(2), '00:00');
  const list = await openTasksDue(app, from, to);
  return remind(app, run, list, 'taskDueTomorrow', (t) => t.assigneeIds);
}

/** Each morning: open tasks past their due instant, to their assignees and creator, once each. */
export async function remindTasksOverdue(app: FastifyInstance, run: JobRun): Promise<number> {
  const list = await openTasksDue(app, null, run.now);
  return remind(app, run, list, 'taskOverdue', (t) => involved(t));
}
