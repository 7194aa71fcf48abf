import {
  foldArabic,
  type ChatDetail,
  type ChatFile,
  type ChatKind,
  type ChatMember,
  type ChatMessage,
  type ChatMessageStatus,
  type ChatReplyPreview,
} from '@mizan/contracts';
import { sql } from 'kysely';
import { toBoolean, type Db } from '../db';

/** The owner name of chat files in the `files` table. */
export const CHAT_FILE_OWNER = 'chatMessages';

/** How much of the answered message a reply shows. */
export const REPLY_EXCERPT = 200;

/** PostgreSQL answers `timestamptz` as Date, SQLite as the stored ISO text. */
export const iso = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value));
const isoOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : iso(value);

export interface ChatRow {
  id: number;
  kind: ChatKind;
  name: string | null;
  created_by: number;
  created_at: unknown;
  last_activity_at: unknown;
  last_message_id: number;
}

export interface MemberRow {
  chat_id: number;
  employee_id: number;
  admin: unknown;
  archived: unknown;
  last_delivered_id: number;
  last_read_id: number;
}

interface MessageRow {
  id: number;
  chat_id: number;
  sender_id: number;
  client_id: string;
  text: string;
  reply_to_id: number | null;
  mentions: string;
  created_at: unknown;
  edited_at: unknown;
  deleted_at: unknown;
}

const MESSAGE_COLUMNS = [
  'id',
  'chat_id',
  'sender_id',
  'client_id',
  'text',
  'reply_to_id',
  'mentions',
  'created_at',
  'edited_at',
  'deleted_at',
] as const;

export async function findChat(db: Db, chatId: number): Promise<ChatRow | undefined> {
  return (await db.selectFrom('chats').selectAll().where('id', '=', chatId).executeTakeFirst()) as
    ChatRow | undefined;
}

export async function findMember(db: Db, chatId: number, employeeId: number): Promise<MemberRow | undefined> {
  return (await db
    .selectFrom('chat_members')
    .selectAll()
    .where('chat_id', '=', chatId)
    .where('employee_id', '=', employeeId)
    .executeTakeFirst()) as MemberRow | undefined;
}

export async function memberIds(db: Db, chatId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('chat_members')
    .select('employee_id')
    .where('chat_id', '=', chatId)
    .execute();
  return rows.map((r) => Number(r.employee_id));
}

/** The ids among `ids` that are employees one may chat with: active and not banned. */
export async function chattableEmployees(db: Db, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('employees')
    .select('id')
    .where('id', 'in', [...ids])
    .where('status', '=', true)
    .where('baned', '=', false)
    .execute();
  return new Set(rows.map((r) => Number(r.id)));
}

/**
 * Unread messages (others', not deleted, after the read cursor) per chat of the employee, chats
 * with none left out. Counted per membership along `(chat_id, id)` from the cursor on: as one
 * join, PostgreSQL planned a scan of every message (0.3 s at a million).
 */
export async function unreadByChat(db: Db, employeeId: number, chatIds?: readonly number[]) {
  if (chatIds?.length === 0) return new Map<number, number>();
  let query = db
    .selectFrom('chat_members as m')
    .select((eb) => [
      'm.chat_id',
      eb
        .selectFrom('chat_messages as msg')
        .select(eb.fn.countAll().as('n'))
        .whereRef('msg.chat_id', '=', 'm.chat_id')
        .whereRef('msg.id', '>', 'm.last_read_id')
        .whereRef('msg.sender_id', '<>', 'm.employee_id')
        .where('msg.deleted_at', 'is', null)
        .as('unread'),
    ])
    .where('m.employee_id', '=', employeeId);
  if (chatIds) query = query.where('m.chat_id', 'in', [...chatIds]);
  const rows = await query.execute();
  return new Map(rows.filter((r) => Number(r.unread) > 0).map((r) => [Number(r.chat_id), Number(r.unread)]));
}

/** How a message stands for its author, from the other members' cursors. */
function statusOf(id: number, senderId: number, members: readonly MemberRow[]): ChatMessageStatus {
  const others = members.filter((m) => Number(m.employee_id) !== senderId);
  if (others.length === 0) return 'sent';
  if (others.every((m) => Number(m.last_read_id) >= id)) return 'read';
  if (others.every((m) => Math.max(Number(m.last_delivered_id), Number(m.last_read_id)) >= id))
    return 'delivered';
  return 'sent';
}

async function namesOf(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('employees')
    .select(['id', 'name'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [Number(r.id), String(r.name)]));
}

async function chatMembersOf(db: Db, chatIds: readonly number[]): Promise<MemberRow[]> {
  if (chatIds.length === 0) return [];
  return (await db
    .selectFrom('chat_members')
    .selectAll()
    .where('chat_id', 'in', [...chatIds])
    .orderBy('joined_at')
    .orderBy('employee_id')
    .execute()) as MemberRow[];
}

