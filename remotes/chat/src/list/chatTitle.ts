import type { ChatSummary } from '@mizan/contracts';

/** What a chat is called for me: a group's name, or the other member's name in a one-to-one chat. */
export function chatTitle(chat: Pick<ChatSummary, 'kind' | 'name' | 'members'>, me: number): string {
  if (chat.kind === 'group') return chat.name ?? '';
  return chat.members.find((m) => m.id !== me)?.name ?? chat.members[0]?.name ?? '';
}
