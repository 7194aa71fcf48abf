import type { ServerResponse } from 'node:http';
import type { ChatDetail, ChatFile, ChatMember, ChatMessage } from '@mizan/contracts';
import { json, startServer, type SeenRequest } from '@mizan/sdk/testing/apiServer';

const STAMP = '2026-11-23T10:00:00.000Z';

/** A member of the test chat: me (1, as `signIn` makes) or Sara (2). */
export const member = (id: number, name: string): ChatMember => ({
  id,
  name,
  jobTitle: null,
  admin: true,
  online: false,
  lastDeliveredId: 0,
  lastReadId: 0,
});

/** The one-to-one chat 4 between me (1) and Sara (2). */
export const CHAT: ChatDetail = {
  id: 4,
  kind: 'direct',
  name: null,
  createdBy: 1,
  createdAt: STAMP,
  lastActivityAt: STAMP,
  archived: false,
  unread: 0,
  lastMessage: null,
  members: [member(1, 'مدير'), member(2, 'سارة')],
};

/** Who the employee picker finds. */
export const EMPLOYEES = [
  { id: 2, name: 'سارة', jobTitle: null, online: true },
  { id: 3, name: 'Omar Nabil', jobTitle: null, online: false },
];

/** A stored message of chat 4 (Sara's unless `senderId` says otherwise). */
export const message = (id: number, text: string, senderId = 2): ChatMessage => ({
  id,
  chatId: 4,
  clientId: `c-${id}`,
  senderId,
  senderName: senderId === 1 ? 'مدير' : 'سارة',
  text,
  files: [],
  replyTo: null,
  mentions: [],
  status: 'sent',
  createdAt: STAMP,
  editedAt: null,
  deletedAt: null,
});

/** A part of a multipart body: a field, or a file with its name and type. */
interface Part {
  name: string;
  value: string;
  filename?: string;
  type?: string;
}

/** The parts of a `multipart/form-data` body (text files only: the body is read as UTF-8). */
function multipartParts(contentType: string, body: string): Part[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) return [];
  return body
    .split(`--${boundary[1] ?? boundary[2]}`)
    .slice(1, -1)
    .map((raw) => {
      const [head = '', ...rest] = raw.replace(/^\r\n/, '').split('\r\n\r\n');
      return {
        name: /name="([^"]*)"/.exec(head)?.[1] ?? '',
        filename: /filename="([^"]*)"/.exec(head)?.[1],
        type: /content-type:\s*(\S+)/i.exec(head)?.[1],
        value: rest.join('\r\n\r\n').replace(/\r\n$/, ''),
      };
    });
}

/** A send's fields, from JSON or multipart; files get ids from `nextFileId`. */
function sentFields(req: SeenRequest, nextFileId: () => number) {
  if (!req.contentType.startsWith('multipart/form-data'))
    return {
      ...(JSON.parse(req.body) as { clientId: string; text: string }),
      files: [] as (ChatFile & { content: string })[],
    };
  const parts = multipartParts(req.contentType, req.body);
  const field = (name: string) => parts.find((p) => p.name === name && p.filename === undefined)?.value ?? '';
  const files = parts
    .filter((p) => p.name === 'files' && p.filename !== undefined)
    .map((p) => ({
      id: nextFileId(),
      name: p.filename!,
      mimeType: p.type ?? 'application/octet-stream',
      size: p.value.length,
      image: (p.type ?? '').startsWith('image/'),
      content: p.value,
    }));
  return { clientId: field('clientId'), text: field('text'), files };
}

/** How the next sends are answered. */
export type SendMode = 'store' | 'offline' | 'storeThenDrop' | 'refuse';

/**
 * A real HTTP server for the chat screen over an in-memory chat 4: its messages by cursor
 * (`before`, `after`, newest page without either, `limit`, `q` as a plain substring), sends (JSON, or
 * multipart with files, which it then serves at `/files/:id`) stored once per client id, read and
 * delivered marks. `mode` decides how sends are answered: stored, the connection dropped before
 * storing (offline), stored but the answer lost, or refused with a 422.
 */