/** Messages as the API answers them: files, the reply's preview and the status filled in. */
async function toMessages(db: Db, rows: readonly MessageRow[], members: readonly MemberRow[]) {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.id));
  const replyIds = [...new Set(rows.flatMap((r) => (r.reply_to_id ? [Number(r.reply_to_id)] : [])))];
  const [files, replies] = await Promise.all([
    db
      .selectFrom('files')
      .select(['id', 'owner_id', 'original_name', 'mime_type', 'size'])
      .where('entity', '=', CHAT_FILE_OWNER)
      .where('owner_id', 'in', ids)
      .orderBy('id')
      .execute(),
    replyIds.length
      ? (db
          .selectFrom('chat_messages')
          .select(['id', 'sender_id', 'text', 'deleted_at'])
          .where('id', 'in', replyIds)
          .execute() as Promise<Pick<MessageRow, 'id' | 'sender_id' | 'text' | 'deleted_at'>[]>)
      : Promise.resolve([]),
  ]);
  const names = await namesOf(db, [...rows.map((r) => r.sender_id), ...replies.map((r) => r.sender_id)]);
  const filesOf = new Map<number, ChatFile[]>();
  for (const f of files) {
    const mimeType = String(f.mime_type);
    const list = filesOf.get(Number(f.owner_id)) ?? [];
    list.push({
      id: Number(f.id),
      name: String(f.original_name),
      mimeType,
      size: Number(f.size),
      image: mimeType.startsWith('image/'),
    });
    filesOf.set(Number(f.owner_id), list);
  }
  const replyOf = new Map<number, ChatReplyPreview>(
    replies.map((r) => {
      const deleted = r.deleted_at !== null && r.deleted_at !== undefined;
      return [
        Number(r.id),
        {
          id: Number(r.id),
          senderId: Number(r.sender_id),
          senderName: names.get(Number(r.sender_id)) ?? '',
          text: deleted ? '' : String(r.text).slice(0, REPLY_EXCERPT),
          deleted,
        },
      ];
    }),
  );
  return rows.map((r): ChatMessage => ({
    id: Number(r.id),
    chatId: Number(r.chat_id),
    clientId: r.client_id,
    senderId: Number(r.sender_id),
    senderName: names.get(Number(r.sender_id)) ?? '',
    text: r.text,
    files: filesOf.get(Number(r.id)) ?? [],
    replyTo: r.reply_to_id ? (replyOf.get(Number(r.reply_to_id)) ?? null) : null,
    mentions: JSON.parse(r.mentions) as number[],
    status: statusOf(
      Number(r.id),
      Number(r.sender_id),
      members.filter((m) => Number(m.chat_id) === Number(r.chat_id)),
    ),
    createdAt: iso(r.created_at),
    editedAt: isoOrNull(r.edited_at),
    deletedAt: isoOrNull(r.deleted_at),
  }));
}

/** One message as the API answers it, or undefined. */
export async function readMessage(db: Db, messageId: number): Promise<ChatMessage | undefined> {
  const row = (await db
    .selectFrom('chat_messages')
    .select([...MESSAGE_COLUMNS])
    .where('id', '=', messageId)
    .executeTakeFirst()) as MessageRow | undefined;
  if (!row) return undefined;
  const [message] = await toMessages(db, [row], await chatMembersOf(db, [Number(row.chat_id)]));
  return message;
}

export async function findMessageRow(db: Db, messageId: number) {
  return (await db
    .selectFrom('chat_messages')
    .select([...MESSAGE_COLUMNS])
    .where('id', '=', messageId)
    .executeTakeFirst()) as MessageRow | undefined;
}

export async function findByClientId(db: Db, senderId: number, clientId: string) {
  return (await db
    .selectFrom('chat_messages')
    .select([...MESSAGE_COLUMNS])
    .where('sender_id', '=', senderId)
    .where('client_id', '=', clientId)
    .executeTakeFirst()) as MessageRow | undefined;
}

export interface MessagePageQuery {
  before?: number;
  after?: number;
  q?: string;
  limit: number;
}

/**
 * A page of a chat's messages, ascending by id: after a cursor (oldest first), before one or the
 * newest (newest first, then reversed), optionally only those whose folded text holds every
 * folded word of `q`.
 */
export async function messagePage(db: Db, chatId: number, query: MessagePageQuery) {
  let select = db
    .selectFrom('chat_messages')
    .select([...MESSAGE_COLUMNS])
    .where('chat_id', '=', chatId);
  const forward = query.after !== undefined;
  if (forward) select = select.where('id', '>', query.after!);
  if (query.before !== undefined) select = select.where('id', '<', query.before);
  const words = query.q ? foldArabic(query.q).split(' ').filter(Boolean) : [];
  for (const word of words) {
    const pattern = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    select = select.where(sql<boolean>`search_text like ${pattern} escape '\\'`);
  }
  if (words.length) select = select.where('deleted_at', 'is', null);
  const rows = (await select
    .orderBy('id', forward ? 'asc' : 'desc')
    .limit(query.limit + 1)
    .execute()) as MessageRow[];
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (!forward) page.reverse();
  return { items: await toMessages(db, page, await chatMembersOf(db, [chatId])), hasMore };
}

