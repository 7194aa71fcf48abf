import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import {
  API_BASE,
  HEADERS,
  SYSTEM_SETTINGS_CHANNEL,
  WS_CLOSE,
  WS_PATH,
  findEntity,
  permissionKey,
  type ClientMessage,
  type ServerMessage,
} from '@mizan/contracts';
import type { AuthUser } from '../auth/types';
import { isRevokeMessage, RESYNC_CHANNEL, type RevokeMessage } from '../bus';
import { requestLanguage, translate, type Lang } from '../http/messages';

declare module 'fastify' {
  interface FastifyInstance {
    /** The WebSocket hub: channel guards and message handlers of this app (chat adds its own). */
    hub: Hub;
  }
}

/**
 * Decides whether `user` may join `channel`: true/false, or undefined to leave it to the next guard.
 * Modules own their channels this way (chat: `chats:*` by membership; notifications: `user:<id>`).
 */
export type ChannelGuard = (
  user: AuthUser,
  channel: string,
) => boolean | undefined | Promise<boolean | undefined>;

/** Handles a client `message` frame on a channel the socket has joined (chat). */
export type MessageHandler = (user: AuthUser, channel: string, data: unknown) => void | Promise<void>;

/** Told when an employee's first socket on this instance opens (true) or the last one closes (false). */
export type PresenceListener = (employeeId: number, online: boolean) => void;

/**
 * How the hub learns who a socket belongs to, given by the app (the hub, a kernel part, does not
 * import the auth module).
 */
export interface SocketAuth {
  /** The user of a connection's token and fingerprint session, or null (close 4401). */
  authenticate(token: string, fingerprintSession: string | null): Promise<AuthUser | null>;
  /**
   * Checks an open socket's session again, periodically (default: `authenticate`): null closes it
   * (4403); a user with other permissions leaves the channels no longer allowed.
   */
  recheck?(token: string, fingerprintSession: string | null): Promise<AuthUser | null>;
}

export interface HubOptions {
  auth: SocketAuth;
  /** How often open sockets have their session checked again (default 60 s). */
  recheckMs?: number;
}

interface Client {
  socket: WebSocket;
  user: AuthUser;
  lang: Lang;
  channels: Set<string>;
  /** What the socket authenticated with, checked again periodically. */
  token: string;
  fingerprintSession: string | null;
}

/** The sockets of one app instance; other instances hear of revocations through the bus. */
export class Hub {
  private readonly clients = new Set<Client>();
  private readonly guards: ChannelGuard[] = [];
  private readonly messageHandlers = new Map<string, MessageHandler>();
  /** Open sockets per employee on this instance. */
  private readonly socketsOf = new Map<number, number>();
  private readonly presenceListeners = new Set<PresenceListener>();
  /**
   * Revocations heard while sockets were still being authenticated: such a socket's session may
   * have been read before the revoking write, and no later revocation will name it. Numbered, and
   * kept only while an authentication is under way.
   */
  private revocations: { seq: number; message: Omit<RevokeMessage, 'type'> }[] = [];
  private revocationSeq = 0;
  private authenticating = 0;

  constructor(
    private readonly app: FastifyInstance,
    private readonly auth: SocketAuth,
  ) {}

  /** Open sockets on this instance (metrics). */
  get socketCount(): number {
    return this.clients.size;
  }

  /**
   * Adds a guard consulted before the built-in rules (entity channel: `<channel>.view`; system
   * settings: any signed-in user; anything else refused). Returns a function removing it.
   *
   * @example
   * app.hub.guard(async (user, channel) => channel.startsWith('chats:room:') ? isMember(user.id, channel) : undefined);
   */
  guard(guard: ChannelGuard): () => void {
    this.guards.unshift(guard);
    return () => void this.guards.splice(this.guards.indexOf(guard), 1);
  }

  /** Handles `message` frames on channels starting with `prefix` (e.g. `chats:room:`). */
  handle(prefix: string, handler: MessageHandler): () => void {
    this.messageHandlers.set(prefix, handler);
    return () => void this.messageHandlers.delete(prefix);
  }

