import { WS } from '@mizan/contracts';
import type ReconnectingWebSocket from 'reconnecting-websocket';
import type { Options } from 'reconnecting-websocket';
import { sdkStore, tokenAtom } from './session';
import { autoConnect, buildWsUrl, connectionStatusAtom, WsClient, type WebSocketConstructor } from './ws';

/** Every reconnecting-websocket instance made, with its options: the real class, only counted. */
const mockTransports: { transport: ReconnectingWebSocket; options: Options | undefined }[] = [];
jest.mock('reconnecting-websocket', () => {
  const actual = jest.requireActual<
    { default?: typeof ReconnectingWebSocket } & typeof ReconnectingWebSocket
  >('reconnecting-websocket');
  const Actual = actual.default ?? actual; // the CommonJS build exports the class itself
  class CountedReconnectingWebSocket extends Actual {
    constructor(...args: ConstructorParameters<typeof ReconnectingWebSocket>) {
      super(...args);
      mockTransports.push({ transport: this, options: args[2] });
    }
  }
  return { __esModule: true, default: CountedReconnectingWebSocket };
});

jest.mock('./fingerprint', () => ({
  getFingerprint: jest.fn(async () => ({ visitorId: 'visitor-1', session: 'session-1' })),
}));

type Listener = (event: object) => void;

/**
 * A WebSocket stand-in the test drives: it opens, receives and closes only when told. It has the
 * surface reconnecting-websocket uses (static CLOSING === 2, addEventListener, readyState, ...).
 */
class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeSocket[] = [];
  readyState = 0;
  binaryType = 'blob';
  sent: unknown[] = [];
  closeCalls: (number | undefined)[] = [];
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  addEventListener(type: string, listener: Listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(listener);
  }
  removeEventListener(type: string, listener: Listener) {
    this.listeners.get(type)?.delete(listener);
  }
  listenerCount(type: string) {
    return this.listeners.get(type)?.size ?? 0;
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
    this.dispatch('open', {});
  }
  drop(code: number, reason = '') {
    this.readyState = 3;
    this.dispatch('close', { code, reason, wasClean: code !== 1006 });
  }
  /** A failed connection as a browser reports it: `error`, then `close` with 1006. */
  fail() {
    this.readyState = 3;
    this.dispatch('error', { message: '' });
    this.dispatch('close', { code: 1006, reason: '', wasClean: false });
  }
  receive(frame: unknown) {
    this.dispatch('message', { data: JSON.stringify(frame) });
  }
  private dispatch(type: string, fields: object) {
    const event = { ...fields, type, target: this };
    for (const listener of [...(this.listeners.get(type) ?? [])]) listener(event);
  }
}

const sockets = () => FakeSocket.instances;
const last = () => FakeSocket.instances[FakeSocket.instances.length - 1]!;

/**
 * Starts the client and lets reconnecting-websocket make the socket: it always waits one timer
 * turn (`setTimeout(.., 0)` for a first attempt) before constructing it.
 */
async function start(client: WsClient) {
  await client.connect();
  await jest.advanceTimersByTimeAsync(0);
}

/**
 * The timer turn after which reconnecting-websocket makes the socket of an attempt it was told to
 * start (`setTimeout(.., 0)`, which fake timers run 1 ms later when it is set during a tick).
 */