/** Chats with their members (names, cursors, presence), last message and the viewer's unread count. */
export async function readChats(
  db: Db,
  viewerId: number,
  chatIds: readonly number[],
  online: (employeeId: number) => boolean,
): Promise<ChatDetail[]> {
  if (chatIds.length === 0) return [];
  const [chats, members, unread] = await Promise.all([
    db
      .selectFrom('chats')
      .selectAll()
      .where('id', 'in', [...chatIds])
      .execute() as Promise<ChatRow[]>,
    chatMembersOf(db, chatIds),
    unreadByChat(db, viewerId, chatIds),
  ]);
  const employees = members.length
    ? await db
        .selectFrom('employees')
        .select(['id', 'name', 'job_title'])
        .where('id', 'in', [...new Set(members.map((m) => Number(m.employee_id)))])
        .execute()
    : [];
  const employee = new Map(employees.map((e) => [Number(e.id), e]));
  const lastIds = chats.map((c) => Number(c.last_message_id)).filter((id) => id > 0);
  const lastRows = lastIds.length
    ? ((await db
        .selectFrom('chat_messages')
        .select([...MESSAGE_COLUMNS])
        .where('id', 'in', lastIds)
        .execute()) as MessageRow[])
    : [];
  const lastMessages = new Map((await toMessages(db, lastRows, members)).map((m) => [m.chatId, m]));
  const byId = new Map(
    chats.map((chat): [number, ChatDetail] => {
      const own = members.filter((m) => Number(m.chat_id) === Number(chat.id));
      const viewer = own.find((m) => Number(m.employee_id) === viewerId);
      return [
        Number(chat.id),
        {
          id: Number(chat.id),
          kind: chat.kind,
          name: chat.name,
          createdBy: Number(chat.created_by),
          createdAt: iso(chat.created_at),
          lastActivityAt: iso(chat.last_activity_at),
          archived: viewer ? toBoolean(viewer.archived) : false,
          unread: unread.get(Number(chat.id)) ?? 0,
          lastMessage: lastMessages.get(Number(chat.id)) ?? null,
          members: own.map((m): ChatMember => ({
            id: Number(m.employee_id),
            name: String(employee.get(Number(m.employee_id))?.name ?? ''),
            jobTitle: (employee.get(Number(m.employee_id))?.job_title as string | null) ?? null,
            admin: toBoolean(m.admin),
            online: online(Number(m.employee_id)),
            lastDeliveredId: Number(m.last_delivered_id),
            lastReadId: Number(m.last_read_id),
          })),
        },
      ];
    }),
  );
  return chatIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/**
 * The viewer's chats, newest activity first, archived or not, optionally only those whose name or
 * members' names hold the folded `q`. Answers the page's ids and the total.
 */
export async function listChatIds(
  db: Db,
  viewerId: number,
  query: { q?: string; archived?: boolean; page: number; pageSize: number },
): Promise<{ ids: number[]; total: number }> {
  const rows = await db
    .selectFrom('chat_members as m')
    .innerJoin('chats as c', 'c.id', 'm.chat_id')
    .select(['c.id', 'c.name'])
    .where('m.employee_id', '=', viewerId)
    .where('m.archived', '=', query.archived ?? false)
    .orderBy('c.last_activity_at', 'desc')
    .orderBy('c.id', 'desc')
    .execute();
  let ids = rows.map((r) => Number(r.id));
  const needle = query.q ? foldArabic(query.q) : '';
  if (needle) {
    const names = await db
      .selectFrom('chat_members as m')
      .innerJoin('employees as e', 'e.id', 'm.employee_id')
      .select(['m.chat_id', 'e.name'])
      .where('m.chat_id', 'in', ids.length ? ids : [0])
      .where('m.employee_id', '<>', viewerId)
      .execute();
    const haystack = new Map<number, string>(
      rows.map((r) => [Number(r.id), foldArabic(String(r.name ?? ''))]),
    );
    for (const n of names)
      haystack.set(Number(n.chat_id), `${haystack.get(Number(n.chat_id))}\n${foldArabic(String(n.name))}`);
    ids = ids.filter((id) => haystack.get(id)!.includes(needle));
  }
  const start = (query.page - 1) * query.pageSize;
  return { ids: ids.slice(start, start + query.pageSize), total: ids.length };
}

/** Employees one may start a chat with: active, not banned, not `viewerId`, by folded name search. */
export async function chatEmployees(db: Db, viewerId: number, q: string | undefined, limit: number) {
  let select = db
    .selectFrom('employees')
    .select(['id', 'name', 'job_title'])
    .where('status', '=', true)
    .where('baned', '=', false)
    .where('id', '<>', viewerId);
  for (const word of q ? foldArabic(q).split(' ').filter(Boolean) : []) {
    const pattern = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    select = select.where(sql<boolean>`search_text like ${pattern} escape '\\'`);
  }
  const rows = await select.orderBy('name').orderBy('id').limit(limit).execute();
  return rows.map((r) => ({
    id: Number(r.id),
    name: String(r.name),
    jobTitle: (r.job_title as string | null) ?? null,
  }));
}

/** The folded form stored beside a message's text for search. */
export const searchFold = (text: string): string => foldArabic(text);