  handlerFor(channel: string): MessageHandler | undefined {
    return [...this.messageHandlers.entries()].find(([prefix]) => channel.startsWith(prefix))?.[1];
  }

  async mayJoin(user: AuthUser, channel: string): Promise<boolean> {
    for (const guard of this.guards) {
      const verdict = await guard(user, channel);
      if (verdict !== undefined) return verdict;
    }
    if (channel === SYSTEM_SETTINGS_CHANNEL) return true;
    const entity = findEntity(channel);
    return entity ? user.permissions.has(permissionKey(entity, 'view')) : false;
  }

  authenticate(token: string, fingerprintSession: string | null): Promise<AuthUser | null> {
    return this.auth.authenticate(token, fingerprintSession);
  }

  /**
   * Authenticates a new socket: its user, or the reason of a revocation of its session or employee
   * heard meanwhile (a sign-out in the moment the socket was opening), or null (not signed in).
   */
  async admit(
    token: string,
    fingerprintSession: string | null,
  ): Promise<{ user: AuthUser } | { revoked: string } | null> {
    const since = this.revocationSeq;
    this.authenticating++;
    try {
      const user = await this.authenticate(token, fingerprintSession);
      if (!user) return null;
      const revoked = this.revocations.find(
        ({ seq, message }) =>
          seq > since &&
          (message.employeeIds?.includes(user.id) || message.sessionIds?.includes(user.sessionId)),
      );
      return revoked ? { revoked: revoked.message.reason ?? 'session revoked' } : { user };
    } finally {
      if (--this.authenticating === 0) this.revocations = [];
    }
  }

  add(client: Client): void {
    this.clients.add(client);
    const count = (this.socketsOf.get(client.user.id) ?? 0) + 1;
    this.socketsOf.set(client.user.id, count);
    if (count === 1) this.tellPresence(client.user.id, true);
  }

  remove(client: Client): void {
    if (!this.clients.delete(client)) return;
    const count = (this.socketsOf.get(client.user.id) ?? 1) - 1;
    if (count > 0) return void this.socketsOf.set(client.user.id, count);
    this.socketsOf.delete(client.user.id);
    this.tellPresence(client.user.id, false);
  }

  /** Follows employees coming online and going offline on this instance. Returns the unsubscriber. */
  onPresence(listener: PresenceListener): () => void {
    this.presenceListeners.add(listener);
    return () => void this.presenceListeners.delete(listener);
  }

  /** The employees with an open socket on this instance. */
  employeesOnline(): number[] {
    return [...this.socketsOf.keys()];
  }

  private tellPresence(employeeId: number, online: boolean): void {
    for (const listener of this.presenceListeners) {
      try {
        listener(employeeId, online);
      } catch (error) {
        this.app.log.error({ err: error }, 'presence listener failed');
      }
    }
  }

  /**
   * Takes these employees' sockets out of `channel` at once (they were removed from a chat), each
   * told `unsubscribed`; nothing published on it afterwards reaches them.
   */
  evict(channel: string, employeeIds: readonly number[]): void {
    const evicted = new Set(employeeIds);
    for (const client of this.clients) {
      if (!evicted.has(client.user.id) || !client.channels.delete(channel)) continue;
      send(client.socket, { type: 'unsubscribed', channel });
    }
  }

  deliver(channel: string, message: ServerMessage): void {
    // Encoded once for every socket (a chat room may hold a thousand), sent as a text frame.
    const frame = Buffer.from(JSON.stringify(message));
    for (const client of this.clients) {
      if (client.channels.has(channel) && client.socket.readyState === client.socket.OPEN)
        client.socket.send(frame, TEXT_FRAME);
    }
  }

  /**
   * One pass over the sockets for a frame per employee (each on a channel of their own, such as
   * `chats:user:<id>`): `frameOf` gives the employee's channel and frame, sent to those of their
   * sockets that joined it.
   */
  deliverPerEmployee(
    employeeIds: ReadonlySet<number>,
    frameOf: (employeeId: number) => { channel: string; message: ServerMessage },
  ): void {
    const frames = new Map<number, { channel: string; text: string }>();
    for (const client of this.clients) {
      if (!employeeIds.has(client.user.id) || client.socket.readyState !== client.socket.OPEN) continue;
      let frame = frames.get(client.user.id);
      if (!frame) {
        const { channel, message } = frameOf(client.user.id);
        frame = { channel, text: JSON.stringify(message) };
        frames.set(client.user.id, frame);
      }
      if (client.channels.has(frame.channel)) client.socket.send(frame.text);
    }
  }

