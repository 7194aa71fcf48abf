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

/** `GET TASKS.taskComments`: a page of the thread, `MAX_PAGE_SIZE` comments by default. */
export const taskCommentsQuery = z.object({
  page: z.coerce.number().int().positive().default(1),
  pageSize: z.coerce.number().int().positive().max(MAX_PAGE_SIZE).default(MAX_PAGE_SIZE),
});

/** The seed's comment routes under a task (paths from `TASKS`). */
export const TASK_ROUTES = {
  comments: route({
    method: 'GET',
    path: TASKS.taskComments,
    permission: permissionKey('tasks', 'view'),
    summary: "A task's comments, oldest first (paged)",
    query: taskCommentsQuery,
    answer: answer<TaskCommentPage>(),
  }),
  deleteComment: route({
    method: 'DELETE',
    path: TASKS.taskComment,
    permission: permissionKey('taskComments', 'delete'),
    summary: "Delete one of a task's comments (its author, or with tasks.moderate)",
    answer: answer<TaskComment>(),
  }),
};
