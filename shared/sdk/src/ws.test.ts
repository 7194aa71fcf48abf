import { WS } from '@mizan/contracts';
import { sdkStore, tokenAtom } from './session';
import { autoConnect, buildWsUrl, connectionStatusAtom, WsClient, type WebSocketConstructor } from './ws';

jest.mock('./fingerprint', () => ({
  getFingerprint: jest.fn(async () => ({ visitorId: 'visitor-1', session: 'session-1' })),
}));

/** A WebSocket stand-in the test drives: it opens, receives and closes only when told. */
class FakeSocket {
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  closeCalls: (number | undefined)[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number) {
    this.closeCalls.push(code);
    this.readyState = 3;
  }
  // Test controls
  accept() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop(code: number, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
  receive(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

const sockets = () => FakeSocket.instances;
const last = () => FakeSocket.instances[FakeSocket.instances.length - 1]!;

function makeClient() {
  const client = new WsClient({
    WebSocket: FakeSocket as unknown as WebSocketConstructor,
    url: async () => 'ws://test/api/ws',
  });
  const events: string[] = [];
  client.events.on('open', () => events.push('open'));
  client.events.on('reconnectFailed', ({ attempts }) => events.push(`reconnectFailed:${attempts}`));
  client.events.on('rejected', ({ code }) => events.push(`rejected:${code}`));
  return { client, events };
}

beforeEach(() => {
  jest.useFakeTimers();
  FakeSocket.instances = [];
  sdkStore.set(tokenAtom, null);
});

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe(WsClient.name, () => {
  it('opens, subscribes the channels it holds, and pings every 30 s', async () => {
    const { client, events } = makeClient();
    client.subscribe('courts', () => undefined);
    await client.connect();
    expect(sockets()).toHaveLength(1);
    expect(sdkStore.get(connectionStatusAtom)).toBe('connecting');

    last().accept();
    expect(events).toEqual(['open']);
    expect(sdkStore.get(connectionStatusAtom)).toBe('open');
    expect(last().sent).toEqual([{ type: 'subscribe', channel: 'courts' }]);

    await jest.advanceTimersByTimeAsync(WS.pingIntervalMs - 1);
    expect(last().sent).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(last().sent[1]).toEqual({ type: 'ping' });
    await jest.advanceTimersByTimeAsync(WS.pingIntervalMs);
    expect(last().sent.filter((m) => (m as { type: string }).type === 'ping')).toHaveLength(2);
    client.disconnect();
  });

  it('reconnects after a close other than 1000: 5 s × attempt, 5 attempts, then reconnectFailed', async () => {
    const { client, events } = makeClient();
    await client.connect();
    last().accept();
    last().drop(1006);

    for (let attempt = 1; attempt <= WS.maxReconnectAttempts; attempt++) {
      const before = sockets().length;
      expect(sdkStore.get(connectionStatusAtom)).toBe('reconnecting');
      await jest.advanceTimersByTimeAsync(WS.reconnectDelayStepMs * attempt - 1);
      expect(sockets()).toHaveLength(before);
      await jest.advanceTimersByTimeAsync(1);
      expect(sockets()).toHaveLength(before + 1);
      last().drop(1011);
    }

    expect(events).toEqual(['open', `reconnectFailed:${WS.maxReconnectAttempts}`]);
    expect(sdkStore.get(connectionStatusAtom)).toBe('failed');
    await jest.advanceTimersByTimeAsync(10 * 60_000);
    expect(sockets()).toHaveLength(1 + WS.maxReconnectAttempts);
  });

  it('resets the retry count on open and subscribes the channels again', async () => {
    const { client } = makeClient();
    client.subscribe('courts', () => undefined);
    client.subscribe('judicialRanks', () => undefined);
    await client.connect();
    last().accept();
    last().drop(1006);
    await jest.advanceTimersByTimeAsync(5_000);
    last().drop(1006);
    await jest.advanceTimersByTimeAsync(10_000);
    last().accept();
    expect(last().sent).toEqual([
      { type: 'subscribe', channel: 'courts' },
      { type: 'subscribe', channel: 'judicialRanks' },
    ]);

    // After an open the next drop starts again at attempt 1 (5 s).
    const before = sockets().length;
    last().drop(1001);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(sockets()).toHaveLength(before + 1);
    client.disconnect();
  });

  it('does not reconnect after a close with 1000', async () => {
    const { client } = makeClient();
    await client.connect();
    last().accept();
    last().drop(1000);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(sockets()).toHaveLength(1);
    expect(sdkStore.get(connectionStatusAtom)).toBe('closed');
  });

  it('disconnect() closes with 1000 and never reconnects', async () => {
    const { client } = makeClient();
    await client.connect();
    const socket = last();
    socket.accept();
    client.disconnect();
    expect(socket.closeCalls).toEqual([1000]);
    socket.drop(1006); // a late event of the old socket changes nothing
    await jest.advanceTimersByTimeAsync(60_000);
    expect(sockets()).toHaveLength(1);
    expect(client.send({ type: 'ping' })).toBe(false);
  });

  it('closes an attempt still not open after 10 s, logs an error, and retries', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { client } = makeClient();
    await client.connect();
    const socket = last();
    await jest.advanceTimersByTimeAsync(WS.connectTimeoutMs - 1);
    expect(socket.closeCalls).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(socket.closeCalls).toHaveLength(1);
    expect(error).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(WS.reconnectDelayStepMs);
    expect(sockets()).toHaveLength(2);
    client.disconnect();
  });

  it('stops on 4401/4403 (the server refused the session) and says so', async () => {
    const { client, events } = makeClient();
    await client.connect();
    last().accept();
    last().drop(4401, 'unauthorized');
    await jest.advanceTimersByTimeAsync(60_000);
    expect(sockets()).toHaveLength(1);
    expect(events).toEqual(['open', 'rejected:4401']);
  });

  it('routes frames to the channel handlers and unsubscribes when the last handler leaves', async () => {
    const { client } = makeClient();
    await client.connect();
    last().accept();
    const courts = jest.fn();
    const other = jest.fn();
    const stopCourts = client.subscribe('courts', courts);
    const stopCourts2 = client.subscribe('courts', other);
    expect(last().sent).toEqual([{ type: 'subscribe', channel: 'courts' }]);

    const frame = { type: 'event', channel: 'courts', action: 'update', data: { id: 3, name: 'x' } };
    last().receive(frame);
    last().receive({ type: 'event', channel: 'judges', action: 'create', data: { id: 1 } });
    last().receive({ type: 'pong' });
    expect(courts).toHaveBeenCalledTimes(1);
    expect(courts).toHaveBeenCalledWith(frame);

    stopCourts();
    expect(last().sent).toHaveLength(1);
    stopCourts2();
    expect(last().sent[1]).toEqual({ type: 'unsubscribe', channel: 'courts' });
    expect(client.subscribedChannels()).toEqual([]);
    client.disconnect();
  });
});

describe('autoConnect', () => {
  it('connects 1 s after load when a token exists, and follows sign-out and sign-in', async () => {
    sdkStore.set(tokenAtom, 'tok');
    const { client } = makeClient();
    const stop = autoConnect(client);
    await jest.advanceTimersByTimeAsync(WS.autoConnectDelayMs - 1);
    expect(sockets()).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(sockets()).toHaveLength(1);
    last().accept();

    sdkStore.set(tokenAtom, null);
    expect(last().closeCalls).toEqual([1000]);
    sdkStore.set(tokenAtom, 'tok-2');
    await jest.advanceTimersByTimeAsync(0);
    expect(sockets()).toHaveLength(2);
    stop();
    client.disconnect();
  });

  it('does not connect without a token', async () => {
    const { client } = makeClient();
    const stop = autoConnect(client);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(sockets()).toHaveLength(0);
    stop();
  });
});

describe(buildWsUrl.name, () => {
  it('puts token and fingerprints in the query of ws://<host>/api/ws', async () => {
    expect(await buildWsUrl()).toBeUndefined();
    sdkStore.set(tokenAtom, 'tok en');
    const url = new URL((await buildWsUrl())!);
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe(`ws://${location.host}/api/ws`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      Authorization: 'tok en',
      'x-fingerprint-session': 'session-1',
      'x-fingerprint': 'visitor-1',
    });
  });
});
