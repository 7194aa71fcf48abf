import { z } from 'zod';
import { AREA_PERMISSIONS } from '../areaPermissions';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../entity';
import type { Gender } from '../entities/people';
import { answer, route } from '../route';
import { hasControlCharacters, isWellFormed } from '../text';

/**
 * Internal chat between employees: one-to-one and group chats, their messages (text, files, a
 * reply, edits and deletions), per-member read and delivery cursors, typing and presence. Every
 * route needs `chat.use`; only a chat's members read, post to or join its room (403 otherwise).
 * Answers are `{ data }` like every other route.
 */

/** Longest message text, in characters (after trimming). */
export const CHAT_TEXT_MAX = 10_000;
/** Longest group name. */
export const CHAT_NAME_MAX = 100;
/** Files one message may carry (each within the office's upload limit, `maxUploadMb`: 413 above). */
export const CHAT_FILES_MAX = 10;
/** What a chat file may be (415 otherwise): images (shown as previews), PDF, Office documents, text. */
export const CHAT_FILE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'text/plain',
] as const;
/** Messages per page of `GET /admin/chats/:chatId/messages`. */
export const CHAT_PAGE_DEFAULT = 50;
export const CHAT_PAGE_MAX = 200;

export type ChatKind = 'direct' | 'group';

/**
 * Where a message stands for its author: stored (`sent`), on every other member's device
 * (`delivered`), read by every other member (`read`). Derived from the members' cursors.
 */
export type ChatMessageStatus = 'sent' | 'delivered' | 'read';

/** A member of a chat, with how far they have received and read (message ids, 0 for none). */
export interface ChatMember {
  id: number;
  name: string;
  jobTitle: string | null;
  /** Group admins rename and change members; in a one-to-one chat both are admins. */
  admin: boolean;
  online: boolean;
  lastDeliveredId: number;
  lastReadId: number;
}

/** A stored file attached to a message: `GET /api/files/:id` serves it (images inline, for previews). */
export interface ChatFile {
  id: number;
  name: string;
  mimeType: string;
  size: number;
  /** An image the client may show as a preview. */
  image: boolean;
}

/** What a reply shows of the message it answers. */
export interface ChatReplyPreview {
  id: number;
  senderId: number;
  senderName: string;
  /** The first 200 characters; '' when it was deleted or carried only files. */
  text: string;
  deleted: boolean;
}

/**
 * One message. Deleted messages stay as tombstones (`deletedAt` set, `text` '' and no files) so
 * that the order and replies hold.
 *
 * @example
 * { id: 91, chatId: 4, clientId: '0b6c…', senderId: 3, senderName: 'سارة', text: 'تم @أحمد',
 *   files: [], replyTo: null, mentions: [7], status: 'read', createdAt: '2026-11-23T18:00:00.000Z',
 *   editedAt: null, deletedAt: null }
 */
export interface ChatMessage {
  id: number;
  chatId: number;
  /** The sender's idempotency key: a retried send with the same key answers the stored message. */
  clientId: string;
  senderId: number;
  senderName: string;
  text: string;
  files: ChatFile[];
  replyTo: ChatReplyPreview | null;
  /** Employees mentioned with @name (they get a `chatMention` notification). */
  mentions: number[];
  status: ChatMessageStatus;
  createdAt: string;
  editedAt: string | null;
  deletedAt: string | null;
}

/** A row of the chat list. */
export interface ChatSummary {
  id: number;
  kind: ChatKind;
  /** A group's name; null for a one-to-one chat (show the other member's name). */
  name: string | null;
  createdBy: number;
  createdAt: string;
  /** The last message's time, or the creation time: the list is newest activity first. */
  lastActivityAt: string;
  /** Archived for the signed-in employee (others unaffected). */
  archived: boolean;
  /** Messages of others after the signed-in employee's read cursor. */
  unread: number;
  lastMessage: ChatMessage | null;
  members: ChatMember[];
}

/** `GET /admin/chats/:id`, and the chat in room and inbox events. */
export type ChatDetail = ChatSummary;

