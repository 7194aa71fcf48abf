import { API_BASE, entityActionPath, tasks } from '@mizan/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../http/errors';
import { defineReminderJobs } from '../reminders';
import { installCommentHooks, registerCommentRoutes } from './comments';
import { installFileAccess, registerAttachmentRoute } from './files';
import { installChannelGuard } from './live';
import { remindTasksDueTomorrow, remindTasksOverdue } from './reminders';
import { installTaskHooks } from './tasks';

const TEXT_ROUTE = API_BASE + entityActionPath(tasks, 'updateText');

/**
 * Tasks on the server: who sees which task, the rules of a task and its state move,
 * the sanitised text attachment with its version, files, the comment thread, the live channels,
 * notifications and the due reminders. CRUD, the actions' routes, audit and events are the
 * engine's, from the definitions (`tasks`, `taskComments`); this module adds what goes beyond.
 */
export const tasksPlugin: FastifyPluginAsync = async (app) => {
  installTaskHooks(app);
  installCommentHooks(app);
  installFileAccess(app);
  installChannelGuard(app);
  registerAttachmentRoute(app);
  registerCommentRoutes(app);
  // Saving the text without the version read would silently overwrite a colleague's edit.
  app.addHook('preValidation', async (request) => {
    if (request.method !== 'PATCH' || request.routeOptions.url !== TEXT_ROUTE) return;
    const body = request.body as { updatedAt?: unknown } | undefined;
    if (typeof body?.updatedAt !== 'string')
      throw new AppError('validation', {
        entity: tasks.name,
        errors: { updatedAt: [{ key: 'tasks.versionRequired' }] },
      });
  });

  // At the reminders' times of the system settings, as the hearing reminders.
  defineReminderJobs(app, 'task reminders sent', [
    { name: 'taskReminders.dueTomorrow', kind: 'taskDueTomorrow', send: remindTasksDueTomorrow },
    { name: 'taskReminders.overdue', kind: 'taskOverdue', send: remindTasksOverdue },
  ]);
};
// Hooks and routes belong to the app, not an encapsulated child context.
(tasksPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
