import {
  API_BASE,
  AREA_PERMISSIONS,
  CHATS,
  CHAT_FILES_MAX,
  CHAT_FILE_TYPES,
  CHAT_PRESENCE_CHANNEL,
  archiveChatBody,
  chatEmployeesQuery,
  chatMessagesQuery,
  chatsQuery,
  createChatBody,
  deliveredMessagesBody,
  editMessageBody,
  readMessagesBody,
  sendMessageBody,
  updateChatBody,
  type ChatEmployeesAnswer,
  type ChatPresenceAnswer,
  type ChatUnreadAnswer,
  type ChatsPage,
} from '@mizan/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { pathId } from '../http/params';
import { readMultipart } from '../files/multipart';
import type { SavedUpload } from '../files/storage';
import { requestLanguage } from '../http/messages';
import { defineRoute } from '../http/route';
import { parseInput } from '../http/validation';
import { ChatLive } from './live';
import { ChatService } from './service';
import {
  CHAT_FILE_OWNER,
  chatEmployees,
  findMember,
  listChatIds,
  messagePage,
  readChats,
  unreadByChat,
} from './store';

export { chatMigrations } from './migrations';

const ROOM = /^chats:room:(\d+)$/;
const INBOX = /^chats:user:(\d+)$/;

/**
 * Internal chat under `/api/admin/chats` (the chat permission, `AREA_PERMISSIONS.chatUse`, for everything): one-to-one and group chats,
 * messages with files, replies, edits and read cursors; its WebSocket channels (rooms for members
 * only, each employee's inbox, presence) and the typing relay.
 */