const positiveId = z.coerce
  .number({ error: 'validation.types.integer' })
  .int({ error: 'validation.types.integer' })
  .positive({ error: 'validation.types.integer' });

/**
 * Text that is safe to store and show: well-formed, no control characters but tab and newlines,
 * trimmed, NFC. Bidi marks stay (Arabic and English mixed in one message).
 */
const chatText = (max: number) =>
  z
    .string({ error: 'validation.types.string' })
    .refine(isWellFormed, { error: 'validation.text.malformed', abort: true })
    .refine((v) => !hasControlCharacters(v), { error: 'validation.text.control', abort: true })
    .trim()
    .normalize('NFC')
    .pipe(z.string().max(max, { error: 'validation.string.max' }));

const booleanQuery = z
  .enum(['true', 'false'], { error: 'validation.enum' })
  .optional()
  .transform((v) => (v === undefined ? undefined : v === 'true'));

/** `GET /admin/chats`: newest activity first; `archived` chooses the archive (default: not archived). */
export const chatsQuery = z
  .object({
    q: z.string().trim().max(200, { error: 'validation.string.max' }).optional(),
    archived: booleanQuery,
    page: positiveId.default(1),
    pageSize: positiveId.max(MAX_PAGE_SIZE, { error: 'validation.number.max' }).default(DEFAULT_PAGE_SIZE),
  })
  .strip();
export type ChatsQuery = z.input<typeof chatsQuery>;

/** The `data` of `GET /admin/chats`. */
export interface ChatsPage {
  items: ChatSummary[];
  total: number;
  page: number;
  pageSize: number;
  /** Unread messages over all the employee's chats, archived ones included (the header badge). */
  unreadTotal: number;
}

/**
 * `POST /admin/chats`: a one-to-one chat with `memberId` (the existing one when the pair already
 * has one: `created` false), or a group with a name and at least one other member.
 *
 * @example { kind: 'direct', memberId: 7 }
 * @example { kind: 'group', name: 'قضايا العمال', memberIds: [7, 9], adminIds: [7] }
 */
export const createChatBody = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('direct'), memberId: positiveId }),
    z.object({
      kind: z.literal('group'),
      name: chatText(CHAT_NAME_MAX).pipe(z.string().min(1, { error: 'validation.whitespace' })),
      memberIds: z
        .array(positiveId, { error: 'validation.required' })
        .min(1, { error: 'validation.required' })
        .max(1000, { error: 'validation.array.max' }),
      /** Besides the creator, who is always an admin. */
      adminIds: z.array(positiveId).max(1000).optional(),
    }),
  ],
  { error: 'validation.enum' },
);
export type CreateChatBody = z.input<typeof createChatBody>;

/** The `data` of `POST /admin/chats`. */
export interface CreateChatAnswer {
  chat: ChatDetail;
  /** False when an existing one-to-one chat was answered. */
  created: boolean;
}

/**
 * `PUT /admin/chats/:id` (group admins; 422 on a one-to-one chat): the new name and/or the whole
 * member and admin lists (the server applies the difference). Admins must be members; a group keeps
 * at least one other member besides the caller and one admin.
 *
 * @example { name: 'فريق الاستئناف', memberIds: [3, 7, 12], adminIds: [3] }
 */
export const updateChatBody = z.object({
  name: chatText(CHAT_NAME_MAX)
    .pipe(z.string().min(1, { error: 'validation.whitespace' }))
    .optional(),
  memberIds: z.array(positiveId).min(1, { error: 'validation.required' }).max(1000).optional(),
  adminIds: z.array(positiveId).max(1000).optional(),
});
export type UpdateChatBody = z.input<typeof updateChatBody>;

/** `PATCH /admin/chats/:id/archive`: archive (default) or unarchive for the signed-in employee. */
export const archiveChatBody = z
  .object({ archived: z.boolean({ error: 'validation.types.boolean' }).default(true) })
  .default({ archived: true });
