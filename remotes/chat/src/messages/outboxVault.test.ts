import { SecureStorage } from '@mizan/sdk';
import { createOutboxService } from '../outboxContext';
import { outboxEntry, retryEntry, type OutboxEntry, type SendOutcome } from './outbox';
import { KEPT_FILES_MAX_BYTES, OutboxVault } from './outboxVault';

/** A file's text (jsdom's Blob has no `text()`). */
function textOf(file: File): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(file);
  });
}

type Sent = { clientId: string; body: string; files: string[] };
interface FakeServer {
  reachable: boolean;
  refuse: Set<string>;
  /** What each send carried, in order (a resend shows the same client id again). */
  sends: Sent[];
  send: (entry: OutboxEntry) => Promise<SendOutcome<never>>;
}

/** A server that can be offline, refuses the bodies asked for, and records every send. */
function fakeServer(): FakeServer {
  const server: FakeServer = {
    reachable: false,
    refuse: new Set(),
    sends: [],
    send: async (entry) => {
      if (!server.reachable) return { kind: 'unreachable' };
      const files = await Promise.all(entry.files.map(textOf));
      server.sends.push({ clientId: entry.clientId, body: entry.body, files });
      if (server.refuse.has(entry.body)) return { kind: 'refused', error: 'too long' };
      // The tests only look at what was sent; the stored message itself is not used.
      return { kind: 'stored', message: undefined as never };
    },
  };
  return server;
}

/** A page of the chat screen: an outbox service over this browser's storage for employee `me`. */
async function openPage(storage: SecureStorage, server: FakeServer, me = 5) {
  const vault = new OutboxVault(me, storage);
  const service = createOutboxService(server.send, vault);
  await service.restored;
  await service.flush();
  await vault.whenSaved();
  return { ...service, vault };
}

async function write(page: Awaited<ReturnType<typeof openPage>>, entry: OutboxEntry) {
  page.outbox.set([...page.outbox.get(), entry]);
  await page.flush();
  await page.vault.whenSaved();
}

describe('outbox vault', () => {
  it('keeps messages written offline across a reload and sends them again with the same client ids', async () => {
    const storage = new SecureStorage();
    const server = fakeServer();
    const before = await openPage(storage, server);
    const photo = new File(['png bytes'], 'photo.png', { type: 'image/png' });
    await write(before, outboxEntry({ chatId: 7, body: 'first' }, 'client-1'));
    await write(before, outboxEntry({ chatId: 9, body: 'second', replyToId: 3, files: [photo] }, 'client-2'));
    expect(before.outbox.get().map((e) => e.state)).toEqual(['pending', 'pending']);

    // Reload: a new outbox over the same storage, still offline.
    const offline = await openPage(storage, server);
    expect(offline.outbox.get()).toEqual([
      expect.objectContaining({ clientId: 'client-1', chatId: 7, body: 'first', state: 'pending' }),
      expect.objectContaining({ clientId: 'client-2', chatId: 9, replyToId: 3, state: 'pending' }),
    ]);
    expect(offline.outbox.get()[1]!.files[0]).toMatchObject({ name: 'photo.png', type: 'image/png' });

    // Reload online: both go out under their ids, in order, and leave the storage.
    server.reachable = true;
    const online = await openPage(storage, server);
    expect(server.sends).toEqual([
      { clientId: 'client-1', body: 'first', files: [] },
      { clientId: 'client-2', body: 'second', files: ['png bytes'] },
    ]);
    expect(online.outbox.get()).toEqual([]);
    expect((await openPage(storage, server)).outbox.get()).toEqual([]);
    expect(server.sends).toHaveLength(2);
  });

  it('sends again after a reload a message cut short mid-send, under its client id', async () => {
    const storage = new SecureStorage();
    const server = fakeServer();
    const page = await openPage(storage, server);
    page.outbox.set([{ ...outboxEntry({ chatId: 7, body: 'hello' }, 'client-cut'), state: 'sending' }]);
    await page.vault.whenSaved();

    server.reachable = true;
    await openPage(storage, server);
    expect(server.sends.map((s) => s.clientId)).toEqual(['client-cut']);
  });

  it('keeps a refused message failed across a reload, and a retry sends it', async () => {
    const storage = new SecureStorage();
    const server = fakeServer();
    server.reachable = true;
    server.refuse.add('bad');
    const page = await openPage(storage, server);
    await write(page, outboxEntry({ chatId: 7, body: 'bad' }, 'client-bad'));

    const reloaded = await openPage(storage, server);
    expect(reloaded.outbox.get()).toEqual([
      expect.objectContaining({ clientId: 'client-bad', state: 'failed', error: 'too long' }),
    ]);
    expect(server.sends).toHaveLength(1);

    server.refuse.clear();
    reloaded.outbox.set(retryEntry(reloaded.outbox.get(), 'client-bad'));
    await reloaded.flush();
    await reloaded.vault.whenSaved();
    expect(server.sends.map((s) => s.clientId)).toEqual(['client-bad', 'client-bad']);
    expect((await openPage(storage, server)).outbox.get()).toEqual([]);
  });

  it('keeps each employee’s outbox apart in the one storage', async () => {
    const storage = new SecureStorage();
    const server = fakeServer();
    await write(await openPage(storage, server, 5), outboxEntry({ chatId: 7, body: 'from 5' }, 'c5'));
    await write(await openPage(storage, server, 6), outboxEntry({ chatId: 7, body: 'from 6' }, 'c6'));
    expect((await openPage(storage, server, 5)).outbox.get().map((e) => e.body)).toEqual(['from 5']);
    expect((await openPage(storage, server, 6)).outbox.get().map((e) => e.body)).toEqual(['from 6']);
  });

  it('keeps what two tabs of one employee wrote, each tab replacing only its own entries', async () => {
    const storage = new SecureStorage();
    const server = fakeServer();
    const first = await openPage(storage, server);
    const second = await openPage(storage, server);
    await write(first, outboxEntry({ chatId: 7, body: 'from the first tab' }, 'tab-1'));
    await write(second, outboxEntry({ chatId: 7, body: 'from the second tab' }, 'tab-2'));
    const stored = async () => (await new OutboxVault(5, storage).load()).map((e) => e.clientId);
    expect(await stored()).toEqual(['tab-1', 'tab-2']);

    // The first tab comes back online and sends its own; the second tab's entry stays stored.
    server.reachable = true;
    await first.flush();
    await first.vault.whenSaved();
    expect(server.sends.map((s) => s.clientId)).toEqual(['tab-1']);
    expect(await stored()).toEqual(['tab-2']);

    // The second tab closed before sending: the next page loads its entry and sends it.
    const next = await openPage(storage, server);
    expect(server.sends.map((s) => s.clientId)).toEqual(['tab-1', 'tab-2']);
    expect(next.outbox.get()).toEqual([]);
    expect(await stored()).toEqual([]);
  });

  it('brings back failed, naming them, a message whose files were too large to keep', async () => {
    const storage = new SecureStorage();
    const server = fakeServer();
    const page = await openPage(storage, server);
    const scan = new File([new Uint8Array(KEPT_FILES_MAX_BYTES + 1)], 'scan.pdf', {
      type: 'application/pdf',
    });
    await write(page, outboxEntry({ chatId: 7, body: 'the contract', files: [scan] }, 'client-scan'));

    server.reachable = true;
    const reloaded = await openPage(storage, server);
    expect(server.sends).toEqual([]);
    expect(reloaded.outbox.get()).toEqual([
      expect.objectContaining({ state: 'failed', files: [], filesLost: ['scan.pdf'] }),
    ]);
  });
});
