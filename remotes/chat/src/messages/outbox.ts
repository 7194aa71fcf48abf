/**
 * Messages typed but not yet stored by the server. Each carries the client id it will be stored
 * under (the server's idempotency key), so sending it again after a lost answer stores it once.
 * A message waits as `pending` while the server cannot be reached and is sent when the connection
 * comes back; one the server refuses turns `failed` until the writer retries or discards it.
 */

export type OutboxState = 'pending' | 'sending' | 'failed';

export interface OutboxEntry {
  /** Idempotency key of the send: `crypto.randomUUID()`, made once when the message is written. */
  clientId: string;
  chatId: number;
  body: string;
  replyToId: number | null;
  /** Files to attach (kept across a reload up to a size: see `outboxVault.ts`). */
  files: File[];
  /** Names of files too large to keep across a reload: the entry came back failed without them. */
  filesLost?: string[];
  state: OutboxState;
  /** When it was written (ISO): shown beside it while it waits. */
  createdAt: string;
  /** The server's reason for a refusal. */
  error?: string;
}

/** What a send attempt came to. */
export type SendOutcome<M> =
  | { kind: 'stored'; message: M }
  /** No answer (offline, connection lost): try again when the connection is back. */
  | { kind: 'unreachable' }
  | { kind: 'refused'; error: string };

/**
 * A random v4 UUID. `crypto.randomUUID` exists only in secure contexts (https, localhost); an office
 * serving plain http on its LAN still has `getRandomValues`.
 */
export function newClientId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A new entry, waiting to be sent. */
export function outboxEntry(
  message: { chatId: number; body: string; replyToId?: number | null; files?: File[] },
  clientId: string = newClientId(),
): OutboxEntry {
  return {
    clientId,
    chatId: message.chatId,
    body: message.body,
    replyToId: message.replyToId ?? null,
    files: message.files ?? [],
    state: 'pending',
    createdAt: new Date().toISOString(),
  };
}

/** The entries with one entry's fields changed. */
export function updateEntry(
  entries: readonly OutboxEntry[],
  clientId: string,
  change: Partial<OutboxEntry>,
): OutboxEntry[] {
  return entries.map((e) => (e.clientId === clientId ? { ...e, ...change } : e));
}

/** The entries without those the server has stored (known by their client ids). */
export function withoutStored(
  entries: readonly OutboxEntry[],
  stored: readonly { clientId: string | null }[],
): OutboxEntry[] {
  const done = new Set(stored.map((m) => m.clientId));
  const kept = entries.filter((e) => !done.has(e.clientId));
  return kept.length === entries.length ? (entries as OutboxEntry[]) : kept;
}

/** A failed entry made pending again (the writer pressed retry, also knowing of files lost). */
export function retryEntry(entries: readonly OutboxEntry[], clientId: string): OutboxEntry[] {
  return updateEntry(entries, clientId, { state: 'pending', error: undefined, filesLost: undefined });
}

/** Where the outbox lives (a React state, a store): read the current entries and replace them. */
export interface OutboxStore {
  get: () => readonly OutboxEntry[];
  set: (entries: OutboxEntry[]) => void;
}

/** An outbox that tells its subscribers of every change (for `useSyncExternalStore`). */
export class Outbox implements OutboxStore {
  private entries: readonly OutboxEntry[] = [];
  private readonly listeners = new Set<() => void>();
  get = (): readonly OutboxEntry[] => this.entries;
  set = (entries: OutboxEntry[]): void => {
    if (entries === this.entries) return;
    this.entries = entries;
    for (const listener of [...this.listeners]) listener();
  };
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

/**
 * Sends the pending entries in the order they were written, one at a time so the server stores
 * them in that order. A stored one leaves the outbox (`onStored` receives the server's message);
 * an unreachable server ends the run with the rest still pending; a refusal marks that entry
 * failed and the run goes on. Returns whether every pending entry was sent or refused.
 */
export async function flushOutbox<M>(
  store: OutboxStore,
  send: (entry: OutboxEntry) => Promise<SendOutcome<M>>,
  onStored: (message: M, entry: OutboxEntry) => void,
): Promise<boolean> {
  for (;;) {
    const next = store.get().find((e) => e.state === 'pending');
    if (!next) return true;
    store.set(updateEntry(store.get(), next.clientId, { state: 'sending' }));
    const outcome = await send(next);
    if (outcome.kind === 'unreachable') {
      store.set(updateEntry(store.get(), next.clientId, { state: 'pending' }));
      return false;
    }
    if (outcome.kind === 'refused') {
      store.set(updateEntry(store.get(), next.clientId, { state: 'failed', error: outcome.error }));
      continue;
    }
    store.set(store.get().filter((e) => e.clientId !== next.clientId));
    onStored(outcome.message, next);
  }
}
