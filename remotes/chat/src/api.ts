import {
  CHATS,
  chatPath,
  type ArchiveChatBody,
  type ChatCursorAnswer,
  type ChatDetail,
  type ChatEmployeesAnswer,
  type ChatMessage,
  type ChatMessagesPage,
  type ChatMessagesQuery,
  type ChatPresenceAnswer,
  type ChatsPage,
  type CreateChatAnswer,
  type CreateChatBody,
  type SendMessageAnswer,
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
    api.get<ChatsPage>(CHATS.base, {
      params: { archived: String(archived), pageSize: 100, ...(q ? { q } : {}) },
    }),
  one: (id: number) => api.get<ChatDetail>(chatPath(CHATS.one, id)),
  create: (body: CreateChatBody) => api.post<CreateChatAnswer>(CHATS.base, body),
  update: (id: number, body: UpdateChatBody) => api.put<ChatDetail>(chatPath(CHATS.one, id), body),
  remove: (id: number) => api.delete<unknown>(chatPath(CHATS.one, id)),
  archive: (id: number, body: ArchiveChatBody) => api.patch<ChatDetail>(chatPath(CHATS.archive, id), body),
  leave: (id: number) => api.post<unknown>(chatPath(CHATS.leave, id)),
  employees: (q: string) => api.get<ChatEmployeesAnswer>(CHATS.employees, { params: q ? { q } : {} }),
  presence: () => api.get<ChatPresenceAnswer>(CHATS.presence, { silent: true }),
  messages: (chatId: number, query: ChatMessagesQuery) =>
    api.get<ChatMessagesPage>(chatPath(CHATS.messages, chatId), { params: query }),
  edit: (messageId: number, text: string) =>
    api.put<ChatMessage>(chatPath(CHATS.message, messageId), { text }),
  deleteMessage: (messageId: number) => api.delete<ChatMessage>(chatPath(CHATS.message, messageId)),
  // Read and delivered marks are background work: a failure shows no toast (the next one catches up).
  read: (chatId: number, messageId: number) =>
    api.put<ChatCursorAnswer>(CHATS.read, { chatId, messageId }, { silent: true }),
  delivered: (chatId: number, messageId: number) =>
    api.put<ChatCursorAnswer>(CHATS.delivered, { chatId, messageId }, { silent: true }),
};

/** Statuses where the server was not reached or could not answer: the send is tried again later. */
const UNREACHABLE = new Set([0, 502, 503, 504]);

/**
 * Sends one outbox entry: JSON, or multipart when it carries files. Silent: the outbox shows
 * the outcome beside the message instead of a toast.
 */
export async function sendEntry(entry: OutboxEntry): Promise<SendOutcome<ChatMessage>> {
  const fields = { chatId: entry.chatId, clientId: entry.clientId, text: entry.body };
  let body: unknown = entry.replyToId ? { ...fields, replyToId: entry.replyToId } : fields;
  if (entry.files.length) {
    const form = new FormData();
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) form.set(key, String(value));
    for (const file of entry.files) form.append('files', file);
    body = form;
  }
  try {
    const answer = await api.post<SendMessageAnswer>(CHATS.send, body, { silent: true });
    return { kind: 'stored', message: answer.message };
  } catch (error) {
    if (isApiError(error) && !UNREACHABLE.has(error.status)) return { kind: 'refused', error: error.message };
    return { kind: 'unreachable' };
  }
}
