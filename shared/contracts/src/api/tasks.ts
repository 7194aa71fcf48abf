import type { StaleWriteError } from '../conflict';
import type { EntityRecord, Page } from '../entity';
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
export const TASKS = {
  /** `PATCH` `TaskStatusBody`: moves the state, records who and when (`tasks.status`). */
  status: '/admin/lawsuits/tasks/status/:id',
  /** `PATCH` `TaskTextBody`: saves the sanitised text attachment (`tasks.updateText`); 409 `TaskTextConflict`. */
  text: '/admin/lawsuits/tasks/update/text/:id',
  /** `POST` multipart: more files (`files`, and `updatedAt` optional) on the task (`tasks.update`). */
  attachments: '/admin/lawsuits/tasks/:id/attachments',
  /** `DELETE`: one file of the task (`tasks.update`). */
  attachment: '/admin/lawsuits/tasks/:ownerId/attachments/:fileId',
  /** `POST` multipart `taskId`, `body`, `files`: a new comment (`taskComments.create`). `PUT` (id in the body) edits. */
  comments: '/admin/lawsuits/tasks/comments',
  /** `GET` `?page&pageSize`: the task's comments, oldest first (`Page<TaskComment>`, `tasks.view`). */
  taskComments: '/admin/lawsuits/tasks/:id/comments',
  /** `DELETE`: one comment of the task (`taskComments.delete`; the author or `tasks.moderate`, else 403). */
  taskComment: '/admin/lawsuits/tasks/:id/comments/:commentId',
} as const;

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
