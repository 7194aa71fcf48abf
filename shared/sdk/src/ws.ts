import { API_BASE, HEADERS, WS, WS_CLOSE, WS_PATH } from '@mizan/contracts/light';
import type { ClientMessage, ServerMessage } from '@mizan/contracts';
import { atom } from 'jotai';
import ReconnectingWebSocket from 'reconnecting-websocket';
import { Emitter } from './events';
import { getFingerprint } from './fingerprint';
import { sdkStore, tokenAtom } from './session';

/**
 * The real-time client on `/api/ws`, over reconnecting-websocket.
 *
 * Rules: connect; on open the retry count is reset, subscribed channels are subscribed again and a
 * ping starts every 30 s; a close with any code but 1000 reconnects after 5 s × attempt, at most 5
 * attempts, then `reconnectFailed`; `disconnect()` closes with 1000 and does not reconnect; an
 * attempt still not open after 10 s is closed, logged with console.error and counts as a failure.
 * Two close codes of our server also stop reconnection: 4401 (bad token) and 4403 (revoked
 * session), where another attempt with the same token cannot succeed; they emit `rejected`.
 *
 * The library's own policy cannot express these rules (its delays grow exponentially; on a socket
 * `error` and on its own timeout it closes the socket itself and reports a close with code 1000), so
 * it is only the transport here and this class decides every attempt:
 * - one ReconnectingWebSocket per attempt, `startClosed` and started with `reconnect()`, with
 *   `maxRetries: 0` so it never retries by itself (an instance is not reused: once it has refused a
 *   retry its connect lock stays set and a later `reconnect()` would do nothing);
 * - its `connectionTimeout` is twice ours, so our 10 s timer always acts first (and `close()` clears
 *   the library's timer);
 * - the close code comes from a listener on the socket itself (the library hands it our socket
 *   class, which reports each socket it makes): after an `error` the library detaches its listeners
 *   from the socket and reports its own close with 1000, the real code (1006) reaching only us.
 */

export type ConnectionStatus = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed' | 'failed';

/** What a channel handler receives: every server frame naming that channel. */
export type ChannelMessage = Exclude<ServerMessage, { type: 'pong' }> & { channel: string };
export type ChannelHandler = (message: ChannelMessage) => void;

export type WsEvents = {
  open: undefined;
  close: { code: number; reason: string };
  reconnectFailed: { attempts: number };
  /** The server refused the session (4401 bad token, 4403 revoked): no reconnection. */
  rejected: { code: number; reason: string };
  status: ConnectionStatus;
  message: ServerMessage;
};

/** The constructor shape used; tests pass a fake. */
export type WebSocketConstructor = new (url: string) => WebSocket;

export interface WsClientOptions {
  /** WebSocket class (default: the browser's, looked up at connect time). */
  WebSocket?: WebSocketConstructor;
  /** Builds the URL of each attempt; undefined means "no token: do not connect". */
  url?: () => Promise<string | undefined>;
}

/** Connection status for the UI (header indicator). */
export const connectionStatusAtom = atom<ConnectionStatus>('idle');

