import type { ChatCursor, ChatMember, ChatMessageStatus } from '@mizan/contracts';

/** How far one member has received and read. */
type MemberCursor = Pick<ChatMember, 'id' | 'lastDeliveredId' | 'lastReadId'>;

/**
 * Where one of my messages stands, from the other members' cursors: read when every other member
 * has read up to it, delivered when it is on every other member's device, otherwise sent.
 */
export function statusOf(messageId: number, members: readonly MemberCursor[], me: number): ChatMessageStatus {
  const others = members.filter((m) => m.id !== me);
  if (others.length === 0) return 'sent';
  if (others.every((m) => m.lastReadId >= messageId)) return 'read';
  if (others.every((m) => m.lastDeliveredId >= messageId || m.lastReadId >= messageId)) return 'delivered';
  return 'sent';
}

/** The members with one member's cursor moved (cursors only go forward: a late event is ignored). */
export function applyCursor<M extends MemberCursor>(members: readonly M[], cursor: ChatCursor): M[] {
  return members.map((m) =>
    m.id === cursor.employeeId
      ? {
          ...m,
          lastDeliveredId: Math.max(m.lastDeliveredId, cursor.lastDeliveredId),
          lastReadId: Math.max(m.lastReadId, cursor.lastReadId),
        }
      : m,
  );
}
