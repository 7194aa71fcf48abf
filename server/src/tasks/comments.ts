import {
  AREA_PERMISSIONS,
  TASK_ROUTES,
  taskChannel,
  taskComments,
  tasks,
  type TaskComment,
  type TaskCommentPage,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { AuthUser } from '../auth/types';
import { actorOf, type WriteContext } from '../engine/context';
import type { HookContext } from '../engine/hooks';
import { cols } from '../engine/rows';
import type { ApiRow } from '../engine/serialize';
import { AppError } from '../http/errors';
import { defineRoute } from '../http/route';
import { actorGender, notify } from '../notifications/send';
import { employees, involved } from './people';
import { taskLink } from './text';
import { mayViewTask, visibleTasks } from './tasks';

const TASK_ID = cols(taskComments).taskId;
/** How much of a comment its notification quotes. */
const EXCERPT = 120;

/** Whether `user` may edit or delete `comment`: its author, or a moderator. */
const mayChange = (user: AuthUser | null, comment: ApiRow) =>
  user === null || comment.authorId === user.id || user.permissions.has(AREA_PERMISSIONS.tasksModerate);

/** The task of a write (`taskId`), as the actor may see it: 404 otherwise, as if it did not exist. */
async function visibleTask(ctx: HookContext, taskId: unknown): Promise<void> {
  if (typeof taskId !== 'number' || !ctx.user) return;
  const exists = await ctx.trx
    .selectFrom(tasks.table)
    .select('id')
    .where('id', '=', taskId)
    .executeTakeFirst();
  // A task that does not exist is the engine's reference check (422 on the field).
  if (exists && !(await mayViewTask(ctx.trx, ctx.user, taskId))) throw new AppError('notFound');
}

const excerpt = (text: string) => (text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text);

/** Tells the task's people (active, not the author) of a new comment, within the write. */
async function notifyComment(app: FastifyInstance, ctx: WriteContext, comment: ApiRow): Promise<void> {
  const task = await app.entities.get(tasks.name).getIn(ctx, comment.taskId as number);
  if (!task) return;
  const to = (
    await employees(
      ctx.trx,
      involved(task).filter((id) => id !== ctx.user?.id),
    )
  )
    .filter((e) => e.active)
    .map((e) => e.id);
  await notify(
    app,
    ctx,
    to.map((employeeId) => ({
      employeeId,
      kind: 'taskComment' as const,
      params: {
        title: String(task.title),
        by: ctx.user?.name ?? '',
        ...actorGender(ctx),
        excerpt: excerpt(String(comment.body)),
      },
      link: taskLink(task.id),
    })),
  );
}

const LIVE_ACTIONS: Record<string, string> = {
  create: 'commentCreate',
  update: 'commentUpdate',
  delete: 'commentDelete',
};

/**
 * Comments beyond the generic pattern (call once per app, from the tasks plugin): seen exactly
 * when their task is (scope); written by the actor (the server sets the author), on a task the
 * actor sees (404 otherwise); edited and deleted by their author or with the moderate permission (403
 * otherwise); each write published on the task's channel, a new one notified to the task's people.
 */
export function installCommentHooks(app: FastifyInstance): void {
  app.entities.hooks(taskComments.name, {
    scope: (_ctx, user) => {
      const visible = visibleTasks(user);
      if (!visible) return null;
      return (eb, table) =>
        eb(
          `${table}.${TASK_ID}`,
          'in',
          eb
            .selectFrom(tasks.table)
            .select(`${tasks.table}.id`)
            .where((inner) => visible(inner, tasks.table)),
        );
    },
    async beforeCreate(ctx, values) {
      await visibleTask(ctx, values.taskId);
      // The author is the writer (`setBy: 'server'`: a body naming another is refused by the engine).
      values.authorId ??= ctx.user?.id ?? null;
    },
    beforeUpdate(ctx, values, before) {
      if (!mayChange(ctx.user, before)) throw new AppError('forbidden', { messageKey: 'tasks.notAuthor' });
    },
    beforeDelete(ctx, before) {
      if (!mayChange(ctx.user, before)) throw new AppError('forbidden', { messageKey: 'tasks.notAuthor' });
    },
    async afterChange(ctx, { action, before, after }) {
      const comment = (after ?? before)!;
      const channel = taskChannel(comment.taskId as number);
      ctx.work.events.push({
        channel,
        message: { type: 'event', channel, action: LIVE_ACTIONS[action] ?? action, data: comment },
      });
      if (action === 'create' && after) await notifyComment(app, ctx, after);
    },
  });
}

/** The seed's comment routes under the task: its thread, and deleting one of its comments. */
export function registerCommentRoutes(app: FastifyInstance): void {
  const comments = () => app.entities.get(taskComments.name);

  defineRoute(app, TASK_ROUTES.comments, {
    tags: [tasks.name],
    handler: async (request, { params, query }) => {
      const task = await app.entities.get(tasks.name).get(params.id, actorOf(request));
      const page = await comments().list(
        { taskId: task.id, sort: 'createdAt:asc', page: query.page, pageSize: query.pageSize },
        actorOf(request),
      );
      // The engine's rows are untyped; they are the entity's records.
      return { data: page as unknown as TaskCommentPage };
    },
  });

  defineRoute(app, TASK_ROUTES.deleteComment, {
    tags: [tasks.name],
    handler: async (request, { params }) => {
      const taskId = params.id;
      const comment = await comments().get(params.commentId, actorOf(request));
      if (comment.taskId !== taskId) throw new AppError('notFound');
      const removed = await comments().remove(actorOf(request), comment.id);
      return { data: removed as unknown as TaskComment };
    },
  });
}
