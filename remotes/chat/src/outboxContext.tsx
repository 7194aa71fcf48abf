import type { ChatMessage } from '@mizan/contracts';
import { Emitter, wsClient } from '@mizan/sdk';
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
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
}

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
 * One outbox service: concurrent flush calls join a single run that looks again when it ends.
 * With a vault, the outbox survives a reload and what it held is sent again under the same ids.
 */
export function createOutboxService(send = sendEntry, vault: OutboxVault | null = null): OutboxService {
  const outbox = new Outbox();
  const events = new Emitter<{ stored: ChatMessage }>();
  let running: Promise<void> | null = null;
  let again = false;
  const run = async () => {
    do {
      again = false;
      await flushOutbox(outbox, send, (message) => events.emit('stored', message));
    } while (again);
  };
  const flush = () => {
    if (running) {
      again = true;
      return running;
    }
    running = run().finally(() => (running = null));
    return running;
  };
  const restored = vault ? restoreFrom(vault, outbox).then(() => void flush()) : Promise.resolve();
  return { outbox, flush, events, restored };
}

const OutboxContext = createContext<OutboxService | null>(null);

/**
 * Gives the chat screens the employee's outbox, which outlives switching between chats and
 * reloading the page, and sends what waits in it whenever the connection comes back (the socket
 * reopens, the browser goes online).
 */
export function OutboxProvider({ me, children }: { me: number; children: ReactNode }) {
  const service = useMemo(() => createOutboxService(sendEntry, me ? new OutboxVault(me) : null), [me]);
  useEffect(() => {
    const retry = () => void service.flush();
    window.addEventListener('online', retry);
    const stop = wsClient.events.on('open', retry);
    return () => {
      window.removeEventListener('online', retry);
      stop();
    };
  }, [service]);
  return <OutboxContext.Provider value={service}>{children}</OutboxContext.Provider>;
}

export function useOutboxService(): OutboxService {
  const service = useContext(OutboxContext);
  if (!service) throw new Error('useOutboxService outside OutboxProvider');
  return service;
}
