import { API_BASE, TASKS, permissionKey, taskComments, tasks, type FilesField } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../engine/context';
import { coerceFormFields } from '../engine/form';
import { pathId } from '../http/params';
import { readMultipart } from '../files/multipart';
import { AppError } from '../http/errors';
import { requirePermission } from '../auth/guard';
import { mayViewTask } from './tasks';

/**
 * `POST /{taskId}/attachments`: more files on a task, multipart `files` (and the
 * `updatedAt` read, optional), each checked for type and size like the task form's, within the
 * task's file limit; a write of the task (scope, version, audit, event). No file is 422, a body
 * that is not multipart 415.
 */
export function registerAttachmentRoute(app: FastifyInstance): void {
  const field = tasks.fields.files as FilesField;
  app.post<{ Params: { id: string } }>(
    API_BASE + TASKS.attachments,
    {
      onRequest: requirePermission(permissionKey(tasks.name, 'update')),
      schema: { tags: [tasks.name], summary: 'Add files to a task (multipart `files`)' },
    },
    async (request) => {
      const id = pathId(request.params.id);
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
        data: await app.entities.get(tasks.name).patch(actorOf(request), id, { updatedAt }, uploads),
      };
    },
  );
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