  close(predicate: (client: Client) => boolean, code: number, reason: string): number {
    let closed = 0;
    for (const client of [...this.clients]) {
      if (!predicate(client)) continue;
      client.socket.close(code, reason);
      this.remove(client);
      closed++;
    }
    return closed;
  }

  /** Closes (4403) the sockets of the ended sessions or employees; answers how many. */
  revoke(message: Omit<RevokeMessage, 'type'>): number {
    this.revocationSeq++;
    if (this.authenticating > 0) this.revocations.push({ seq: this.revocationSeq, message });
    const employees = new Set(message.employeeIds ?? []);
    const sessions = new Set(message.sessionIds ?? []);
    return this.close(
      (c) => employees.has(c.user.id) || sessions.has(c.user.sessionId),
      WS_CLOSE.revoked,
      message.reason ?? 'session revoked',
    );
  }

  get size(): number {
    return this.clients.size;
  }

  /** Tells every open socket to read again what it shows (`resync`); answers how many. */
  resync(): number {
    const frame = JSON.stringify({ type: 'resync' } satisfies ServerMessage);
    let told = 0;
    for (const client of this.clients) {
      if (client.socket.readyState !== client.socket.OPEN) continue;
      client.socket.send(frame);
      told++;
    }
    return told;
  }

  /**
   * Checks every socket's session again: a signed-out, expired or revoked session is closed
   * (4403); changed permissions apply, and channels no longer allowed are left.
   */
  async recheck(): Promise<void> {
    const check = this.auth.recheck ?? this.auth.authenticate;
    for (const client of [...this.clients]) {
      const user = await check(client.token, client.fingerprintSession);
      if (!user) {
        this.close((c) => c === client, WS_CLOSE.revoked, 'session ended');
        continue;
      }
      client.user = user;
      for (const channel of [...client.channels]) {
        if (await this.mayJoin(user, channel)) continue;
        client.channels.delete(channel);
        send(client.socket, { type: 'unsubscribed', channel });
      }
    }
  }

  get log() {
    return this.app.log;
  }
}

/** A Buffer sent as text, not binary, without compression. */
const TEXT_FRAME = { binary: false, compress: false } as const;

const send = (socket: WebSocket, message: ServerMessage) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
};

function parseFrame(raw: string): ClientMessage | null {
  try {
    const frame = JSON.parse(raw) as unknown;
    return frame && typeof frame === 'object' && typeof (frame as { type?: unknown }).type === 'string'
      ? (frame as ClientMessage)
      : null;
  } catch {
    return null;
  }
}

const queryValue = (query: Record<string, unknown>, key: string): string | null => {
  const value = query[key];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first ? first.replace(/^Bearer\s+/i, '') : null;
};

async function handleFrame(hub: Hub, client: Client, frame: ClientMessage): Promise<void> {
  const { socket, lang } = client;
  const channelOf = (f: { channel?: unknown }) =>
    typeof f.channel === 'string' && f.channel.length > 0 && f.channel.length <= 200 ? f.channel : null;
  switch (frame.type) {
    case 'ping':
      return send(socket, { type: 'pong' });
    case 'subscribe': {
      const channel = channelOf(frame);
      if (!channel) return send(socket, { type: 'error', message: translate(lang, 'ws.badFrame') });
      if (!(await hub.mayJoin(client.user, channel))) {
        return send(socket, { type: 'error', message: translate(lang, 'ws.channelRefused'), channel });
      }
      const again = client.channels.has(channel);
      client.channels.add(channel);
      return send(socket, { type: again ? 'resubscribed' : 'subscribed', channel });
    }
    case 'unsubscribe': {
      const channel = channelOf(frame);
      if (!channel) return send(socket, { type: 'error', message: translate(lang, 'ws.badFrame') });
      client.channels.delete(channel);
      return send(socket, { type: 'unsubscribed', channel });
    }
    case 'message': {
      const channel = channelOf(frame);
      if (!channel) return send(socket, { type: 'error', message: translate(lang, 'ws.badFrame') });
      if (!client.channels.has(channel)) {
        return send(socket, { type: 'error', message: translate(lang, 'ws.notSubscribed'), channel });
      }
      const handler = hub.handlerFor(channel);
      if (!handler)
        return send(socket, { type: 'error', message: translate(lang, 'ws.channelRefused'), channel });
      return handler(client.user, channel, frame.data);
    }
    default:
      return send(socket, { type: 'error', message: translate(lang, 'ws.unknownType') });
  }
}

