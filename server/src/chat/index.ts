import {
  AREA_PERMISSIONS,
  CHAT_ROUTES,
  CHAT_FILES_MAX,
  CHAT_FILE_TYPES,
  CHAT_PRESENCE_CHANNEL,
  sendMessageBody,
  type ChatEmployeesAnswer,
  type ChatPresenceAnswer,
  type ChatUnreadAnswer,
  type ChatsPage,
} from '@mizan/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
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
  const route = { tags: ['chat'], labels: 'chat.fields' };
  const me = (request: FastifyRequest) => request.user!.id;
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

  defineRoute(app, CHAT_ROUTES.list, {
    ...route,
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

  defineRoute(app, CHAT_ROUTES.create, {
    ...route,
    handler: async (request, { body }) => ({
      data:
        body.kind === 'direct'
          ? await chats.openDirect(me(request), body.memberId)
          : await chats.createGroup(me(request), body),
    }),
  });

  defineRoute(app, CHAT_ROUTES.employees, {
    ...route,
    handler: async (request, { query }) => {
      const items = await chatEmployees(app.db, me(request), query.q, query.limit);
      const data: ChatEmployeesAnswer = { items: items.map((e) => ({ ...e, online: online(e.id) })) };
      return { data };
    },
  });

  defineRoute(app, CHAT_ROUTES.unread, {
    ...route,
    handler: async (request) => {
      const unread = await unreadByChat(app.db, me(request));
      const data: ChatUnreadAnswer = {
        total: [...unread.values()].reduce((a, b) => a + b, 0),
        chats: Object.fromEntries([...unread].filter(([, n]) => n > 0).map(([id, n]) => [String(id), n])),
      };
      return { data };
    },
  });

  defineRoute(app, CHAT_ROUTES.presence, {
    ...route,
    handler: async () => {
      const data: ChatPresenceAnswer = { online: live.online() };
      return { data };
    },
  });

  defineRoute(app, CHAT_ROUTES.one, {
    ...route,
    handler: async (request, { params }) => {
      const chatId = params.id;
      await chats.membership(chatId, me(request));
      return { data: await chats.detail(chatId, me(request)) };
    },
  });

  defineRoute(app, CHAT_ROUTES.update, {
    ...route,
    handler: async (request, { params, body }) => ({
      data: await chats.updateGroup(params.id, me(request), body),
    }),
  });

  defineRoute(app, CHAT_ROUTES.remove, {
    ...route,
    handler: async (request, { params }) => {
      await chats.remove(params.id, me(request));
      return { data: {} };
    },
  });

  defineRoute(app, CHAT_ROUTES.archive, {
    ...route,
    handler: async (request, { params, body }) => ({
      data: await chats.archive(params.id, me(request), body.archived),
    }),
  });

  defineRoute(app, CHAT_ROUTES.leave, {
    ...route,
    handler: async (request, { params }) => {
      await chats.leave(params.id, me(request));
      return { data: {} };
    },
  });

  defineRoute(app, CHAT_ROUTES.messages, {
    ...route,
    handler: async (request, { params, query }) => {
      const chatId = params.chatId;
      await chats.membership(chatId, me(request));
      const page = await messagePage(app.db, chatId, query);
      // What the employee fetched is on their device.
      const newest = page.items.at(-1)?.id;
      if (newest && !query.q) await chats.moveCursor('delivered', chatId, me(request), newest);
      return { data: page };
    },
  });

  defineRoute(app, CHAT_ROUTES.send, {
    ...route,
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

  defineRoute(app, CHAT_ROUTES.read, {
    ...route,
    handler: async (request, { body }) => ({
      data: await chats.moveCursor('read', body.chatId, me(request), body.messageId),
    }),
  });

  defineRoute(app, CHAT_ROUTES.delivered, {
    ...route,
    handler: async (request, { body }) => ({
      data: await chats.moveCursor('delivered', body.chatId, me(request), body.messageId),
    }),
  });

  defineRoute(app, CHAT_ROUTES.editMessage, {
    ...route,
    handler: async (request, { params, body }) => ({
      data: await chats.edit(params.messageId, me(request), body.text),
    }),
  });

  defineRoute(app, CHAT_ROUTES.deleteMessage, {
    ...route,
    handler: async (request, { params }) => ({
      data: await chats.deleteMessage(params.messageId, me(request)),
    }),
  });
};
// Hooks and routes belong to the app, not an encapsulated child context.
(chatPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
