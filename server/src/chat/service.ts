import {
  CHAT_ROUTES,
  foldArabic,
  pathOf,
  genderOf,
  type ChatCursorAnswer,
  type ChatDetail,
  type ChatFile,
  type ChatMessage,
  type ChatReplyPreview,
  type CreateChatAnswer,
  type SendMessageAnswer,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import { toBoolean, type Db } from '../db';
import type { SavedUpload } from '../files/storage';
import { AppError } from '../http/errors';
import { notify } from '../notifications';
import type { Trx, WriteContext } from '../engine/context';
import type { ChatLive } from './live';
import {
  CHAT_FILE_OWNER,
  REPLY_EXCERPT,
  chattableEmployees,
  findByClientId,
  findChat,
  findMember,
  findMessageRow,
  memberIds,
  readChats,
  readMessage,
  unreadByChat,
  type MemberRow,
} from './store';

const fieldError = (field: string, key: string, params?: Record<string, string | number>) =>
  new AppError('validation', { errors: { [field]: [{ key, params }] } });

/** A unique index refused the write: a concurrent request stored the same thing first. */
const uniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
};

const notMember = () => new AppError('forbidden', { messageKey: 'chat.notMember' });

/**
 * Removes, within the write, the file rows of the messages `messageIds` (ids, or a subquery of
 * them) and returns their stored names, for the caller to delete from disk once it has committed.
 */
async function dropMessageFiles(
  trx: Trx,
  messageIds: readonly number[] | SelectQueryBuilder<any, any, any>, // eslint-disable-line @typescript-eslint/no-explicit-any -- generated tables, see Db
): Promise<string[]> {
  const files = await trx
    .selectFrom('files')
    .select(['id', 'stored_name'])
    .where('entity', '=', CHAT_FILE_OWNER)
    .where('owner_id', 'in', messageIds)
    .execute();
  if (files.length)
    await trx
      .deleteFrom('files')
      .where(
        'id',
        'in',
        files.map((f) => f.id),
      )
      .execute();
  return files.map((f) => String(f.stored_name));
}

/** The members (besides the sender) whose name the text @mentions, folded on both sides. */
function mentionsIn(text: string, members: readonly { id: number; name: string }[]): number[] {
  const folded = foldArabic(text);
  if (!folded.includes('@')) return [];
  return members.filter((m) => m.name && folded.includes(`@${foldArabic(m.name)}`)).map((m) => m.id);
}

/**
 * The chat's writes and the reads that check membership first. Every write commits, then tells
 * the rooms, inboxes and presence through `live`; a refused one changes nothing.
 */