export type ArchiveChatBody = z.input<typeof archiveChatBody>;

/** `GET /admin/chats/employees`: active, not banned employees other than the caller, Arabic-folded `q`. */
export const chatEmployeesQuery = z
  .object({
    q: z.string().trim().max(200, { error: 'validation.string.max' }).optional(),
    limit: positiveId.max(MAX_PAGE_SIZE, { error: 'validation.number.max' }).default(50),
  })
  .strip();
export type ChatEmployeesQuery = z.input<typeof chatEmployeesQuery>;

export interface ChatEmployee {
  id: number;
  name: string;
  jobTitle: string | null;
  online: boolean;
}

/** The `data` of `GET /admin/chats/employees`. */
export interface ChatEmployeesAnswer {
  items: ChatEmployee[];
}

/** The `data` of `GET /admin/chats/unread`. */
export interface ChatUnreadAnswer {
  total: number;
  /** Chat id → unread messages, only chats with some. */
  chats: Record<string, number>;
}

/** The `data` of `GET /admin/chats/presence`. */
export interface ChatPresenceAnswer {
  online: number[];
}

/**
 * `GET /admin/chats/:chatId/messages`: ascending by id. Without a cursor: the newest page.
 * `before`: the page just older than that id (scrolling up). `after`: everything newer than that
 * id, oldest first, a page at a time (the gap after a reconnect: repeat while `hasMore`). `q`:
 * Arabic-folded search in the chat's texts (with `before` to page further back).
 */
export const chatMessagesQuery = z
  .object({
    before: positiveId.optional(),
    after: z.coerce.number({ error: 'validation.types.integer' }).int().min(0).optional(),
    q: z.string().trim().max(200, { error: 'validation.string.max' }).optional(),
    limit: positiveId.max(CHAT_PAGE_MAX, { error: 'validation.number.max' }).default(CHAT_PAGE_DEFAULT),
  })
  .strip();
export type ChatMessagesQuery = z.input<typeof chatMessagesQuery>;

/** The `data` of `GET /admin/chats/:chatId/messages`. */
export interface ChatMessagesPage {
  /** Ascending by id. */
  items: ChatMessage[];
  /** More messages lie beyond this page in the direction asked (older for `before`/none, newer for `after`). */
  hasMore: boolean;
}

/**
 * `POST /admin/chats/messages`. `clientId` is the idempotency key (a UUID the client makes once per
 * message and reuses on retry). `text` may be empty only when files are attached (multipart).
 *
 * @example { chatId: 4, clientId: '0b6c5e3e-…', text: 'الجلسة غدًا', replyToId: 88 }
 */
export const sendMessageBody = z.object({
  chatId: positiveId,
  clientId: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(64, { error: 'validation.string.max' })
    .regex(/^[A-Za-z0-9_-]+$/, { error: 'validation.pattern.mismatch' }),
  text: chatText(CHAT_TEXT_MAX).default(''),
  replyToId: positiveId.optional(),
});
export type SendMessageBody = z.input<typeof sendMessageBody>;

/** The `data` of `POST /admin/chats/messages`. */
export interface SendMessageAnswer {
  message: ChatMessage;
  /** False when the `clientId` was already stored (a retry): nothing new was sent. */
  created: boolean;
}

/** `PUT /admin/chats/messages/:messageId`: the author's new text (not empty, unless the message has files). */
export const editMessageBody = z.object({ text: chatText(CHAT_TEXT_MAX) });
export type EditMessageBody = z.input<typeof editMessageBody>;

/** `PUT /admin/chats/messages/read`: read up to `messageId`, or up to the newest message. */
export const readMessagesBody = z.object({ chatId: positiveId, messageId: positiveId.optional() });
export type ReadMessagesBody = z.input<typeof readMessagesBody>;

/** `PUT /admin/chats/messages/delivered`: the client holds every message up to `messageId`. */
export const deliveredMessagesBody = z.object({ chatId: positiveId, messageId: positiveId });
export type DeliveredMessagesBody = z.input<typeof deliveredMessagesBody>;

