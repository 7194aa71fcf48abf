import { STORAGE_KEYS } from '@mizan/contracts/light';
import { secureStorage, sessionEvents, type AuthUser } from '@mizan/sdk';
import type { RemoteRoutesLoader } from './loadRemoteRoutes';

/**
 * Messages written offline wait in the chat's encrypted outbox (the chat remote's vault, by
 * employee id). When an employee signs in (or a stored session is confirmed) with messages still
 * waiting there, the chat remote is loaded at once: it sends them as the connection allows,
 * whatever screen the employee opens, not only once the chat screen is visited again. Nothing is
 * loaded when the outbox is empty. Returns the unsubscribe.
 */
export function resumeChatOutbox(loader: RemoteRoutesLoader): () => void {
  const resume = async ({ user }: { user: AuthUser }) => {
    const outboxes = await secureStorage
      .get<Record<string, unknown[]>>(STORAGE_KEYS.chatOutbox)
      .catch(() => null);
    if (outboxes?.[user.id]?.length) await loader('chat').catch(() => undefined);
  };
  return sessionEvents.on('established', (event) => void resume(event));
}
