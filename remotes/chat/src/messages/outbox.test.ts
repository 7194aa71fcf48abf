import {
  flushOutbox,
  newClientId,
  Outbox,
  outboxEntry,
  retryEntry,
  withoutStored,
  type OutboxEntry,
  type SendOutcome,
} from './outbox';

/** An outbox holding `entries`. */
function storeOf(entries: OutboxEntry[]) {
  const outbox = new Outbox();
  outbox.set(entries);
  return outbox;
}

const entry = (body: string) => outboxEntry({ chatId: 7, body }, `client-${body}`);
type Stored = { id: number; clientId: string; body: string };

describe('outbox', () => {
  it('makes a pending entry with a fresh client id', () => {
    const a = outboxEntry({ chatId: 7, body: 'hello' });
    const b = outboxEntry({ chatId: 7, body: 'hello' });
    expect(a).toMatchObject({ chatId: 7, body: 'hello', replyToId: null, files: [], state: 'pending' });
    expect(a.clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.clientId).not.toBe(b.clientId);
  });

  it('makes v4 ids without crypto.randomUUID (plain http on a LAN)', () => {
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(newClientId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });

  it('sends pending entries in order: pending → sent leaves the outbox', async () => {
    const store = storeOf([entry('one'), entry('two')]);
    const seen: string[] = [];
    const states: string[] = [];
    const stored: Stored[] = [];
    const done = await flushOutbox<Stored>(
      store,
      async (e) => {
        states.push(store.get().find((x) => x.clientId === e.clientId)!.state);
        seen.push(e.body);
        return { kind: 'stored', message: { id: seen.length, clientId: e.clientId, body: e.body } };
      },
      (m) => stored.push(m),
    );
    expect(done).toBe(true);
    expect(seen).toEqual(['one', 'two']);
    expect(states).toEqual(['sending', 'sending']);
    expect(store.get()).toEqual([]);
    expect(stored.map((m) => m.clientId)).toEqual(['client-one', 'client-two']);
  });

  it('keeps the rest pending when the server cannot be reached, with the same client id next time', async () => {
    const store = storeOf([entry('one'), entry('two')]);
    const keys: string[] = [];
    const unreachable = async (e: OutboxEntry): Promise<SendOutcome<Stored>> => {
      keys.push(e.clientId);
      return { kind: 'unreachable' };
    };
    expect(await flushOutbox(store, unreachable, () => undefined)).toBe(false);
    expect(store.get().map((e) => e.state)).toEqual(['pending', 'pending']);

    // Back online: the same keys go out again (the server stores a retried key once).
    const stored: Stored[] = [];
    await flushOutbox<Stored>(
      store,
      async (e) => {
        keys.push(e.clientId);
        return { kind: 'stored', message: { id: 1, clientId: e.clientId, body: e.body } };
      },
      (m) => stored.push(m),
    );
    expect(keys).toEqual(['client-one', 'client-one', 'client-two']);
    expect(stored).toHaveLength(2);
  });

  it('marks a refused entry failed, goes on with the next, and retries it on request', async () => {
    const store = storeOf([entry('bad'), entry('good')]);
    const send = async (e: OutboxEntry): Promise<SendOutcome<Stored>> =>
      e.body === 'bad'
        ? { kind: 'refused', error: 'too long' }
        : { kind: 'stored', message: { id: 2, clientId: e.clientId, body: e.body } };
    await flushOutbox(store, send, () => undefined);
    expect(store.get()).toEqual([
      expect.objectContaining({ body: 'bad', state: 'failed', error: 'too long' }),
    ]);

    store.set(retryEntry(store.get(), 'client-bad'));
    expect(store.get()[0]).toMatchObject({ state: 'pending', error: undefined });
    const stored: Stored[] = [];
    await flushOutbox<Stored>(
      store,
      async (e) => ({ kind: 'stored', message: { id: 3, clientId: e.clientId, body: e.body } }),
      (m) => stored.push(m),
    );
    expect(store.get()).toEqual([]);
    expect(stored.map((m) => m.body)).toEqual(['bad']);
  });

  it('drops entries the server already stored (their message came live first)', () => {
    const entries = [entry('one'), entry('two')];
    expect(withoutStored(entries, [{ clientId: 'client-one' }]).map((e) => e.body)).toEqual(['two']);
    expect(withoutStored(entries, [{ clientId: null }])).toBe(entries);
  });
});
