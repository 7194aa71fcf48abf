import { clearSession, sdkStore, tokenAtom, userAtom, wsClient, type AuthUser } from '@mizan/sdk';
import { pointSdkAt, signIn } from '@mizan/ui/testing/render';
import { waitFor } from '@testing-library/react';
import { outboxEntry } from './messages/outbox';
import { outboxServiceFor, retryDelayMs } from './outboxContext';
import { startChatServer } from './test/chatServer';

type ChatServer = Awaited<ReturnType<typeof startChatServer>>;
let server: ChatServer;

beforeEach(async () => {
  server = await startChatServer();
  pointSdkAt(server.url);
  signIn(['chat.use']);
});
afterEach(async () => {
  await clearSession('logout');
  await server.close();
});

const sends = () => server.calls('POST', '/api/admin/chats/messages');

/** An entry written while the server was unreachable, still pending in employee 1's outbox. */
async function writtenOffline(body: string) {
  const service = outboxServiceFor(1);
  await service.restored;
  server.state.mode = 'offline';
  service.outbox.set([...service.outbox.get(), outboxEntry({ chatId: 4, body }, `client-${body}`)]);
  await service.flush();
  expect(service.outbox.get().map((e) => e.state)).toEqual(['pending']);
  server.state.mode = 'store';
  return service;
}

describe('the outbox outside the chat screen', () => {
  it('is one service per employee for the page, and sends when the socket reopens', async () => {
    const service = await writtenOffline('بعد الانقطاع');
    // The chat screen closed and opened again: the same outbox, not a new empty one.
    expect(outboxServiceFor(1)).toBe(service);
    const before = sends().length;

    wsClient.events.emit('open', undefined);

    await waitFor(() => expect(server.storedWith('بعد الانقطاع')).toHaveLength(1));
    expect(sends()).toHaveLength(before + 1);
    await waitFor(() => expect(service.outbox.get()).toEqual([]));
  });

  it('sends again by itself when a send met no server while the socket stayed open', async () => {
    // A proxy with no instance to hand the request to (a rolling restart): the socket is already
    // open again, so its reopening will not come to trigger the send.
    await writtenOffline('أثناء إعادة التشغيل');
    await waitFor(() => expect(server.storedWith('أثناء إعادة التشغيل')).toHaveLength(1), {
      timeout: retryDelayMs(1) + 5_000,
    });
    await waitFor(() => expect(outboxServiceFor(1).outbox.get()).toEqual([]));
  });

  it('sends nothing under another session after a sign-out, and the next sign-in starts afresh', async () => {
    const service = await writtenOffline('قبل الخروج');
    await clearSession('logout');
    // Another employee signs in on the same page: the first one's message must not go out as theirs.
    sdkStore.set(tokenAtom, 'sara-token');
    sdkStore.set(userAtom, {
      id: 2,
      name: 'سارة',
      permissions: ['chat.use'],
      Roles: [],
    } as unknown as AuthUser);
    const before = sends().length;

    wsClient.events.emit('open', undefined);
    await service.flush();

    expect(sends()).toHaveLength(before);
    expect(service.outbox.get().map((e) => e.state)).toEqual(['pending']);
    expect(outboxServiceFor(1)).not.toBe(service);
  });
});
