import {
  TASK_ROUTES,
  entityActionPath,
  pathOf,
  tasks,
  type TaskRecord,
  type TaskStatusBody,
  type TaskTextBody,
} from '@mizan/contracts';
import { api, type RequestOptions } from '@mizan/sdk';
import type { EntityRow } from '@mizan/ui';

/**
 * Moves a task to another state (`PATCH /status/{id}`) with the version read; a task changed
 * since answers 409 with the current one. Silent: the board and the record page say what failed.
 */
export const setTaskState = (id: number, body: TaskStatusBody) =>
  api.patch<EntityRow>(pathOf(entityActionPath(tasks, 'status'), { id }), body, {
    silent: true,
  });

/** Saves the text attachment with the version it was loaded at; 409 `TaskTextConflict` when stale. */
export const saveTaskText = (id: number, body: TaskTextBody) =>
  api.patch<TaskRecord>(pathOf(entityActionPath(tasks, 'updateText'), { id }), body, { silent: true });

/** Adds files to a task (multipart `files`), reporting the bytes sent. */
export const uploadTaskFiles = (id: number, form: FormData, options?: RequestOptions) =>
  api.post<TaskRecord>(pathOf(TASK_ROUTES.addFiles.path, { id }), form, options);