export async function startChatServer(messages: ChatMessage[] = []) {
  const state = { messages: [...messages], mode: 'store' as SendMode, nextId: 100, nextFileId: 500 };
  /** The bytes of each stored file, by id. */
  const fileContents = new Map<number, { type: string; content: string }>();
  const page = (req: SeenRequest) => {
    const limit = Number(req.query.get('limit') ?? 50);
    const before = req.query.get('before');
    const after = req.query.get('after');
    const all = state.messages;
    if (after !== null) {
      const newer = all.filter((m) => m.id > Number(after));
      return { items: newer.slice(0, limit), hasMore: newer.length > limit };
    }
    const q = req.query.get('q');
    const matching = q ? all.filter((m) => m.text.includes(q)) : all;
    const older = before === null ? matching : matching.filter((m) => m.id < Number(before));
    return { items: older.slice(-limit), hasMore: older.length > limit };
  };
  const send = (req: SeenRequest, res: ServerResponse) => {
    if (state.mode === 'offline') return void res.destroy();
    if (state.mode === 'refuse')
      return json(res, 422, { message: 'النص طويل جدًا', errors: { text: ['النص طويل جدًا'] } });
    const body = sentFields(req, () => ++state.nextFileId);
    let stored = state.messages.find((m) => m.clientId === body.clientId);
    const created = !stored;
    if (!stored) {
      const files = body.files.map(({ content, ...file }) => {
        fileContents.set(file.id, { type: file.mimeType, content });
        return file;
      });
      stored = { ...message(++state.nextId, body.text, 1), clientId: body.clientId, files };
      state.messages.push(stored);
    }
    if (state.mode === 'storeThenDrop') return void res.destroy();
    return json(res, 201, { data: { message: stored, created } });
  };
  const cursor = { chatId: 4, lastReadId: 0, lastDeliveredId: 0, unread: 0, unreadTotal: 0 };
  const server = await startServer((req, res) => {
    const route = `${req.method} ${req.path.replace(/^\/api/, '')}`;
    if (route === 'GET /admin/chats')
      return json(res, 200, {
        data: {
          // As the server answers: the chat's newest message is its preview.
          items: [{ ...CHAT, lastMessage: state.messages.at(-1) ?? null }],
          total: 1,
          page: 1,
          pageSize: 100,
          unreadTotal: 0,
        },
      });
    if (route === 'GET /admin/chats/4') return json(res, 200, { data: CHAT });
    if (route === 'GET /admin/chats/presence') return json(res, 200, { data: { online: [2] } });
    if (route === 'GET /admin/chats/4/messages') return json(res, 200, { data: page(req) });
    if (route === 'POST /admin/chats/messages') return send(req, res);
    const file = fileContents.get(Number(/^GET \/files\/(\d+)$/.exec(route)?.[1]));
    if (file) {
      res.setHeader('Content-Type', file.type);
      return void res.end(file.content);
    }
    if (route === 'GET /admin/chats/employees') {
      const q = req.query.get('q') ?? '';
      return json(res, 200, { data: { items: EMPLOYEES.filter((e) => e.name.includes(q)) } });
    }
    if (route === 'POST /admin/chats') {
      const body = JSON.parse(req.body) as { name?: string };
      return json(res, 201, {
        data: { chat: { ...CHAT, id: 4, kind: 'group', name: body.name ?? null }, created: true },
      });
    }
    if (route === 'PUT /admin/chats/messages/read' || route === 'PUT /admin/chats/messages/delivered')
      return json(res, 200, { data: cursor });
    return json(res, 404, { message: 'Not found' });
  });
  return {
    ...server,
    state,
    /** Stored messages with this text. */
    storedWith: (text: string) => state.messages.filter((m) => m.text === text),
  };
}
