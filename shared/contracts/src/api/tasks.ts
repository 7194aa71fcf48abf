import { z } from 'zod';
import type { StaleWriteError } from '../conflict';
import { MAX_PAGE_SIZE, type EntityRecord, type Page } from '../entity';
import { permissionKey } from '../permissions';
import { answer, route } from '../route';
import type { TaskState, taskComments, tasks } from '../entities/tasks';

/**
 * Tasks beyond their CRUD, under `/api/admin/lawsuits/tasks`: state moves, the text
 * attachment, files, comments and the live channels. `:id` is a positive integer (anything else
 * 404).
 *
 * Who sees a task: its assignees and its creator; with `tasks.moderate`, everyone's. Lists, the
 * record, writes, comments, files and the task's channel all follow that (404 outside it, as if
 * the task did not exist).
 */
/** A task as the API answers it. */
export type TaskRecord = EntityRecord<typeof tasks>;
/** A comment as the API answers it. */
export type TaskComment = EntityRecord<typeof taskComments>;
export type TaskCommentPage = Page<TaskComment>;

/** `PATCH /status/{id}`; `updatedAt` optional (the version read; 409 when stale). */
export interface TaskStatusBody {
  state: TaskState;
  updatedAt?: string;
}

/** `PATCH /update/text/{id}`: the HTML of the editor and the version it was loaded at (required). */
export interface TaskTextBody {
  text: string;
  updatedAt: string;
}

/** The 409 of a stale text save: `current.text` and `current.updatedAt` are what to merge with. */
export type TaskTextConflict = StaleWriteError<TaskRecord>;

/**
 * One task's live channel: the task's writes (`update`, `status`, `updateText`, `fileDelete`
 * arrives as `update`, `delete`) with the row as `data`, and its comments' (`commentCreate`,
 * `commentUpdate`, `commentDelete`) with the comment as `data`. Joining needs the task to be
 * visible to the employee.
 */
export const taskChannel = (taskId: number) => `tasks:task:${taskId}`;

/**
 * An employee's own task feed: every write of a task the employee is (or was, before the write)
 * assigned to or created, as `tasks` channel events. Only that employee may join. The entity
 * channel `tasks` (every task) needs `tasks.moderate`; `taskComments` is never joined.
 */
export const taskEmployeeChannel = (employeeId: number) => `tasks:employee:${employeeId}`;

/** What a task channel event's `action` names. */
export const TASK_LIVE_ACTIONS = [
  'create',
  'update',
  'status',
  'updateText',
  'delete',
  'commentCreate',
  'commentUpdate',
  'commentDelete',
] as const;
export type TaskLiveAction = (typeof TASK_LIVE_ACTIONS)[number];

/** `TASK_ROUTES.comments`: a page of the thread, `MAX_PAGE_SIZE` comments by default. */
export const taskCommentsQuery = z.object({
  page: z.coerce.number().int().positive().default(1),
  pageSize: z.coerce.number().int().positive().max(MAX_PAGE_SIZE).default(MAX_PAGE_SIZE),
});

/**
 * A task's routes beyond its CRUD and its actions (the state move and the text attachment are the
 * definition's `actions`; a file's deletion its `fileDeletePath`): more files, and the comment
 * thread under a task.
 */
export const TASK_ROUTES = {
  /**
   * Multipart `files` (and the `updatedAt` read, optional), each checked for type and size like
   * the task form's, within the task's file limit; a write of the task (scope, version, audit,
   * event). No file is 422, a body that is not multipart 415.
   */
  addFiles: route({
    method: 'POST',
    path: '/admin/lawsuits/tasks/:id/attachments',
    permission: permissionKey('tasks', 'update'),
    summary: 'Add files to a task (multipart `files`)',
    multipart: { parts: { files: 'file', updatedAt: 'string' }, required: ['files'] },
    answer: answer<TaskRecord>(),
  }),
  comments: route({
    method: 'GET',
    path: '/admin/lawsuits/tasks/:id/comments',
    permission: permissionKey('tasks', 'view'),
    summary: "A task's comments, oldest first (paged)",
    query: taskCommentsQuery,
    answer: answer<TaskCommentPage>(),
  }),
  deleteComment: route({
    method: 'DELETE',
    path: '/admin/lawsuits/tasks/:id/comments/:commentId',
    permission: permissionKey('taskComments', 'delete'),
    summary: "Delete one of a task's comments (its author, or with tasks.moderate)",
    answer: answer<TaskComment>(),
  }),
};