/** `ws(s)://<page host>/api/ws?Authorization=<token>&x-fingerprint-session=..&x-fingerprint=..` */
export async function buildWsUrl(): Promise<string | undefined> {
  const token = sdkStore.get(tokenAtom);
  if (!token) return undefined;
  const query = new URLSearchParams({ Authorization: token });
  const fingerprint = await getFingerprint();
  if (fingerprint) {
    query.set(HEADERS.fingerprintSession, fingerprint.session);
    query.set(HEADERS.fingerprint, fingerprint.visitorId);
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${API_BASE}${WS_PATH}?${query.toString()}`;
}

/** The socket class handed to reconnecting-websocket: `Base`, reporting every socket it makes. */
function reportingSocketClass(
  Base: WebSocketConstructor,
  onSocket: (socket: WebSocket) => void,
): WebSocketConstructor {
  // A subclass keeps Base's statics (the library checks `CLOSING === 2`) and its event methods.
  return class extends Base {
    constructor(url: string) {
      super(url);
      onSocket(this);
    }
  };
}

export class WsClient {
  readonly events = new Emitter<WsEvents>();
  /** The current attempt's transport (connecting or open); null between attempts. */
  private transport: ReconnectingWebSocket | null = null;
  private status: ConnectionStatus = 'idle';
  /** Reconnection attempts since the last open. */
  private attempts = 0;
  /** Set by `disconnect()`: no reconnection until the next `connect()`. */
  private stopped = true;
  private connectTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private readonly channels = new Map<string, Set<ChannelHandler>>();

  constructor(private readonly options: WsClientOptions = {}) {}

  get connectionStatus(): ConnectionStatus {
    return this.status;
  }

  get isOpen(): boolean {
    return this.transport?.readyState === ReconnectingWebSocket.OPEN;
  }

  /**
   * Opens the connection (no-op when open or opening). Resolves once the attempt has started; the
   * socket itself is made by reconnecting-websocket on its next timer turn.
   */
  async connect(): Promise<void> {
    this.stopped = false;
    if (this.transport || this.status === 'connecting') return;
    clearTimeout(this.reconnectTimer);
    this.attempts = 0;
    await this.open();
  }

  /** Closes with 1000; no reconnection. */
  disconnect(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.connectTimer);
    this.stopPing();
    const transport = this.transport;
    this.transport = null;
    if (transport) {
      this.detach(transport);
      transport.close(WS.normalCloseCode);
      this.events.emit('close', { code: WS.normalCloseCode, reason: 'disconnect' });
    }
    this.setStatus('closed');
  }

  /**
   * The browser says its network is gone: the socket is as good as closed, though its close event
   * may take a minute to come. Treated as a dropped connection (status `reconnecting`).
   */
  networkLost(): void {
    if (this.transport) this.handleClose(this.transport, 1006, 'offline');
  }

  /** The browser's network is back: a connection waiting for its next try tries now. */
  networkBack(): void {
    if (this.stopped || this.transport) return;
    clearTimeout(this.reconnectTimer);
    this.attempts = 0;
    void this.open();
  }

  /** Sends one frame; false when the connection is not open (nothing is queued). */
  send(message: ClientMessage): boolean {
    if (!this.transport || !this.isOpen) return false;
    this.transport.send(JSON.stringify(message));
    return true;
  }

  /**
   * Listens to a channel; the subscription is sent now if open and again after every reconnect.
   *
   * @example const stop = wsClient.subscribe('courts', (m) => m.type === 'event' && refresh()); stop();
   */
  subscribe(channel: string, handler: ChannelHandler): () => void {
    let handlers = this.channels.get(channel);
    if (!handlers) {
      this.channels.set(channel, (handlers = new Set()));
      this.send({ type: 'subscribe', channel });
    }
    handlers.add(handler);
    return () => {
      const current = this.channels.get(channel);
      if (!current?.delete(handler) || current.size > 0) return;
      this.channels.delete(channel);
      this.send({ type: 'unsubscribe', channel });
    };
  }

  /** Channels with at least one handler. */
  subscribedChannels(): string[] {
    return [...this.channels.keys()];
  }

  private setStatus(status: ConnectionStatus): void {
    if (status === this.status) return;
    this.status = status;
    sdkStore.set(connectionStatusAtom, status);
    this.events.emit('status', status);
  }

  private async open(): Promise<void> {
    this.setStatus(this.attempts === 0 ? 'connecting' : 'reconnecting');
    const url = await (this.options.url ?? buildWsUrl)();
    if (this.stopped || this.transport) return;
    if (!url) {
      // Signed out meanwhile: nothing to connect with.
      this.setStatus('closed');
      return;
    }
    const Socket = reportingSocketClass(this.options.WebSocket ?? globalThis.WebSocket, (socket) =>
      socket.addEventListener('close', (event) => this.handleClose(transport, event.code, event.reason)),
    );
    const transport = new ReconnectingWebSocket(url, undefined, {
      WebSocket: Socket,
      startClosed: true,
      maxRetries: 0,
      connectionTimeout: WS.connectTimeoutMs * 2,
      // send() refuses while not open rather than queueing for later.
      maxEnqueuedMessages: 0,
    });
    this.transport = transport;
    transport.onopen = () => this.handleOpen(transport);
    transport.onmessage = (event: MessageEvent) => this.handleMessage(transport, event);
    transport.reconnect();
    this.connectTimer = setTimeout(() => {
      console.error(`WebSocket connection not open after ${WS.connectTimeoutMs} ms: closing it`);
      // Closed in handleClose; the close event of a socket closed while connecting may never come.
      this.handleClose(transport, 1006, 'timeout');
    }, WS.connectTimeoutMs);
  }

  private handleOpen(transport: ReconnectingWebSocket): void {
    if (transport !== this.transport) return;
    clearTimeout(this.connectTimer);
    this.attempts = 0;
    this.setStatus('open');
    for (const channel of this.channels.keys()) this.send({ type: 'subscribe', channel });
    this.stopPing();
    this.pingTimer = setInterval(() => this.send({ type: 'ping' }), WS.pingIntervalMs);
    this.events.emit('open', undefined);
  }

  private handleMessage(transport: ReconnectingWebSocket, event: MessageEvent): void {
    if (transport !== this.transport) return;
    let message: ServerMessage;
    try {
      message = JSON.parse(String(event.data)) as ServerMessage;
    } catch {
      return; // not one of our frames
    }
    this.events.emit('message', message);
    if ('channel' in message && typeof message.channel === 'string') {
      const framed = message as ChannelMessage;
      for (const handler of [...(this.channels.get(framed.channel) ?? [])]) handler(framed);
    }
  }

  private handleClose(transport: ReconnectingWebSocket, code: number, reason: string): void {
    if (transport !== this.transport) return; // an old attempt's late event
    clearTimeout(this.connectTimer);
    this.stopPing();
    this.detach(transport);
    // Retires this instance for good (its timers cleared, no retry of its own); this also closes
    // the socket when it is still connecting (our timeout).
    transport.close();
    this.transport = null;
    this.events.emit('close', { code, reason });
    if (this.stopped || code === WS.normalCloseCode) {
      this.setStatus('closed');
      return;
    }
    if (code === WS_CLOSE.unauthorized || code === WS_CLOSE.revoked) {
      this.setStatus('closed');
      this.events.emit('rejected', { code, reason });
      return;
    }
    if (this.attempts >= WS.maxReconnectAttempts) {
      this.setStatus('failed');
      this.events.emit('reconnectFailed', { attempts: this.attempts });
      return;
    }
    this.attempts += 1;
    this.setStatus('reconnecting');
    this.reconnectTimer = setTimeout(() => void this.open(), WS.reconnectDelayStepMs * this.attempts);
  }

  private detach(transport: ReconnectingWebSocket): void {
    transport.onopen = null;
    transport.onmessage = null;
  }

  private stopPing(): void {
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
  }
}

/** The one real-time connection of the page. */
export const wsClient = new WsClient();

/**
 * Connects 1 s after load when a token exists; then follows the token: a new token
 * (login) reconnects with it, no token (sign-out, 401) disconnects. Returns the cleanup.
 */
export function autoConnect(client: WsClient = wsClient): () => void {
  let started = false;
  const timer = setTimeout(() => {
    started = true;
    if (sdkStore.get(tokenAtom)) void client.connect();
  }, WS.autoConnectDelayMs);
  let lastToken = sdkStore.get(tokenAtom);
  const unsubscribe = sdkStore.sub(tokenAtom, () => {
    const token = sdkStore.get(tokenAtom);
    if (token === lastToken) return;
    lastToken = token;
    if (!token) client.disconnect();
    else if (started) {
      client.disconnect();
      void client.connect();
    }
  });
  // The socket follows the browser's network at once rather than after its next failed ping.
  const lost = () => client.networkLost();
  const back = () => client.networkBack();
  if (typeof window !== 'undefined') {
    window.addEventListener('offline', lost);
    window.addEventListener('online', back);
  }
  return () => {
    clearTimeout(timer);
    unsubscribe();
    if (typeof window !== 'undefined') {
      window.removeEventListener('offline', lost);
      window.removeEventListener('online', back);
    }
  };
}
