import {
  CHAT_ROUTES,
  type ArchiveChatBody,
  type ChatMessage,
  type ChatMessagesQuery,
  type CreateChatBody,
  type SendMessageBody,
  type UpdateChatBody,
} from '@mizan/contracts';
import { api, isApiError } from '@mizan/sdk';
import type { OutboxEntry, SendOutcome } from './messages/outbox';

/** Query keys of the chat screens: every one starts with `chats`. */
export const chatKeys = {
  all: ['chats'] as const,
  lists: ['chats', 'list'] as const,
  list: (archived: boolean, q: string) => ['chats', 'list', { archived, q }] as const,
  one: (id: number) => ['chats', 'one', id] as const,
  employees: (q: string) => ['chats', 'employees', q] as const,
  presence: ['chats', 'presence'] as const,
};

/** The chat routes (`/api/admin/chats…`); answers unwrapped by the SDK. */
export const chatApi = {
  list: (archived: boolean, q: string) =>
    api.call(CHAT_ROUTES.list, {
      query: { archived: archived ? 'true' : 'false', pageSize: 100, ...(q ? { q } : {}) },
    }),
  one: (id: number) => api.call(CHAT_ROUTES.one, { params: { id } }),
  create: (body: CreateChatBody) => api.call(CHAT_ROUTES.create, { body }),
  update: (id: number, body: UpdateChatBody) => api.call(CHAT_ROUTES.update, { params: { id }, body }),
  remove: (id: number) => api.call(CHAT_ROUTES.remove, { params: { id } }),
  archive: (id: number, body: ArchiveChatBody) => api.call(CHAT_ROUTES.archive, { params: { id }, body }),
  leave: (id: number) => api.call(CHAT_ROUTES.leave, { params: { id } }),
  employees: (q: string) => api.call(CHAT_ROUTES.employees, { query: q ? { q } : {} }),
  presence: () => api.call(CHAT_ROUTES.presence, {}, { silent: true }),
  messages: (chatId: number, query: ChatMessagesQuery) =>
    api.call(CHAT_ROUTES.messages, { params: { chatId }, query }),
  edit: (messageId: number, text: string) =>
    api.call(CHAT_ROUTES.editMessage, { params: { messageId }, body: { text } }),
  deleteMessage: (messageId: number) => api.call(CHAT_ROUTES.deleteMessage, { params: { messageId } }),
  // Read and delivered marks are background work: a failure shows no toast (the next one catches up).
  read: (chatId: number, messageId: number) =>
    api.call(CHAT_ROUTES.read, { body: { chatId, messageId } }, { silent: true }),
  delivered: (chatId: number, messageId: number) =>
    api.call(CHAT_ROUTES.delivered, { body: { chatId, messageId } }, { silent: true }),
};

/** Statuses where the server was not reached or could not answer: the send is tried again later. */
const UNREACHABLE = new Set([0, 502, 503, 504]);

/**
 * Sends one outbox entry: JSON, or multipart when it carries files. Silent: the outbox shows
 * the outcome beside the message instead of a toast.
 */
export async function sendEntry(entry: OutboxEntry): Promise<SendOutcome<ChatMessage>> {
  const fields: SendMessageBody = { chatId: entry.chatId, clientId: entry.clientId, text: entry.body };
  if (entry.replyToId) fields.replyToId = entry.replyToId;
  let body: FormData | SendMessageBody = fields;
  if (entry.files.length) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, String(value));
    for (const file of entry.files) form.append('files', file);
    body = form;
  }
  try {
    const answer = await api.call(CHAT_ROUTES.send, { body }, { silent: true });
    return { kind: 'stored', message: answer.message };
  } catch (error) {
    if (isApiError(error) && !UNREACHABLE.has(error.status)) return { kind: 'refused', error: error.message };
    return { kind: 'unreachable' };
  }
}