/**
 * The hub at `/api/ws`: authenticates the query's token and fingerprint on connect
 * (4401 otherwise) through `options.auth`, joins channels by permission, relays bus events to
 * subscribers and closes the sockets of sessions a revocation on the bus names, whichever
 * instance published it. Decorates `app.hub`.
 */
export async function registerHub(app: FastifyInstance, options: HubOptions): Promise<Hub> {
  const hub = new Hub(app, options.auth);
  app.decorate('hub', hub);
  let checking = false;
  const recheck = () => {
    if (checking) return;
    checking = true;
    hub
      .recheck()
      .catch((error: unknown) => app.log.error({ err: error }, 'websocket session recheck failed'))
      .finally(() => (checking = false));
  };
  const unsubscribe = app.bus.subscribe((channel, message) => {
    if (isRevokeMessage(message)) hub.revoke(message);
    else if (channel === RESYNC_CHANNEL) {
      // Back from an outage of the bus: what other instances published meanwhile never arrived.
      // Screens read again, and sessions ended meanwhile elsewhere are closed now, not at the next check.
      const told = hub.resync();
      app.log.info({ sockets: told }, 'bus back: sockets told to resync');
      recheck();
    } else hub.deliver(channel, message);
  });
  const timer = setInterval(recheck, options.recheckMs ?? 60_000);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    unsubscribe();
    hub.close(() => true, 1001, 'server shutting down');
  });

  app.get(
    API_BASE + WS_PATH,
    { websocket: true, schema: { hide: true } },
    (socket: WebSocket, request: FastifyRequest) => {
      const query = (request.query ?? {}) as Record<string, unknown>;
      const lang = requestLanguage(request);
      // Frames that arrive while the session is being checked are handled once it is.
      const early: string[] = [];
      let client: Client | null = null;
      let queue = Promise.resolve();
      const onMessage = (raw: unknown) => {
        const text = String(raw);
        if (!client) {
          early.push(text);
          return;
        }
        const current = client;
        queue = queue.then(async () => {
          const frame = parseFrame(text);
          if (!frame) return send(socket, { type: 'error', message: translate(lang, 'ws.badFrame') });
          try {
            await handleFrame(hub, current, frame);
          } catch (error) {
            hub.log.error({ err: error }, 'websocket frame failed');
            send(socket, { type: 'error', message: translate(lang, 'http.internal') });
          }
        });
      };
      socket.on('message', onMessage);
      socket.on('close', () => client && hub.remove(client));

      const token = queryValue(query, 'Authorization') ?? queryValue(query, 'authorization');
      const fingerprintSession = queryValue(query, HEADERS.fingerprintSession);
      (token ? hub.admit(token, fingerprintSession) : Promise.resolve(null))
        .then((admitted) => {
          if (!admitted || !token) {
            socket.close(WS_CLOSE.unauthorized, translate('en', 'ws.unauthorized'));
            return;
          }
          if ('revoked' in admitted) return socket.close(WS_CLOSE.revoked, admitted.revoked);
          const { user } = admitted;
          if (socket.readyState !== socket.OPEN) return;
          client = { socket, user, lang, channels: new Set(), token, fingerprintSession };
          hub.add(client);
          for (const text of early.splice(0)) onMessage(text);
        })
        .catch((error: unknown) => {
          hub.log.error({ err: error }, 'websocket authentication failed');
          socket.close(1011, 'internal error');
        });
    },
  );
  return hub;
}
