import { z } from 'zod';
import { DOCUMENT_FILE_TYPES, defineEntity } from '../entity';

/** How urgent a task is, lowest first. */
export const TASK_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];

/**
 * Where a task stands, in board order. `done` and `cancelled` are closed: a closed task is never
 * overdue and gets no due reminders.
 */
export const TASK_STATES = ['new', 'inProgress', 'waiting', 'done', 'cancelled'] as const;
export type TaskState = (typeof TASK_STATES)[number];
export const CLOSED_TASK_STATES: readonly TaskState[] = ['done', 'cancelled'];

/** What a task's or a comment's files may be: the office's documents (PDF, images, Word). */
export const TASK_FILE_TYPES = DOCUMENT_FILE_TYPES;
/** Most files one task (or one comment) holds. */
export const TASK_FILE_MAX_COUNT = 20;
/** Longest text attachment (sanitised HTML), in characters. */
export const TASK_TEXT_MAX = 200_000;

/**
 * Tasks (`/admin/lawsuits/tasks`): the office's work items. Each has a title and
 * description, a type (settings' task types), a priority, a state (`TASK_STATES`; changed only by
 * `PATCH /status/{id}`, which records who and when), assignees and the employee who created it
 * (the server's), a due instant, an optional lawsuit, hearing or client it concerns, files, and a
 * rich-text working note (`text`: a memo draft, a checklist) saved only by
 * `PATCH /update/text/{id}` with the version read (409 on a stale one), sanitised on the server.
 *
 * Field filters by lawsuit, assignee, creator, type, priority and state ("mine" is
 * `assigneeIds=<me>`, "created by me" `createdById=<me>`); declared ones for "overdue" and "due
 * within N days". Who sees which task, comments and their routes:
 * api/tasks.ts.
 */
export const tasks = defineEntity({
  name: 'tasks',
  path: '/admin/lawsuits/tasks',
  remote: 'tasks',
  menu: { group: 'legal', order: 5 },
  titleField: 'title',
  status: false,
  defaultSort: 'dueAt:asc',
  // "My open tasks by due date" and the overdue sweep, at a million tasks.
  // Open tasks by due date; done tasks by when they were done (the dashboard's tasks done).
  indexes: [
    ['state', 'dueAt'],
    ['state', 'stateChangedAt'],
  ],
  fileDeletePath: '/:ownerId/attachments/:fileId',
  listFilters: {
    /** Open and due before now (`true`), or not (`false`). */
    overdue: { type: 'boolean' },
    /** Open and due from now until N days (24 h each) from now. */
    dueWithinDays: { type: 'integer', min: 0, max: 366 },
  },
  actions: {
    /** Moves the task to another state, recording who and when (`PATCH /status/{id}`). */
    status: { path: '/status/:id', body: z.object({ state: z.enum(TASK_STATES) }) },
    /** Saves the text attachment; `updatedAt` is required (`PATCH /update/text/{id}`). */
    updateText: {
      path: '/update/text/:id',
      body: z.object({ text: z.string().max(TASK_TEXT_MAX, { error: 'validation.string.max' }) }),
    },
  },
  fields: {
    title: { type: 'string', required: true, max: 200, search: true, sort: true },
    description: { type: 'text', max: 5000, search: true, list: false },
    typeId: { type: 'ref', entity: 'taskTypes', filter: true },
    priority: {
      type: 'enum',
      values: TASK_PRIORITIES,
      required: true,
      default: 'normal',
      filter: true,
      sort: true,
    },
    state: {
      type: 'enum',
      values: TASK_STATES,
      required: true,
      default: 'new',
      filter: true,
      sort: true,
      form: false,
      setBy: 'action',
    },
    assigneeIds: { type: 'refs', entity: 'employees', required: true, filter: true },
    createdById: { type: 'ref', entity: 'employees', filter: true, form: false, setBy: 'server' },
    dueAt: { type: 'datetime', sort: true },
    lawsuitId: { type: 'ref', entity: 'lawsuits', filter: true },
    sessionId: { type: 'ref', entity: 'sessions', filter: true, list: false },
    customerId: { type: 'ref', entity: 'customers', filter: true, list: false },
    files: {
      type: 'files',
      accept: TASK_FILE_TYPES,
      maxCount: TASK_FILE_MAX_COUNT,
      list: false,
    },
    // The working note: given on create, then saved by `updateText` only.
    text: { type: 'text', max: TASK_TEXT_MAX, list: false, form: false, setBy: 'create' },
    stateChangedAt: { type: 'datetime', list: false, form: false, setBy: 'action' },
    stateChangedById: { type: 'ref', entity: 'employees', list: false, form: false, setBy: 'action' },
  },
});

/** Longest comment, in characters. */
export const TASK_COMMENT_MAX = 5000;
/** Most files one comment holds. */
export const TASK_COMMENT_FILE_MAX_COUNT = 10;

/**
 * A task's comment thread (`POST /comments`, `GET /{id}/comments`,
 * `DELETE /{taskId}/comments/{commentId}`): plain text with optional files, written by its author
 * (the server's), editable and deletable only by the author or with `tasks.moderate`. A comment is
 * visible exactly when its task is; edited when `updatedAt` is later than `createdAt`. Shown inside
 * the task's page, never on its own screen.
 */
export const taskComments = defineEntity({
  name: 'taskComments',
  path: '/admin/lawsuits/tasks/comments',
  remote: 'tasks',
  menu: false,
  status: false,
  titleField: 'body',
  defaultSort: 'createdAt:asc',
  indexes: [['taskId', 'createdAt']],
  fields: {
    taskId: {
      type: 'ref',
      entity: 'tasks',
      required: true,
      filter: true,
      createOnly: true,
      onDelete: 'cascade',
    },
    body: { type: 'text', required: true, max: TASK_COMMENT_MAX },
    authorId: { type: 'ref', entity: 'employees', form: false, setBy: 'server' },
    files: {
      type: 'files',
      accept: TASK_FILE_TYPES,
      maxCount: TASK_COMMENT_FILE_MAX_COUNT,
    },
  },
});