const socketTurn = () => jest.advanceTimersByTimeAsync(1);

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
  mockTransports.length = 0;
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
    await start(client);
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
    await start(client);
    last().accept();
    last().drop(1006);

    for (let attempt = 1; attempt <= WS.maxReconnectAttempts; attempt++) {
      const before = sockets().length;
      expect(sdkStore.get(connectionStatusAtom)).toBe('reconnecting');
      await jest.advanceTimersByTimeAsync(WS.reconnectDelayStepMs * attempt - 1);
      expect(sockets()).toHaveLength(before);
      expect(mockTransports).toHaveLength(before);
      await jest.advanceTimersByTimeAsync(1);
      expect(mockTransports).toHaveLength(before + 1); // the attempt starts at 5 s × attempt exactly
      await socketTurn();
      expect(sockets()).toHaveLength(before + 1);
      last().drop(1011);
    }

    expect(events).toEqual(['open', `reconnectFailed:${WS.maxReconnectAttempts}`]);
    expect(sdkStore.get(connectionStatusAtom)).toBe('failed');
    await jest.advanceTimersByTimeAsync(10 * 60_000);
    expect(sockets()).toHaveLength(1 + WS.maxReconnectAttempts);
  });

  it('shows the connection down as soon as the browser goes offline, and tries again when it is back', async () => {
    const { client } = makeClient();
    const stop = autoConnect(client);
    sdkStore.set(tokenAtom, 'token-1');
    await jest.advanceTimersByTimeAsync(WS.autoConnectDelayMs);
    await socketTurn();
    last().accept();
    expect(sdkStore.get(connectionStatusAtom)).toBe('open');

    // No close event from the socket yet (it would come after a failed ping): the network event is enough.
    window.dispatchEvent(new Event('offline'));
    expect(sdkStore.get(connectionStatusAtom)).toBe('reconnecting');
    const before = sockets().length;

    // Back before the retry's 5 s: it tries at once.
    window.dispatchEvent(new Event('online'));
    await socketTurn();
    expect(sockets()).toHaveLength(before + 1);
    last().accept();
    expect(sdkStore.get(connectionStatusAtom)).toBe('open');
    stop();
    client.disconnect();
  });

  it('resets the retry count on open and subscribes the channels again', async () => {
    const { client } = makeClient();
    client.subscribe('courts', () => undefined);
    client.subscribe('judicialRanks', () => undefined);
    await start(client);
    last().accept();
    last().drop(1006);
    await jest.advanceTimersByTimeAsync(5_000);
    await socketTurn();
    last().drop(1006);
    await jest.advanceTimersByTimeAsync(10_000);
    await socketTurn();
    last().accept();
    expect(last().sent).toEqual([
      { type: 'subscribe', channel: 'courts' },
      { type: 'subscribe', channel: 'judicialRanks' },
    ]);

    // After an open the next drop starts again at attempt 1 (5 s).
    const before = sockets().length;
    last().drop(1001);
    await jest.advanceTimersByTimeAsync(5_000);
    await socketTurn();
    expect(sockets()).toHaveLength(before + 1);
    client.disconnect();
  });

  it('does not reconnect after a close with 1000', async () => {
    const { client } = makeClient();
    await start(client);
    last().accept();
    last().drop(1000);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(sockets()).toHaveLength(1);
    expect(sdkStore.get(connectionStatusAtom)).toBe('closed');
  });

  it('disconnect() closes with 1000 and never reconnects', async () => {
    const { client } = makeClient();
    await start(client);
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
    await start(client);
    const socket = last();
    await jest.advanceTimersByTimeAsync(WS.connectTimeoutMs - 1);
    expect(socket.closeCalls).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(socket.closeCalls).toHaveLength(1);
    expect(error).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(WS.reconnectDelayStepMs);
    await socketTurn();
    expect(sockets()).toHaveLength(2);
    client.disconnect();
  });

  it('stops on 4401/4403 (the server refused the session) and says so', async () => {
    const { client, events } = makeClient();
    await start(client);
    last().accept();
    last().drop(4401, 'unauthorized');
    await jest.advanceTimersByTimeAsync(60_000);
    expect(sockets()).toHaveLength(1);
    expect(events).toEqual(['open', 'rejected:4401']);
  });

  it('stops on 4403 (revoked session) too', async () => {
    const { client, events } = makeClient();
    await start(client);
    last().accept();
    last().drop(4403, 'revoked');
    await jest.advanceTimersByTimeAsync(60_000);
    expect(sockets()).toHaveLength(1);
    expect(events).toEqual(['open', 'rejected:4403']);
    expect(sdkStore.get(connectionStatusAtom)).toBe('closed');
  });

  it('runs over reconnecting-websocket: one instance per attempt, its own retries and timeout off', async () => {
    const { client } = makeClient();
    await start(client);
    expect(mockTransports).toHaveLength(1);
    const [{ transport, options }] = mockTransports as [(typeof mockTransports)[number]];
    expect(options).toMatchObject({ startClosed: true, maxRetries: 0, maxEnqueuedMessages: 0 });
    expect(options!.connectionTimeout).toBeGreaterThan(WS.connectTimeoutMs);
    // The fake socket was made by that instance and is what it reports on.
    expect(sockets()).toHaveLength(1);
    expect(transport.url).toBe(last().url);
    expect(last().listenerCount('open')).toBe(1);
    expect(transport.readyState).toBe(0);
    last().accept();
    expect(transport.readyState).toBe(1);
    expect(client.isOpen).toBe(true);
    expect(client.send({ type: 'ping' })).toBe(true);
    expect(last().sent).toEqual([{ type: 'ping' }]);

    // A drop: the library makes no socket of its own (its first delay would be 1–5 s); ours comes at
    // 5 s through a new instance.
    last().drop(1006);
    await jest.advanceTimersByTimeAsync(WS.reconnectDelayStepMs - 1);
    expect(sockets()).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    await socketTurn();
    expect(sockets()).toHaveLength(2);
    expect(mockTransports).toHaveLength(2);
    expect(mockTransports[1]!.transport).not.toBe(transport);
    client.disconnect();
    expect(last().closeCalls).toEqual([1000]);
  });

  it("sees the real close code after a socket error, not the library's own 1000, and reconnects", async () => {
    const { client } = makeClient();
    const closes: number[] = [];
    client.events.on('close', ({ code }) => closes.push(code));
    await start(client);
    // A refused connection: error, then close 1006. The library closes the socket itself on the
    // error and reports a close with 1000, which would stop reconnection if it were believed.
    last().fail();
    expect(closes).toEqual([1006]);
    expect(sdkStore.get(connectionStatusAtom)).toBe('reconnecting');
    await jest.advanceTimersByTimeAsync(WS.reconnectDelayStepMs);
    await socketTurn();
    expect(sockets()).toHaveLength(2);

    // The same once open.
    last().accept();
    last().fail();
    expect(closes).toEqual([1006, 1006]);
    await jest.advanceTimersByTimeAsync(WS.reconnectDelayStepMs);
    await socketTurn();
    expect(sockets()).toHaveLength(3);
    client.disconnect();
  });

  it('disconnect() before the library has made the socket: no socket is made at all', async () => {
    const { client } = makeClient();
    await client.connect();
    client.disconnect();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(mockTransports).toHaveLength(1);
    expect(sockets()).toHaveLength(0);
    expect(sdkStore.get(connectionStatusAtom)).toBe('closed');
  });

  it("uses the page's WebSocket class when none is given (real timers)", async () => {
    jest.useRealTimers();
    const original = globalThis.WebSocket;
    Object.assign(globalThis, { WebSocket: FakeSocket });
    try {
      const client = new WsClient({ url: async () => 'ws://test/api/ws' });
      await client.connect();
      // The library makes the socket on its next timer turn.
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(sockets()).toHaveLength(1);
      last().accept();
      expect(client.connectionStatus).toBe('open');
      client.disconnect();
      expect(last().closeCalls).toEqual([1000]);
    } finally {
      Object.assign(globalThis, { WebSocket: original });
    }
  });

  it('routes frames to the channel handlers and unsubscribes when the last handler leaves', async () => {
    const { client } = makeClient();
    await start(client);
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
    expect(mockTransports).toHaveLength(1);
    await socketTurn();
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
