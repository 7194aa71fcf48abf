import {
  API_BASE,
  HEADERS,
  WS,
  WS_CLOSE,
  WS_PATH,
  type ClientMessage,
  type ServerMessage,
} from '@mizan/contracts';
import { atom } from 'jotai';
import { Emitter } from './events';
import { getFingerprint } from './fingerprint';
import { sdkStore, tokenAtom } from './session';

/**
 * The real-time client of seed §4/§9 on `/api/ws`.
 *
 * Written over the plain WebSocket class rather than reconnecting-websocket: that library reports
 * every failed or timed-out connection as a close with code 1000 (it closes the socket itself on
 * `error` and on its own timeout), so the seed's rule "reconnect after any close but 1000" cannot
 * be told apart on top of it, and its delays grow exponentially where the seed's grow linearly.
 *
 * Rules: connect; on open the retry count is reset, subscribed channels are subscribed again and a
 * ping starts every 30 s; a close with any code but 1000 reconnects after 5 s × attempt, at most 5
 * attempts, then `reconnectFailed`; `disconnect()` closes with 1000 and does not reconnect; an
 * attempt still not open after 10 s is closed, logged with console.error and counts as a failure.
 * Two close codes of our server also stop reconnection: 4401 (bad token) and 4403 (revoked
 * session), where another attempt with the same token cannot succeed; they emit `rejected`.
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

export class WsClient {
  readonly events = new Emitter<WsEvents>();
  private socket: WebSocket | null = null;
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
    return this.socket?.readyState === 1;
  }

  /** Opens the connection (no-op when open or opening). Resolves once the attempt has started. */
  async connect(): Promise<void> {
    this.stopped = false;
    if (this.socket || this.status === 'connecting') return;
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
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      this.detach(socket);
      socket.close(WS.normalCloseCode);
      this.events.emit('close', { code: WS.normalCloseCode, reason: 'disconnect' });
    }
    this.setStatus('closed');
  }

  /** Sends one frame; false when the connection is not open (nothing is queued). */
  send(message: ClientMessage): boolean {
    if (!this.socket || this.socket.readyState !== 1) return false;
    this.socket.send(JSON.stringify(message));
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
    if (this.stopped || this.socket) return;
    if (!url) {
      // Signed out meanwhile: nothing to connect with.
      this.setStatus('closed');
      return;
    }
    const Ctor = this.options.WebSocket ?? globalThis.WebSocket;
    const socket = new Ctor(url);
    this.socket = socket;
    socket.onopen = () => this.handleOpen();
    socket.onmessage = (event: MessageEvent) => this.handleMessage(event);
    socket.onclose = (event: CloseEvent) => this.handleClose(socket, event.code, event.reason);
    this.connectTimer = setTimeout(() => {
      console.error(`WebSocket connection not open after ${WS.connectTimeoutMs} ms: closing it`);
      this.detach(socket);
      socket.close();
      // The close event of a socket closed while connecting may never come: handle it now.
      this.handleClose(socket, 1006, 'timeout');
    }, WS.connectTimeoutMs);
  }

  private handleOpen(): void {
    clearTimeout(this.connectTimer);
    this.attempts = 0;
    this.setStatus('open');
    for (const channel of this.channels.keys()) this.send({ type: 'subscribe', channel });
    this.stopPing();
    this.pingTimer = setInterval(() => this.send({ type: 'ping' }), WS.pingIntervalMs);
    this.events.emit('open', undefined);
  }

  private handleMessage(event: MessageEvent): void {
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

  private handleClose(socket: WebSocket, code: number, reason: string): void {
    if (socket !== this.socket) return; // an old socket's late event
    clearTimeout(this.connectTimer);
    this.stopPing();
    this.detach(socket);
    this.socket = null;
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

  private detach(socket: WebSocket): void {
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
  }

  private stopPing(): void {
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
  }
}

/** The one real-time connection of the page. */
export const wsClient = new WsClient();

/**
 * Seed §4: connects 1 s after load when a token exists; then follows the token: a new token
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
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}
