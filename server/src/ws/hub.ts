import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import {
  AREA_PERMISSIONS,
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
import { authenticateSocket } from '../auth';
import { requestLanguage, translate, type Lang } from '../http/messages';

/**
 * Decides whether `user` may join `channel`: true/false, or undefined to leave it to the next guard.
 * Chat registers one for `chats:room:*` membership.
 */
export type ChannelGuard = (
  user: AuthUser,
  channel: string,
) => boolean | undefined | Promise<boolean | undefined>;

/** Handles a client `message` frame on a channel the socket has joined (chat). */
export type MessageHandler = (user: AuthUser, channel: string, data: unknown) => void | Promise<void>;

const CHAT_ROOM = /^chats:room:\d+$/;
const guards: ChannelGuard[] = [];
const messageHandlers = new Map<string, MessageHandler>();

/**
 * Adds a guard consulted before the built-in rules (entity channel: `<channel>.view`; chat room:
 * `chat.use`; system settings: any signed-in user).
 *
 * @example
 * registerChannelGuard(async (user, channel) => channel.startsWith('chats:room:') ? isMember(user.id, channel) : undefined);
 */
export function registerChannelGuard(guard: ChannelGuard): () => void {
  guards.unshift(guard);
  return () => void guards.splice(guards.indexOf(guard), 1);
}

/** Handles `message` frames on channels starting with `prefix` (e.g. `chats:room:`). */
export function registerMessageHandler(prefix: string, handler: MessageHandler): () => void {
  messageHandlers.set(prefix, handler);
  return () => void messageHandlers.delete(prefix);
}

async function mayJoin(user: AuthUser, channel: string): Promise<boolean> {
  for (const guard of guards) {
    const verdict = await guard(user, channel);
    if (verdict !== undefined) return verdict;
  }
  if (channel === SYSTEM_SETTINGS_CHANNEL) return true;
  if (CHAT_ROOM.test(channel)) return user.permissions.has(AREA_PERMISSIONS.chatUse);
  const entity = findEntity(channel);
  return entity ? user.permissions.has(permissionKey(entity, 'view')) : false;
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

/** Every live hub (one per app; tests run several), so revocation reaches every socket. */
const hubs = new Set<Hub>();

export class Hub {
  private readonly clients = new Set<Client>();

  constructor(private readonly app: FastifyInstance) {}

  add(client: Client): void {
    this.clients.add(client);
  }

  remove(client: Client): void {
    this.clients.delete(client);
  }

  deliver(channel: string, message: ServerMessage): void {
    const text = JSON.stringify(message);
    for (const client of this.clients) {
      if (client.channels.has(channel) && client.socket.readyState === client.socket.OPEN)
        client.socket.send(text);
    }
  }

  close(predicate: (client: Client) => boolean, code: number, reason: string): number {
    let closed = 0;
    for (const client of [...this.clients]) {
      if (!predicate(client)) continue;
      client.socket.close(code, reason);
      this.clients.delete(client);
      closed++;
    }
    return closed;
  }

  get size(): number {
    return this.clients.size;
  }

  /**
   * Checks every socket's session again: a signed-out, expired or revoked session is closed
   * (4403); changed permissions apply, and channels no longer allowed are left.
   */
  async recheck(): Promise<void> {
    for (const client of [...this.clients]) {
      const user = await authenticateSocket(this.app.db, client.token, client.fingerprintSession);
      if (!user) {
        this.close((c) => c === client, WS_CLOSE.revoked, 'session ended');
        continue;
      }
      client.user = user;
      for (const channel of [...client.channels]) {
        if (await mayJoin(user, channel)) continue;
        client.channels.delete(channel);
        send(client.socket, { type: 'unsubscribed', channel });
      }
    }
  }

  get log() {
    return this.app.log;
  }
}

/** Closes (4403) every socket opened with this session, e.g. on sign-out. Returns how many. */
export function disconnectSession(sessionId: number): number {
  let closed = 0;
  for (const hub of hubs)
    closed += hub.close((c) => c.user.sessionId === sessionId, WS_CLOSE.revoked, 'session revoked');
  return closed;
}

/** Closes (4403) every socket of an employee, e.g. when banned or deactivated. Returns how many. */
export function disconnectEmployee(employeeId: number): number {
  let closed = 0;
  for (const hub of hubs)
    closed += hub.close((c) => c.user.id === employeeId, WS_CLOSE.revoked, 'employee revoked');
  return closed;
}

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
      if (!(await mayJoin(client.user, channel))) {
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
      const handler = [...messageHandlers.entries()].find(([prefix]) => channel.startsWith(prefix))?.[1];
      if (!handler)
        return send(socket, { type: 'error', message: translate(lang, 'ws.channelRefused'), channel });
      return handler(client.user, channel, frame.data);
    }
    default:
      return send(socket, { type: 'error', message: translate(lang, 'ws.unknownType') });
  }
}

/**
 * The hub at `/api/ws` (DESIGN §4): authenticates the query's token and fingerprint on connect
 * (4401 otherwise), joins channels by permission and relays bus events to subscribers.
 */
export async function registerHub(app: FastifyInstance, options: { recheckMs?: number } = {}): Promise<Hub> {
  const hub = new Hub(app);
  hubs.add(hub);
  const unsubscribe = app.bus.subscribe((channel, message) => hub.deliver(channel, message));
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    hub
      .recheck()
      .catch((error: unknown) => app.log.error({ err: error }, 'websocket session recheck failed'))
      .finally(() => (checking = false));
  }, options.recheckMs ?? 60_000);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    unsubscribe();
    hub.close(() => true, 1001, 'server shutting down');
    hubs.delete(hub);
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
      authenticateSocket(app.db, token, fingerprintSession)
        .then((user) => {
          if (!user || !token) {
            socket.close(WS_CLOSE.unauthorized, translate('en', 'ws.unauthorized'));
            return;
          }
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
