import { TASK_ROUTES, taskComments, tasks, type FilesField, type TaskRecord } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../engine/context';
import { coerceFormFields } from '../engine/form';
import { readMultipart } from '../files/multipart';
import { AppError } from '../http/errors';
import { defineRoute } from '../http/route';
import { mayViewTask } from './tasks';

/** More files on a task (`TASK_ROUTES.addFiles`), each checked like the task form's. */
export function registerAttachmentRoute(app: FastifyInstance): void {
  const field = tasks.fields.files as FilesField;
  defineRoute(app, TASK_ROUTES.addFiles, {
    tags: [tasks.name],
    handler: async (request, { params }) => {
      if (!request.isMultipart()) throw new AppError('unsupportedMediaType');
      const { fields, uploads } = await readMultipart(request, app.fileStore, {
        files: { files: field },
      });
      if (!uploads.length)
        throw new AppError('validation', {
          entity: tasks.name,
          errors: { files: [{ key: 'tasks.noFiles' }] },
        });
      const { updatedAt } = coerceFormFields(tasks, fields, false);
      return {
        data: (await app.entities
          .get(tasks.name)
          .patch(actorOf(request), params.id, { updatedAt }, uploads)) as unknown as TaskRecord,
      };
    },
  });
}

/**
 * Who downloads a task's or a comment's file (`GET /api/files/:id`): whoever sees the task, not
 * everyone holding the tasks view permission.
 */
export function installFileAccess(app: FastifyInstance): void {
  app.fileAccess.set(tasks.name, (user, file) => mayViewTask(app.db, user, file.owner_id));
  app.fileAccess.set(taskComments.name, async (user, file) => {
    const comment = await app.db
      .selectFrom(taskComments.table)
      .select('task_id')
      .where('id', '=', file.owner_id)
      .executeTakeFirst();
    return comment !== undefined && mayViewTask(app.db, user, Number(comment.task_id));
  });
}
