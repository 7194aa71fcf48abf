import type { ChatMessage } from '@mizan/contracts';
import { Emitter, sdkStore, sessionEvents, userAtom, wsClient } from '@mizan/sdk';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { sendEntry } from './api';
import { flushOutbox, Outbox } from './messages/outbox';
import { OutboxVault } from './messages/outboxVault';

/** The page's outbox, how to send what waits in it, and where stored messages are announced. */
export interface OutboxService {
  outbox: Outbox;
  /** Sends what is pending (one run at a time, so messages keep the order they were written in). */
  flush: () => Promise<void>;
  /** `stored`: a message of the outbox the server stored (rooms merge it). */
  events: Emitter<{ stored: ChatMessage }>;
  /** Resolves once the entries of the vault are back in the outbox and their sending has begun. */
  restored: Promise<void>;
  /** Stops the retries (a sign-out): what is pending waits for the next `flush`. */
  stop: () => void;
}

/**
 * How long a run that met no server waits before trying again by itself (`attempt` counts from
 * 1): the socket may already be open again when the send fails (a proxy with no instance to hand
 * the request to for a few seconds of a rolling restart), so its reopening cannot be the only
 * trigger.
 */
export const retryDelayMs = (attempt: number): number => Math.min(2_000 * attempt, 30_000);

/**
 * Puts the vault's entries back ahead of any written meanwhile (they were written earlier), then
 * saves every change of the outbox: a stored message leaves the vault with the outbox.
 */
async function restoreFrom(vault: OutboxVault, outbox: Outbox): Promise<void> {
  const kept = await vault.load().catch(() => []);
  outbox.subscribe(() => void vault.save(outbox.get()).catch(() => undefined));
  const written = new Set(outbox.get().map((e) => e.clientId));
  outbox.set([...kept.filter((e) => !written.has(e.clientId)), ...outbox.get()]);
}

/**
 * One outbox service: concurrent flush calls join a single run that looks again when it ends; a
 * run that met no server tries again by itself after `retryDelay` (longer each time in a row).
 * With a vault, the outbox survives a reload and what it held is sent again under the same ids.
 */
export function createOutboxService(
  send = sendEntry,
  vault: OutboxVault | null = null,
  retryDelay: (attempt: number) => number = retryDelayMs,
): OutboxService {
  const outbox = new Outbox();
  const events = new Emitter<{ stored: ChatMessage }>();
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Runs in a row that met no server; reset by one that sends everything. */
  let failures = 0;
  const run = async () => {
    let done: boolean;
    try {
      do {
        again = false;
        done = await flushOutbox(outbox, send, (message) => events.emit('stored', message));
      } while (again);
    } finally {
      // At once after the last look: a flush from now on starts a run of its own rather than
      // joining one that has already looked.
      running = null;
    }
    clearTimeout(timer);
    if (done) failures = 0;
    else if (!stopped) timer = setTimeout(() => void flush(), retryDelay(++failures));
  };
  const flush = () => {
    if (running) {
      again = true;
      return running;
    }
    running = run();
    return running;
  };
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  const restored = vault ? restoreFrom(vault, outbox).then(() => void flush()) : Promise.resolve();
  return { outbox, flush, events, restored, stop };
}

const OutboxContext = createContext<OutboxService | null>(null);

/** The signed-in employees' outbox services, kept while this remote is loaded. */
const services = new Map<number, OutboxService>();

/**
 * The employee's outbox service for the life of the page, not of the chat screen: what waits in
 * it is sent whenever the connection comes back (the socket reopens, the browser goes online),
 * on whatever screen the employee is. It sends only while this employee is the signed-in one;
 * after a sign-out its entries wait in the encrypted vault for their next sign-in, and the
 * service is dropped.
 */
export function outboxServiceFor(me: number): OutboxService {
  const known = services.get(me);
  if (known) return known;
  const send: typeof sendEntry = (entry) =>
    sdkStore.get(userAtom)?.id === me ? sendEntry(entry) : Promise.resolve({ kind: 'unreachable' });
  const service = createOutboxService(send, new OutboxVault(me));
  const retry = () => void service.flush();
  window.addEventListener('online', retry);
  const stopOpen = wsClient.events.on('open', retry);
  const stopCleared = sessionEvents.on('cleared', () => {
    service.stop();
    window.removeEventListener('online', retry);
    stopOpen();
    stopCleared();
    services.delete(me);
  });
  services.set(me, service);
  return service;
}

/**
 * Gives the chat screens the employee's outbox (`outboxServiceFor`), which outlives switching
 * between chats, leaving the chat screen and reloading the page.
 */
export function OutboxProvider({ me, children }: { me: number; children: ReactNode }) {
  const service = useMemo(() => (me ? outboxServiceFor(me) : createOutboxService(sendEntry, null)), [me]);
  return <OutboxContext.Provider value={service}>{children}</OutboxContext.Provider>;
}

export function useOutboxService(): OutboxService {
  const service = useContext(OutboxContext);
  if (!service) throw new Error('useOutboxService outside OutboxProvider');
  return service;
}
