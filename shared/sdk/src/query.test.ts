import { CACHE } from '@mizan/contracts';
import { QueryClient, QueryClientProvider, QueryObserver } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { applyEntityEvent, createQueryClient, entityKeys, followResync, useEntityChannel } from './query';
import { WsClient, type ChannelHandler } from './ws';

const page = (items: { id: number; name: string }[], total = items.length) => ({
  items,
  total,
  page: 1,
  pageSize: 20,
});

describe(createQueryClient.name, () => {
  it('keeps unused data 60 s by default', () => {
    expect(createQueryClient().getDefaultOptions().queries?.gcTime).toBe(CACHE.defaultRetentionMs);
  });
});

describe(applyEntityEvent.name, () => {
  let client: QueryClient;
  const listA = entityKeys.list('courts', { page: 1 });
  const listB = entityKeys.list('courts', { page: 1, q: 'x' });

  beforeEach(() => {
    client = new QueryClient();
    client.setQueryData(
      listA,
      page(
        [
          { id: 1, name: 'a' },
          { id: 2, name: 'b' },
        ],
        40,
      ),
    );
    client.setQueryData(listB, page([{ id: 2, name: 'b' }]));
    client.setQueryData(entityKeys.detail('courts', 2), { id: 2, name: 'b' });
    client.setQueryData(entityKeys.list('judges'), page([{ id: 2, name: 'judge' }]));
  });

  it('merges an update into every cached list and the detail, leaving other entities alone', () => {
    applyEntityEvent(client, 'courts', 'update', { id: 2, name: 'B2' });
    expect(client.getQueryData(listA)).toEqual(
      page(
        [
          { id: 1, name: 'a' },
          { id: 2, name: 'B2' },
        ],
        40,
      ),
    );
    expect(client.getQueryData(listB)).toEqual(page([{ id: 2, name: 'B2' }]));
    expect(client.getQueryData(entityKeys.detail('courts', 2))).toEqual({ id: 2, name: 'B2' });
    expect(client.getQueryData(entityKeys.list('judges'))).toEqual(page([{ id: 2, name: 'judge' }]));
  });

  it('applies a status change in place', () => {
    applyEntityEvent(client, 'courts', 'status', { id: 1, status: false });
    expect(client.getQueryData<{ items: unknown[] }>(listA)?.items[0]).toEqual({
      id: 1,
      name: 'a',
      status: false,
    });
  });

  it('removes a deleted row and lowers the total', () => {
    applyEntityEvent(client, 'courts', 'delete', { id: 2 });
    expect(client.getQueryData(listA)).toEqual(page([{ id: 1, name: 'a' }], 39));
    expect(client.getQueryData(listB)).toEqual(page([], 0));
    expect(client.getQueryData(entityKeys.detail('courts', 2))).toBeUndefined();
  });

  it('marks the lists stale on create (position depends on sort and filters)', () => {
    applyEntityEvent(client, 'courts', 'create', { id: 3, name: 'c' });
    expect(client.getQueryState(listA)?.isInvalidated).toBe(true);
    expect(client.getQueryState(entityKeys.list('judges'))?.isInvalidated).toBe(false);
  });
});

describe(useEntityChannel.name, () => {
  it('subscribes to the entity channel while mounted and patches the cache on events', () => {
    const client = new QueryClient();
    client.setQueryData(entityKeys.list('courts'), page([{ id: 5, name: 'old' }]));
    const handlers = new Map<string, ChannelHandler>();
    const unsubscribe = jest.fn();
    const ws = {
      subscribe: jest.fn(
        (channel: string, handler: ChannelHandler) => (handlers.set(channel, handler), unsubscribe),
      ),
    };
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(QueryClientProvider, { client }, children);

    const { unmount } = renderHook(() => useEntityChannel('courts', { client: ws as unknown as WsClient }), {
      wrapper,
    });
    expect(ws.subscribe).toHaveBeenCalledWith('courts', expect.any(Function));
    handlers.get('courts')!({
      type: 'event',
      channel: 'courts',
      action: 'update',
      data: { id: 5, name: 'new' },
    });
    expect(client.getQueryData(entityKeys.list('courts'))).toEqual(page([{ id: 5, name: 'new' }]));
    unmount();
    expect(unsubscribe).toHaveBeenCalled();
  });

  it('reads the lists a screen holds again once the subscription is taken (events before it never came)', async () => {
    const client = new QueryClient();
    let handler: ChannelHandler | undefined;
    const ws = { subscribe: (_: string, h: ChannelHandler) => ((handler = h), () => undefined) };
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(QueryClientProvider, { client }, children);
    renderHook(() => useEntityChannel('courts', { client: ws as unknown as WsClient }), { wrapper });
    let reads = 0;
    const screen = new QueryObserver(client, {
      queryKey: entityKeys.list('courts'),
      queryFn: () => page([{ id: ++reads, name: 'x' }]),
    });
    const leave = screen.subscribe(() => undefined);
    await waitFor(() => expect(reads).toBe(1));
    handler!({ type: 'subscribed', channel: 'courts' });
    await waitFor(() => expect(reads).toBe(2));
    handler!({ type: 'resubscribed', channel: 'courts' });
    await waitFor(() => expect(reads).toBe(3));
    leave();
  });
});

describe(followResync.name, () => {
  it('reads every query on screen again when the server says resync, and nothing on other frames', async () => {
    const client = new QueryClient();
    const ws = new WsClient();
    const stop = followResync(ws, client);
    let reads = 0;
    const screen = new QueryObserver(client, {
      queryKey: ['dashboard'],
      queryFn: () => ++reads,
      staleTime: Infinity,
    });
    const leave = screen.subscribe(() => undefined);
    await waitFor(() => expect(reads).toBe(1));
    ws.events.emit('message', { type: 'pong' });
    ws.events.emit('message', { type: 'resync' });
    await waitFor(() => expect(reads).toBe(2));
    stop();
    ws.events.emit('message', { type: 'resync' });
    await new Promise((r) => setTimeout(r, 20));
    expect(reads).toBe(2);
    leave();
  });
});
