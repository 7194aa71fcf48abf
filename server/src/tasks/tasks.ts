import {
  AREA_PERMISSIONS,
  CLOSED_TASK_STATES,
  sessions,
  taskChannel,
  taskEmployeeChannel,
  tasks,
  type TaskState,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { AuthUser } from '../auth/types';
import type { Db } from '../db';
import type { Trx, WriteContext } from '../engine/context';
import type { ChangeAction, HookContext, ScopeWhere } from '../engine/hooks';
import { cols, readRow, selectFields } from '../engine/rows';
import type { ApiRow } from '../engine/serialize';
import { AppError, type Translatable } from '../http/errors';
import { actorGender, notify } from '../notifications/send';
import { readTimeZone } from '../settings/repository';
import { ASSIGNEES, employees, involved } from './people';
import { sanitizeTaskText } from './sanitize';
import { formatInZone, taskLink } from './text';

const { createdById: CREATED_BY, state: STATE, dueAt: DUE_AT } = cols(tasks);
const invalid = (errors: Record<string, Translatable[]>) =>
  new AppError('validation', { entity: tasks.name, errors });

/** Whether `user` sees every task (not only those assigned to or created by them). */
export const seesAllTasks = (user: AuthUser) => user.permissions.has(AREA_PERMISSIONS.tasksModerate);

/**
 * The tasks `user` may see, as a condition on the tasks table: those they are assigned to or
 * created, unless they see all (the moderate permission, `AREA_PERMISSIONS.tasksModerate`).
 */
export function visibleTasks(user: AuthUser): ScopeWhere | null {
  if (seesAllTasks(user)) return null;
  return (eb, table) =>
    eb.or([
      eb(`${table}.${CREATED_BY}`, '=', user.id),
      eb(
        `${table}.id`,
        'in',
        eb.selectFrom(ASSIGNEES).select(`${ASSIGNEES}.owner_id`).where(`${ASSIGNEES}.ref_id`, '=', user.id),
      ),
    ]);
}

/**
 * Whether task `id` exists and `user` may see it (what the channel, files and comments ask), read
 * with `db` (inside a write, its transaction: SQLite's one connection is held by it).
 */
export async function mayViewTask(db: Db | Trx, user: AuthUser, id: number): Promise<boolean> {
  const scope = visibleTasks(user);
  let query = db.selectFrom(tasks.table).select('id').where('id', '=', id);
  if (scope) query = query.where((eb) => scope(eb, tasks.table));
  return (await query.executeTakeFirst()) !== undefined;
}

/** A due instant as stored: UTC ISO with milliseconds, so text comparison on SQLite orders it. */
const normalizeDue = (values: Record<string, unknown>) => {
  if (typeof values.dueAt === 'string') values.dueAt = new Date(values.dueAt).toISOString();
};

/** New assignees must be able to sign in (active, not banned): 422 naming those who cannot. */
async function checkAssignees(ctx: HookContext, ids: unknown, already: readonly number[]): Promise<void> {
  if (!Array.isArray(ids)) return;
  const added = (ids as number[]).filter((id) => !already.includes(id));
  const blocked = (await employees(ctx.trx, added)).filter((e) => !e.active);
  if (blocked.length)
    throw invalid({
      assigneeIds: [
        { key: 'tasks.assigneeInactive', params: { names: blocked.map((e) => e.name).join('، ') } },
      ],
    });
}

/** A hearing named by a task must be of the task's lawsuit, when it names one (422 on `sessionId`). */
async function checkHearing(ctx: HookContext, merged: Record<string, unknown>): Promise<void> {
  if (typeof merged.sessionId !== 'number' || typeof merged.lawsuitId !== 'number') return;
  const hearing = await selectFields(ctx.trx, sessions, ['lawsuitId'])
    .where('id', '=', merged.sessionId)
    .executeTakeFirst();
  if (hearing && readRow(sessions, hearing).lawsuitId !== merged.lawsuitId)
    throw invalid({ sessionId: [{ key: 'tasks.sessionOfAnotherLawsuit' }] });
}

/** Publishes a task write on the task's channel and on the feed of everyone it concerns (before and after). */
function publish(ctx: WriteContext, action: ChangeAction, before: ApiRow | null, after: ApiRow | null): void {
  const row = (after ?? before)!;
  const channels = [
    taskChannel(row.id),
    ...new Set([...involved(before), ...involved(after)].map(taskEmployeeChannel)),
  ];
  for (const channel of channels)
    ctx.work.events.push({ channel, message: { type: 'event', channel, action, data: row } });
}

/** Notifies `to` (active employees only, never the actor) of a task in one `kind`, within the write. */
async function notifyAbout(
  app: FastifyInstance,
  ctx: WriteContext,
  kind: 'taskAssigned' | 'taskState',
  row: ApiRow,
  to: readonly number[],
): Promise<void> {
  const recipients = (
    await employees(
      ctx.trx,
      to.filter((id) => id !== ctx.user?.id),
    )
  )
    .filter((e) => e.active)
    .map((e) => e.id);
  if (!recipients.length) return;
  const timeZone = await readTimeZone(ctx.trx);
  const dueAt = typeof row.dueAt === 'string' ? formatInZone(row.dueAt, timeZone) : '—';
  await notify(
    app,
    ctx,
    recipients.map((employeeId) => ({
      employeeId,
      kind,
      params: { title: String(row.title), by: ctx.user?.name ?? '', ...actorGender(ctx), dueAt },
      link: taskLink(row.id),
    })),
  );
}

/**
 * The tasks beyond the generic pattern (call once per app, from the tasks plugin):
 *
 * - scope: a task is seen by its assignees and creator, every task with the moderate permission;
 * - create: the creator is the actor, the state `new`; a due instant in the past is 422 (allowed
 *   when editing); new assignees must be active and not banned (422); a hearing must be of the
 *   task's lawsuit; the text attachment is sanitised;
 * - update: `text` (`setBy: 'create'`), `state`, the creator and the state move's who and when
 *   are declared `setBy`, which the engine refuses from a form;
 * - `status` moves the state and records who and when; `updateText` stores the sanitised text
 *   (the version check and the 409 with the current text are the engine's);
 * - list filters `overdue` and `dueWithinDays` (open tasks, by the due instant against now);
 * - every write is published on the task's channel and its people's feeds; new assignees and a
 *   state move are notified.
 */
export function installTaskHooks(app: FastifyInstance): void {
  const open = (eb: Parameters<ScopeWhere>[0], table: string) =>
    eb(`${table}.${STATE}`, 'not in', [...CLOSED_TASK_STATES]);
  app.entities.hooks(tasks.name, {
    scope: (_ctx, user) => visibleTasks(user),
    async beforeCreate(ctx, values) {
      values.createdById ??= ctx.user?.id ?? null;
      normalizeDue(values);
      if (typeof values.dueAt === 'string' && Date.parse(values.dueAt) < app.clock().getTime())
        throw invalid({ dueAt: [{ key: 'tasks.dueInPast' }] });
      if (typeof values.text === 'string') values.text = await sanitizeTaskText(values.text);
      await checkAssignees(ctx, values.assigneeIds, []);
      await checkHearing(ctx, values);
    },
    async beforeUpdate(ctx, values, before) {
      normalizeDue(values);
      await checkAssignees(ctx, values.assigneeIds, (before.assigneeIds as number[]) ?? []);
      if ('sessionId' in values || 'lawsuitId' in values) await checkHearing(ctx, { ...before, ...values });
    },
    async afterChange(ctx, { action, before, after }) {
      publish(ctx, action, before, after);
      if (!after) return;
      if (action === 'create' || action === 'update') {
        const had = new Set((before?.assigneeIds as number[] | undefined) ?? []);
        const added = ((after.assigneeIds as number[]) ?? []).filter((id) => !had.has(id));
        await notifyAbout(app, ctx, 'taskAssigned', after, added);
      }
      if (action === 'status' && before?.state !== after.state)
        await notifyAbout(app, ctx, 'taskState', after, involved(after));
    },
    actions: {
      status(ctx, _row, body: { state: TaskState }) {
        return {
          set: {
            state: body.state,
            stateChangedAt: app.clock().toISOString(),
            stateChangedById: ctx.user?.id ?? null,
          },
        };
      },
      async updateText(_ctx, _row, body: { text: string }) {
        return { set: { text: await sanitizeTaskText(body.text) } };
      },
    },
    listFilters: {
      overdue: (value, { eb, table }) => {
        const now = app.clock().toISOString();
        if (value) return eb.and([open(eb, table), eb(`${table}.${DUE_AT}`, '<', now)]);
        return eb.or([
          eb(`${table}.${STATE}`, 'in', [...CLOSED_TASK_STATES]),
          eb(`${table}.${DUE_AT}`, 'is', null),
          eb(`${table}.${DUE_AT}`, '>=', now),
        ]);
      },
      dueWithinDays: (days, { eb, table }) => {
        const now = app.clock().getTime();
        return eb.and([
          open(eb, table),
          eb(`${table}.${DUE_AT}`, '>=', new Date(now).toISOString()),
          eb(`${table}.${DUE_AT}`, '<=', new Date(now + Number(days) * 86_400_000).toISOString()),
        ]);
      },
    },
  });
}