export const chatPlugin: FastifyPluginAsync = async (app) => {
  const live = new ChatLive(app);
  const chats = new ChatService(app, live);
  const route = { tags: ['chat'], permission: AREA_PERMISSIONS.chatUse, labels: 'chat.fields' };
  const me = (request: FastifyRequest) => request.user!.id;
  const chatIdOf = (request: FastifyRequest) =>
    pathId(
      (request.params as { id?: string; chatId?: string }).id ??
        (request.params as { chatId?: string }).chatId,
    );
  const online = (id: number) => live.isOnline(id);

  app.fileAccess.set(CHAT_FILE_OWNER, async (user, file) => {
    const message = await app.db
      .selectFrom('chat_messages')
      .select('chat_id')
      .where('id', '=', file.owner_id)
      .executeTakeFirst();
    return (
      user.permissions.has(AREA_PERMISSIONS.chatUse) &&
      message !== undefined &&
      (await findMember(app.db, Number(message.chat_id), user.id)) !== undefined
    );
  });

  // The hub is registered after the modules: its guard and typing handler join once the app is ready.
  app.addHook('onReady', async () => {
    app.hub.guard(async (user, channel) => {
      if (!channel.startsWith('chats:')) return undefined;
      if (!user.permissions.has(AREA_PERMISSIONS.chatUse)) return false;
      if (channel === CHAT_PRESENCE_CHANNEL) return true;
      const inbox = INBOX.exec(channel);
      if (inbox) return Number(inbox[1]) === user.id;
      const room = ROOM.exec(channel);
      return room ? (await findMember(app.db, Number(room[1]), user.id)) !== undefined : false;
    });
    app.hub.handle('chats:room:', (user, channel, data) => {
      const typing = (data as { typing?: unknown } | null)?.typing;
      if (typeof typing !== 'boolean') return;
      live.typing(Number(ROOM.exec(channel)?.[1]), user, typing);
    });
    live.start();
  });
  app.addHook('preClose', async () => live.stop());

  defineRoute(app, {
    ...route,
    method: 'GET',
    url: API_BASE + CHATS.base,
    summary: 'The signed-in employee’s chats, newest activity first (archived ones with archived=true)',
    query: chatsQuery,
    handler: async (request, { query }) => {
      const [{ ids, total }, unread] = await Promise.all([
        listChatIds(app.db, me(request), query),
        unreadByChat(app.db, me(request)),
      ]);
      const data: ChatsPage = {
        items: await readChats(app.db, me(request), ids, online),
        total,
        page: query.page,
        pageSize: query.pageSize,
        unreadTotal: [...unread.values()].reduce((a, b) => a + b, 0),
      };
      return { data };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'POST',
    url: API_BASE + CHATS.base,
    summary: 'Open a one-to-one chat (the existing one for the pair) or create a group',
    body: createChatBody,
    handler: async (request, { body }) => ({
      data:
        body.kind === 'direct'
          ? await chats.openDirect(me(request), body.memberId)
          : await chats.createGroup(me(request), body),
    }),
  });

  defineRoute(app, {
    ...route,
    method: 'GET',
    url: API_BASE + CHATS.employees,
    summary: 'Employees to chat with: active, not banned, Arabic-folded search',
    query: chatEmployeesQuery,
    handler: async (request, { query }) => {
      const items = await chatEmployees(app.db, me(request), query.q, query.limit);
      const data: ChatEmployeesAnswer = { items: items.map((e) => ({ ...e, online: online(e.id) })) };
      return { data };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'GET',
    url: API_BASE + CHATS.unread,
    summary: 'Unread messages per chat and in total',
    handler: async (request) => {
      const unread = await unreadByChat(app.db, me(request));
      const data: ChatUnreadAnswer = {
        total: [...unread.values()].reduce((a, b) => a + b, 0),
        chats: Object.fromEntries([...unread].filter(([, n]) => n > 0).map(([id, n]) => [String(id), n])),
      };
      return { data };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'GET',
    url: API_BASE + CHATS.presence,
    summary: 'Employees with an open connection on any instance',
    handler: async () => {
      const data: ChatPresenceAnswer = { online: live.online() };
      return { data };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'GET',
    url: API_BASE + CHATS.one,
    summary: 'One chat (members only)',
    handler: async (request) => {
      const chatId = chatIdOf(request);
      await chats.membership(chatId, me(request));
      return { data: await chats.detail(chatId, me(request)) };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'PUT',
    url: API_BASE + CHATS.one,
    summary: 'Rename a group or set its members and admins (group admins)',
    body: updateChatBody,
    handler: async (request, { body }) => ({
      data: await chats.updateGroup(chatIdOf(request), me(request), body),
    }),
  });

  defineRoute(app, {
    ...route,
    method: 'DELETE',
    url: API_BASE + CHATS.one,
    summary: 'Delete a chat with its messages (its creator)',
    handler: async (request) => {
      await chats.remove(chatIdOf(request), me(request));
      return { data: {} };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'PATCH',
    url: API_BASE + CHATS.archive,
    summary: 'Archive or unarchive a chat for the signed-in employee',
    body: archiveChatBody,
    handler: async (request, { body }) => ({
      data: await chats.archive(chatIdOf(request), me(request), body.archived),
    }),
  });

  defineRoute(app, {
    ...route,
    method: 'POST',
    url: API_BASE + CHATS.leave,
    summary: 'Leave a group',
    handler: async (request) => {
      await chats.leave(chatIdOf(request), me(request));
      return { data: {} };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'GET',
    url: API_BASE + CHATS.messages,
    summary: 'A chat’s messages by cursor (before/after), or found by Arabic-folded search',
    query: chatMessagesQuery,
    handler: async (request, { query }) => {
      const chatId = chatIdOf(request);
      await chats.membership(chatId, me(request));
      const page = await messagePage(app.db, chatId, query);
      // What the employee fetched is on their device.
      const newest = page.items.at(-1)?.id;
      if (newest && !query.q) await chats.moveCursor('delivered', chatId, me(request), newest);
      return { data: page };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'POST',
    url: API_BASE + CHATS.send,
    summary: 'Send a message (JSON, or multipart with files); a retried clientId is stored once',
    multipart: {
      parts: { chatId: 'string', clientId: 'string', text: 'string', replyToId: 'string', files: 'file' },
    },
    handler: async (request) => {
      const lang = requestLanguage(request);
      let raw: unknown = request.body;
      let uploads: SavedUpload[] = [];
      if (request.isMultipart()) {
        const body = await readMultipart(request, app.fileStore, {
          files: { files: { accept: CHAT_FILE_TYPES, maxCount: CHAT_FILES_MAX } },
        });
        uploads = body.uploads;
        raw = Object.fromEntries(Object.entries(body.fields).map(([key, values]) => [key, values[0]]));
      }
      try {
        const body = parseInput(sendMessageBody, raw ?? {}, lang, route.labels);
        const answer = await chats.send(me(request), body, uploads);
        // A stored message's files took their final names as its write committed; a retry that
        // carried files again keeps the first copy only.
        if (!answer.created) await Promise.all(uploads.map((u) => app.fileStore.remove(u.storedName)));
        return { data: answer };
      } catch (error) {
        await Promise.all(uploads.map((u) => app.fileStore.remove(u.storedName)));
        throw error;
      }
    },
  });

  defineRoute(app, {
    ...route,
    method: 'PUT',
    url: API_BASE + CHATS.read,
    summary: 'Mark a chat read up to a message (default: everything up to now)',
    body: readMessagesBody,
    handler: async (request, { body }) => ({
      data: await chats.moveCursor('read', body.chatId, me(request), body.messageId),
    }),
  });

  defineRoute(app, {
    ...route,
    method: 'PUT',
    url: API_BASE + CHATS.delivered,
    summary: 'Acknowledge that the client holds the chat’s messages up to one',
    body: deliveredMessagesBody,
    handler: async (request, { body }) => ({
      data: await chats.moveCursor('delivered', body.chatId, me(request), body.messageId),
    }),
  });

  const messageIdOf = (request: FastifyRequest) =>
    pathId((request.params as { messageId?: string }).messageId);

  defineRoute(app, {
    ...route,
    method: 'PUT',
    url: API_BASE + CHATS.message,
    summary: 'Edit one’s own message',
    body: editMessageBody,
    handler: async (request, { body }) => ({
      data: await chats.edit(messageIdOf(request), me(request), body.text),
    }),
  });

  defineRoute(app, {
    ...route,
    method: 'DELETE',
    url: API_BASE + CHATS.message,
    summary: 'Delete one’s own message (a tombstone stays)',
    handler: async (request) => ({ data: await chats.deleteMessage(messageIdOf(request), me(request)) }),
  });
};
// Hooks and routes belong to the app, not an encapsulated child context.
(chatPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
