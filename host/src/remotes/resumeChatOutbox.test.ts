import { STORAGE_KEYS } from '@mizan/contracts/light';
import { secureStorage, sessionEvents, type AuthUser } from '@mizan/sdk';
import { waitFor } from '@testing-library/react';
import type { RemoteRoutesLoader } from './loadRemoteRoutes';
import { resumeChatOutbox } from './resumeChatOutbox';

const user = (id: number) =>
  ({ id, name: `employee ${id}`, permissions: [], Roles: [] }) as unknown as AuthUser;

describe('resumeChatOutbox', () => {
  let loader: jest.MockedFunction<RemoteRoutesLoader>;
  let stop: () => void;
  beforeEach(async () => {
    loader = jest.fn<ReturnType<RemoteRoutesLoader>, Parameters<RemoteRoutesLoader>>(async () => []);
    stop = resumeChatOutbox(loader);
    // Employee 5 left a message waiting offline; employee 6 left nothing.
    await secureStorage.set(STORAGE_KEYS.chatOutbox, { 5: [{ clientId: 'waiting' }], 6: [] });
  });
  afterEach(async () => {
    stop();
    await secureStorage.remove(STORAGE_KEYS.chatOutbox);
  });

  it('loads the chat remote when the employee signing in has messages waiting', async () => {
    sessionEvents.emit('established', { user: user(5) });
    await waitFor(() => expect(loader).toHaveBeenCalledWith('chat'));
  });

  it('loads nothing for an employee whose outbox is empty, or with no outbox stored', async () => {
    sessionEvents.emit('established', { user: user(6) });
    sessionEvents.emit('established', { user: user(7) });
    await secureStorage.remove(STORAGE_KEYS.chatOutbox);
    sessionEvents.emit('established', { user: user(5) });
    // Each check reads the storage once; give them the time to.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(loader).not.toHaveBeenCalled();
  });

  it('keeps the page going when the chat remote is down', async () => {
    loader.mockRejectedValue(new Error('remote down'));
    sessionEvents.emit('established', { user: user(5) });
    await waitFor(() => expect(loader).toHaveBeenCalledTimes(1));
  });
});