/** The `data` of `PUT /admin/chats/messages/read` and `/delivered`. */
export interface ChatCursorAnswer {
  chatId: number;
  lastReadId: number;
  lastDeliveredId: number;
  /** The employee's unread messages in this chat and over all chats after the change. */
  unread: number;
  unreadTotal: number;
}

/** Every chat route needs the chat permission; `:id` and `:chatId` are a chat's, `:messageId` a message's. */
const chatPermission = AREA_PERMISSIONS.chatUse;

/** The chat's routes, under `/admin/chats`. */
export const CHAT_ROUTES = {
  list: route({
    method: 'GET',
    path: '/admin/chats',
    permission: chatPermission,
    summary: 'The signed-in employee’s chats, newest activity first (archived ones with archived=true)',
    query: chatsQuery,
    answer: answer<ChatsPage>(),
  }),
  create: route({
    method: 'POST',
    path: '/admin/chats',
    permission: chatPermission,
    summary: 'Open a one-to-one chat (the existing one for the pair) or create a group',
    body: createChatBody,
    answer: answer<CreateChatAnswer>(),
  }),
  employees: route({
    method: 'GET',
    path: '/admin/chats/employees',
    permission: chatPermission,
    summary: 'Employees to chat with: active, not banned, Arabic-folded search',
    query: chatEmployeesQuery,
    answer: answer<ChatEmployeesAnswer>(),
  }),
  unread: route({
    method: 'GET',
    path: '/admin/chats/unread',
    permission: chatPermission,
    summary: 'Unread messages per chat and in total',
    answer: answer<ChatUnreadAnswer>(),
  }),
  presence: route({
    method: 'GET',
    path: '/admin/chats/presence',
    permission: chatPermission,
    summary: 'Employees with an open connection on any instance',
    answer: answer<ChatPresenceAnswer>(),
  }),
  one: route({
    method: 'GET',
    path: '/admin/chats/:id',
    permission: chatPermission,
    summary: 'One chat (members only)',
    answer: answer<ChatDetail>(),
  }),
  update: route({
    method: 'PUT',
    path: '/admin/chats/:id',
    permission: chatPermission,
    summary: 'Rename a group or set its members and admins (group admins)',
    body: updateChatBody,
    answer: answer<ChatDetail>(),
  }),
  remove: route({
    method: 'DELETE',
    path: '/admin/chats/:id',
    permission: chatPermission,
    summary: 'Delete a chat with its messages (its creator)',
    answer: answer<Record<string, never>>(),
  }),
  archive: route({
    method: 'PATCH',
    path: '/admin/chats/:id/archive',
    permission: chatPermission,
    summary: 'Archive or unarchive a chat for the signed-in employee',
    body: archiveChatBody,
    answer: answer<ChatDetail>(),
  }),
  leave: route({
    method: 'POST',
    path: '/admin/chats/:id/leave',
    permission: chatPermission,
    summary: 'Leave a group',
    answer: answer<Record<string, never>>(),
  }),
  messages: route({
    method: 'GET',
    path: '/admin/chats/:chatId/messages',
    permission: chatPermission,
    summary: 'A chat’s messages by cursor (before/after), or found by Arabic-folded search',
    query: chatMessagesQuery,
    answer: answer<ChatMessagesPage>(),
  }),
  /** JSON `sendMessageBody`, or multipart with the same fields plus `files` parts (the handler parses both). */
  send: route({
    method: 'POST',
    path: '/admin/chats/messages',
    permission: chatPermission,
    summary: 'Send a message (JSON, or multipart with files); a retried clientId is stored once',
    multipart: {
      parts: { chatId: 'string', clientId: 'string', text: 'string', replyToId: 'string', files: 'file' },
      json: sendMessageBody,
    },
    answer: answer<SendMessageAnswer>(),
  }),
  read: route({
    method: 'PUT',
    path: '/admin/chats/messages/read',
    permission: chatPermission,
    summary: 'Mark a chat read up to a message (default: everything up to now)',
    body: readMessagesBody,
    answer: answer<ChatCursorAnswer>(),
  }),
  delivered: route({
    method: 'PUT',
    path: '/admin/chats/messages/delivered',
    permission: chatPermission,
    summary: 'Acknowledge that the client holds the chat’s messages up to one',
    body: deliveredMessagesBody,
    answer: answer<ChatCursorAnswer>(),
  }),
  editMessage: route({
    method: 'PUT',
    path: '/admin/chats/messages/:messageId',
    permission: chatPermission,
    summary: 'Edit one’s own message',
    body: editMessageBody,
    answer: answer<ChatMessage>(),
  }),
  deleteMessage: route({
    method: 'DELETE',
    path: '/admin/chats/messages/:messageId',
    permission: chatPermission,
    summary: 'Delete one’s own message (a tombstone stays)',
    answer: answer<ChatMessage>(),
  }),
};