export class ChatService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly live: ChatLive,
  ) {}

  private get db(): Db {
    return this.app.db;
  }

  private now(): string {
    return this.app.clock().toISOString();
  }

  /**
   * One write in the engine's unit of work (`app.entities.transaction`): the events it collects
   * are published, and the files it detached removed, once it commits; files written for it are
   * removed if it fails.
   */
  private write<T>(fn: (ctx: WriteContext) => Promise<T>): Promise<T> {
    return this.app.entities.transaction({ user: null }, fn);
  }

  /** The caller's membership of the chat; 404 for a chat that does not exist, 403 for another's. */
  async membership(chatId: number, employeeId: number, db: Db = this.db): Promise<MemberRow> {
    const member = await findMember(db, chatId, employeeId);
    if (member) return member;
    if (!(await findChat(db, chatId))) throw new AppError('notFound');
    throw notMember();
  }

  async detail(chatId: number, viewerId: number): Promise<ChatDetail> {
    const [chat] = await readChats(this.db, viewerId, [chatId], (id) => this.live.isOnline(id));
    if (!chat) throw new AppError('notFound');
    return chat;
  }

  /**
   * Tells new members, on their inbox, of the chat: one frame for all, since a member who just
   * joined has nothing unread (their cursors start at the last message) and nothing archived.
   */
  private async tellMembers(chatId: number, employeeIds: readonly number[]): Promise<void> {
    if (employeeIds.length === 0) return;
    const [chat] = await readChats(this.db, 0, [chatId], (e) => this.live.isOnline(e));
    if (chat) this.live.inbox(employeeIds, { kind: 'chat', chat: { ...chat, unread: 0, archived: false } });
  }

  async openDirect(creatorId: number, otherId: number): Promise<CreateChatAnswer> {
    if (otherId === creatorId || !(await chattableEmployees(this.db, [otherId])).has(otherId))
      throw fieldError('memberId', 'chat.unknownEmployee');
    const key = `${Math.min(creatorId, otherId)}:${Math.max(creatorId, otherId)}`;
    const existing = async () =>
      (await this.db.selectFrom('chats').select('id').where('direct_key', '=', key).executeTakeFirst())
        ?.id as number | undefined;
    const found = await existing();
    if (found) return { chat: await this.detail(Number(found), creatorId), created: false };
    let chatId: number;
    try {
      chatId = await this.write(async ({ trx }) => {
        const id = await this.insertChat(trx, { kind: 'direct', name: null, directKey: key, creatorId });
        await this.insertMembers(trx, id, [creatorId, otherId], new Set([creatorId, otherId]));
        return id;
      });
    } catch (error) {
      // Both opened the pair at the same moment: the other's chat is the one.
      const raced = uniqueViolation(error) ? await existing() : undefined;
      if (raced) return { chat: await this.detail(Number(raced), creatorId), created: false };
      throw error;
    }
    await this.tellMembers(chatId, [otherId]);
    return { chat: await this.detail(chatId, creatorId), created: true };
  }

  async createGroup(
    creatorId: number,
    input: { name: string; memberIds: number[]; adminIds?: number[] },
  ): Promise<CreateChatAnswer> {
    const others = [...new Set(input.memberIds)].filter((id) => id !== creatorId);
    if (others.length === 0) throw fieldError('memberIds', 'chat.groupNeedsMember');
    const allowed = await chattableEmployees(this.db, others);
    const refused = others.findIndex((id) => !allowed.has(id));
    if (refused >= 0) throw fieldError(`memberIds.${refused}`, 'chat.unknownEmployee');
    const admins = new Set([creatorId, ...(input.adminIds ?? []).filter((id) => others.includes(id))]);
    const chatId = await this.write(async ({ trx }) => {
      const id = await this.insertChat(trx, { kind: 'group', name: input.name, directKey: null, creatorId });
      await this.insertMembers(trx, id, [creatorId, ...others], admins);
      return id;
    });
    await this.tellMembers(chatId, others);
    return { chat: await this.detail(chatId, creatorId), created: true };
  }

  private async insertChat(
    trx: Db,
    chat: { kind: 'direct' | 'group'; name: string | null; directKey: string | null; creatorId: number },
  ): Promise<number> {
    const at = this.now();
    const row = await trx
      .insertInto('chats')
      .values({
        kind: chat.kind,
        name: chat.name,
        direct_key: chat.directKey,
        created_by: chat.creatorId,
        created_at: at,
        last_activity_at: at,
        last_message_id: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  private async insertMembers(trx: Db, chatId: number, ids: readonly number[], admins: ReadonlySet<number>) {
    if (ids.length === 0) return;
    const at = this.now();
    const last = await trx
      .selectFrom('chats')
      .select('last_message_id')
      .where('id', '=', chatId)
      .executeTakeFirst();
    // A member added later starts with the history delivered and read: it is not news to them.
    const cursor = Number(last?.last_message_id ?? 0);
    for (let i = 0; i < ids.length; i += 200) {
      await trx
        .insertInto('chat_members')
        .values(
          ids.slice(i, i + 200).map((id) => ({
            chat_id: chatId,
            employee_id: id,
            admin: admins.has(id),
            archived: false,
            last_delivered_id: cursor,
            last_read_id: cursor,
            joined_at: at,
          })),
        )
        .execute();
    }
  }

  /** Renames a group, or sets its members and admins (group admins only). */
  async updateGroup(
    chatId: number,
    callerId: number,
    input: { name?: string; memberIds?: number[]; adminIds?: number[] },
  ): Promise<ChatDetail> {
    const member = await this.membership(chatId, callerId);
    const chat = (await findChat(this.db, chatId))!;
    if (chat.kind !== 'group') throw new AppError('validation', { messageKey: 'chat.directFixed' });
    if (!toBoolean(member.admin)) throw new AppError('forbidden', { messageKey: 'chat.adminsOnly' });
    const current = await memberIds(this.db, chatId);
    const next = input.memberIds ? [...new Set(input.memberIds)] : current;
    if (next.filter((id) => id !== callerId).length === 0 || next.length < 2)
      throw fieldError('memberIds', 'chat.groupNeedsMember');
    const added = next.filter((id) => !current.includes(id));
    const removed = current.filter((id) => !next.includes(id));
    const allowed = await chattableEmployees(this.db, added);
    const refused = next.findIndex((id) => added.includes(id) && !allowed.has(id));
    if (refused >= 0) throw fieldError(`memberIds.${refused}`, 'chat.unknownEmployee');
    if (input.adminIds) {
      const outside = input.adminIds.findIndex((id) => !next.includes(id));
      if (outside >= 0) throw fieldError(`adminIds.${outside}`, 'chat.adminNotMember');
      if (input.adminIds.length === 0) throw fieldError('adminIds', 'chat.needsAdmin');
    }
    await this.write(async ({ trx }) => {
      if (input.name !== undefined)
        await trx.updateTable('chats').set({ name: input.name }).where('id', '=', chatId).execute();
      if (removed.length)
        await trx
          .deleteFrom('chat_members')
          .where('chat_id', '=', chatId)
          .where('employee_id', 'in', removed)
          .execute();
      await this.insertMembers(trx, chatId, added, new Set(input.adminIds ?? []));
      if (input.adminIds) {
        await trx.updateTable('chat_members').set({ admin: false }).where('chat_id', '=', chatId).execute();
        await trx
          .updateTable('chat_members')
          .set({ admin: true })
          .where('chat_id', '=', chatId)
          .where('employee_id', 'in', input.adminIds)
          .execute();
      } else await this.keepAnAdmin(trx, chatId);
    });
    await this.afterMembershipChange(chatId, removed);
    await this.tellMembers(chatId, added);
    return this.detail(chatId, callerId);
  }

  /** A group left without an admin gets its longest-standing member as one. */
  private async keepAnAdmin(trx: Db, chatId: number): Promise<void> {
    const admin = await trx
      .selectFrom('chat_members')
      .select('employee_id')
      .where('chat_id', '=', chatId)
      .where('admin', '=', true)
      .executeTakeFirst();
    if (admin) return;
    const first = await trx
      .selectFrom('chat_members')
      .select('employee_id')
      .where('chat_id', '=', chatId)
      .orderBy('joined_at')
      .orderBy('employee_id')
      .executeTakeFirst();
    if (first)
      await trx
        .updateTable('chat_members')
        .set({ admin: true })
        .where('chat_id', '=', chatId)
        .where('employee_id', '=', first.employee_id)
        .execute();
  }

  /** Removed members leave the room at once and hear of it; the rest see the chat's new state. */
  private async afterMembershipChange(chatId: number, removed: readonly number[]): Promise<void> {
    this.live.evict(chatId, removed);
    for (const id of removed) this.live.inbox([id], { kind: 'removed', chatId });
    const [chat] = await readChats(this.db, 0, [chatId], (e) => this.live.isOnline(e));
    if (chat) this.live.room(chatId, { action: 'chat', data: { ...chat, unread: 0, archived: false } });
  }

  async leave(chatId: number, employeeId: number): Promise<void> {
    await this.membership(chatId, employeeId);
    const chat = (await findChat(this.db, chatId))!;
    if (chat.kind !== 'group') throw new AppError('validation', { messageKey: 'chat.directFixed' });
    await this.write(async ({ trx }) => {
      await trx
        .deleteFrom('chat_members')
        .where('chat_id', '=', chatId)
        .where('employee_id', '=', employeeId)
        .execute();
      await this.keepAnAdmin(trx, chatId);
    });
    await this.afterMembershipChange(chatId, [employeeId]);
  }

  async archive(chatId: number, employeeId: number, archived: boolean): Promise<ChatDetail> {
    await this.membership(chatId, employeeId);
    await this.db
      .updateTable('chat_members')
      .set({ archived })
      .where('chat_id', '=', chatId)
      .where('employee_id', '=', employeeId)
      .execute();
    const chat = await this.detail(chatId, employeeId);
    this.live.inbox([employeeId], { kind: 'chat', chat });
    return chat;
  }

  /** Deletes a chat with its messages and files: its creator only. */
  async remove(chatId: number, employeeId: number): Promise<void> {
    await this.membership(chatId, employeeId);
    const chat = (await findChat(this.db, chatId))!;
    if (Number(chat.created_by) !== employeeId)
      throw new AppError('forbidden', { messageKey: 'chat.creatorOnly' });
    const members = await memberIds(this.db, chatId);
    await this.write(async ({ trx, work }) => {
      work.staleFiles.push(
        ...(await dropMessageFiles(
          trx,
          trx.selectFrom('chat_messages').select('id').where('chat_id', '=', chatId),
        )),
      );
      await trx.deleteFrom('chats').where('id', '=', chatId).execute();
    });
    this.live.evict(chatId, members);
    this.live.inbox(members, { kind: 'removed', chatId });
  }

  /**
   * Stores a message once per `clientId` (a retry answers the stored one), bumping the chat row
   * first so that senders to one chat queue and ids follow commit order; then the room hears it,
   * every member's inbox raises its badge and @mentioned members are notified.
   */
  async send(
    senderId: number,
    input: { chatId: number; clientId: string; text: string; replyToId?: number },
    uploads: readonly SavedUpload[],
  ): Promise<SendMessageAnswer> {
    const members = await this.db
      .selectFrom('chat_members as m')
      .innerJoin('employees as e', 'e.id', 'm.employee_id')
      .select(['e.id', 'e.name'])
      .where('m.chat_id', '=', input.chatId)
      .execute();
    const names = new Map(members.map((m) => [Number(m.id), String(m.name)]));
    if (!names.has(senderId)) await this.membership(input.chatId, senderId);
    const retried = await this.retried(senderId, input.chatId, input.clientId);
    if (retried) return retried;
    if (!input.text && uploads.length === 0) throw fieldError('text', 'chat.emptyMessage');
    const replyTo =
      input.replyToId === undefined ? null : await this.replyPreview(input.chatId, input.replyToId);
    const others = [...names].filter(([id]) => id !== senderId).map(([id, name]) => ({ id, name }));
    const mentions = mentionsIn(input.text, others);
    let message: ChatMessage;
    try {
      message = await this.write(async ({ trx, work }) => {
        // Written under a temporary name: final once the message's row commits, gone if it fails.
        work.newFiles.push(...uploads.map((u) => u.storedName));
        const at = this.now();
        await trx.updateTable('chats').set({ last_activity_at: at }).where('id', '=', input.chatId).execute();
        const row = await trx
          .insertInto('chat_messages')
          .values({
            chat_id: input.chatId,
            sender_id: senderId,
            client_id: input.clientId,
            text: input.text,
            search_text: foldArabic(input.text),
            reply_to_id: input.replyToId ?? null,
            mentions: JSON.stringify(mentions),
            created_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const id = Number(row.id);
        await trx.updateTable('chats').set({ last_message_id: id }).where('id', '=', input.chatId).execute();
        await trx
          .updateTable('chat_members')
          .set({ last_read_id: id, last_delivered_id: id })
          .where('chat_id', '=', input.chatId)
          .where('employee_id', '=', senderId)
          .execute();
        const files: ChatFile[] = [];
        for (const u of uploads) {
          const file = await trx
            .insertInto('files')
            .values({
              entity: CHAT_FILE_OWNER,
              owner_id: id,
              field: 'files',
              stored_name: u.storedName,
              original_name: u.originalName,
              mime_type: u.mimeType,
              size: u.size,
              created_by: senderId,
              created_at: at,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          files.push({
            id: Number(file.id),
            name: u.originalName,
            mimeType: u.mimeType,
            size: u.size,
            image: u.mimeType.startsWith('image/'),
          });
        }
        // Built from what was written rather than read back: the room hears it without more queries.
        const message: ChatMessage = {
          id,
          chatId: input.chatId,
          clientId: input.clientId,
          senderId,
          senderName: names.get(senderId) ?? '',
          text: input.text,
          files,
          replyTo,
          mentions,
          status: others.length ? 'sent' : 'read',
          createdAt: at,
          editedAt: null,
          deletedAt: null,
        };
        work.events.push(
          this.live.roomEvent(input.chatId, { action: 'create', data: message }),
          ...this.live.inboxEvents(
            others.map((m) => m.id),
            { kind: 'newMessage', chatId: input.chatId, messageId: id, senderId, mentioned: false },
            mentions,
          ),
        );
        return message;
      });
    } catch (error) {
      // The same clientId sent twice at once: the first stored it.
      const raced = uniqueViolation(error)
        ? await this.retried(senderId, input.chatId, input.clientId)
        : null;
      if (raced) return raced;
      throw error;
    }
    if (mentions.length) await this.notifyMentions(input.chatId, message, mentions);
    return { message, created: true };
  }

  /** What a reply shows of the message it answers, which must be in the same chat (422 otherwise). */
  private async replyPreview(chatId: number, messageId: number): Promise<ChatReplyPreview> {
    const answered = await readMessage(this.db, messageId);
    if (!answered || answered.chatId !== chatId) throw fieldError('replyToId', 'chat.replyNotFound');
    const deleted = answered.deletedAt !== null;
    return {
      id: answered.id,
      senderId: answered.senderId,
      senderName: answered.senderName,
      text: deleted ? '' : answered.text.slice(0, REPLY_EXCERPT),
      deleted,
    };
  }

  private async retried(
    senderId: number,
    chatId: number,
    clientId: string,
  ): Promise<SendMessageAnswer | null> {
    const stored = await findByClientId(this.db, senderId, clientId);
    if (!stored) return null;
    if (Number(stored.chat_id) !== chatId) throw fieldError('clientId', 'chat.clientIdReused');
    return { message: (await readMessage(this.db, Number(stored.id)))!, created: false };
  }

  private async notifyMentions(chatId: number, message: ChatMessage, mentions: readonly number[]) {
    const chat = (await findChat(this.db, chatId))!;
    const sender = await this.db
      .selectFrom('employees')
      .select('gender')
      .where('id', '=', message.senderId)
      .executeTakeFirst();
    const gender = genderOf(sender?.gender);
    await notify(
      this.app,
      this.db,
      mentions.map((employeeId) => ({
        employeeId,
        kind: 'chatMention' as const,
        params: {
          sender: message.senderName,
          chat: chat.name ?? message.senderName,
          ...(gender ? { gender } : {}),
          text: message.text.slice(0, 200),
        },
        link: pathOf(CHAT_ROUTES.one.path, { id: chatId }),
        key: `chatMention:${message.id}`,
      })),
    );
  }

  /** The author's own message, not deleted; 404 when it does not exist or the caller is not in its chat. */
  private async ownMessage(messageId: number, employeeId: number) {
    const row = await findMessageRow(this.db, messageId);
    if (!row) throw new AppError('notFound');
    await this.membership(Number(row.chat_id), employeeId);
    if (Number(row.sender_id) !== employeeId) throw new AppError('forbidden', { messageKey: 'chat.ownOnly' });
    if (row.deleted_at !== null && row.deleted_at !== undefined)
      throw new AppError('conflict', { messageKey: 'chat.messageDeleted' });
    return row;
  }

  async edit(messageId: number, employeeId: number, text: string): Promise<ChatMessage> {
    const row = await this.ownMessage(messageId, employeeId);
    if (!text) {
      const files = await this.db
        .selectFrom('files')
        .select('id')
        .where('entity', '=', CHAT_FILE_OWNER)
        .where('owner_id', '=', messageId)
        .executeTakeFirst();
      if (!files) throw fieldError('text', 'chat.emptyMessage');
    }
    await this.db
      .updateTable('chat_messages')
      .set({ text, search_text: foldArabic(text), edited_at: this.now() })
      .where('id', '=', messageId)
      .execute();
    const message = (await readMessage(this.db, messageId))!;
    this.live.room(Number(row.chat_id), { action: 'update', data: message });
    return message;
  }

  /** Leaves a tombstone: the order and replies hold, the text and files are gone. */
  async deleteMessage(messageId: number, employeeId: number): Promise<ChatMessage> {
    const row = await this.ownMessage(messageId, employeeId);
    return this.write(async ({ trx, work }) => {
      work.staleFiles.push(...(await dropMessageFiles(trx, [messageId])));
      await trx
        .updateTable('chat_messages')
        .set({ text: '', search_text: '', deleted_at: this.now() })
        .where('id', '=', messageId)
        .execute();
      const message = (await readMessage(trx, messageId))!;
      work.events.push(this.live.roomEvent(Number(row.chat_id), { action: 'delete', data: message }));
      return message;
    });
  }

  /**
   * Moves the employee's cursors forward (never back, never past the chat's last message): `read`
   * moves both, `delivered` the delivery one. The room hears the new cursor, the employee's other
   * tabs the new unread counts.
   */
  async moveCursor(
    kind: 'read' | 'delivered',
    chatId: number,
    employeeId: number,
    upTo?: number,
  ): Promise<ChatCursorAnswer> {
    const member = await this.membership(chatId, employeeId);
    const chat = (await findChat(this.db, chatId))!;
    const target = Math.min(upTo ?? Number(chat.last_message_id), Number(chat.last_message_id));
    const read =
      kind === 'read' ? Math.max(Number(member.last_read_id), target) : Number(member.last_read_id);
    const delivered = Math.max(Number(member.last_delivered_id), target, read);
    const moved = read !== Number(member.last_read_id) || delivered !== Number(member.last_delivered_id);
    if (moved) {
      await this.db
        .updateTable('chat_members')
        .set({ last_read_id: read, last_delivered_id: delivered })
        .where('chat_id', '=', chatId)
        .where('employee_id', '=', employeeId)
        .execute();
      this.live.room(chatId, {
        action: 'status',
        data: { chatId, employeeId, lastReadId: read, lastDeliveredId: delivered },
      });
    }
    const unread = await unreadByChat(this.db, employeeId);
    const answer: ChatCursorAnswer = {
      chatId,
      lastReadId: read,
      lastDeliveredId: delivered,
      unread: unread.get(chatId) ?? 0,
      unreadTotal: [...unread.values()].reduce((a, b) => a + b, 0),
    };
    if (moved && kind === 'read')
      this.live.inbox([employeeId], {
        kind: 'read',
        chatId,
        unread: answer.unread,
        unreadTotal: answer.unreadTotal,
      });
    return answer;
  }
}