// ---------------------------------------------------------------------------------------------
// WebSocket

/**
 * Channels: a chat's room is `chatRoomChannel(id)` (`chats:room:<id>`, members only) carrying
 * `ChatRoomEvent`s and `ChatRoomMessage`s.
 */

/** The employee's own chat channel: only that employee joins it; it carries `ChatInboxMessage`s. */
export const chatInboxChannel = (employeeId: number) => `chats:user:${employeeId}`;

/** Presence of every employee: any `chat.use` holder joins it; it carries `ChatPresenceMessage`s. */
export const CHAT_PRESENCE_CHANNEL = 'chats:presence';

/** How far a member has received and read, after it moved. */
export interface ChatCursor {
  chatId: number;
  employeeId: number;
  lastDeliveredId: number;
  lastReadId: number;
}

/**
 * Events on `chats:room:<id>` (`{ type: 'event', channel, action, data }`): a new message
 * (`create`), an edited one (`update`), a deleted one (`delete`, the tombstone), a member's cursor
 * (`status`: derive statuses of your own messages from it), the chat itself renamed or its members
 * changed (`chat`).
 */
export type ChatRoomEvent =
  | { type: 'event'; channel: string; action: 'create' | 'update' | 'delete'; data: ChatMessage }
  | { type: 'event'; channel: string; action: 'status'; data: ChatCursor }
  | { type: 'event'; channel: string; action: 'chat'; data: ChatDetail };

/**
 * Typing, both ways on the room: the client sends `{ type: 'message', channel, data: { typing } }`
 * (at most every 2 s while typing, `false` when it stops); members receive it with the typist's
 * id, name and gender (the Arabic verb agrees: "يكتب"، "تكتب"). Never stored; the client drops a
 * typist not heard of for 5 s.
 */
export interface ChatTypingIn {
  typing: boolean;
}
export interface ChatRoomMessage {
  type: 'message';
  channel: string;
  from: number;
  data: { kind: 'typing'; employeeId: number; name: string; gender: Gender | null; typing: boolean };
}

/**
 * On `chats:user:<id>`: a new message in one of the employee's chats (`newMessage`: raise the
 * badge unless that chat is open; `mentioned` when the employee was @named), the employee's own
 * read marks from any tab (`read`), a chat the employee was added to or that changed (`chat`), one
 * the employee left, was removed from or that was deleted (`removed`: leave its room).
 */
export type ChatInboxData =
  | { kind: 'newMessage'; chatId: number; messageId: number; senderId: number; mentioned: boolean }
  | { kind: 'read'; chatId: number; unread: number; unreadTotal: number }
  | { kind: 'chat'; chat: ChatDetail }
  | { kind: 'removed'; chatId: number };
export interface ChatInboxMessage {
  type: 'message';
  channel: string;
  data: ChatInboxData;
}

/** On `chats:presence`: an employee's first socket opened or last one closed, on any instance. */
export interface ChatPresenceMessage {
  type: 'message';
  channel: string;
  data: { kind: 'presence'; employeeId: number; online: boolean };
}
