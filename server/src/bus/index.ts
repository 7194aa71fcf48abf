import type { ServerMessage } from '@mizan/contracts';

/**
 * Sessions that ended (sign-out, ban, deactivation, password reset): every instance's WebSocket
 * hub closes their sockets (4403). Server-internal, on its own channel: never sent to a browser.
 */
export interface RevokeMessage {
  type: 'revoke';
  /** Every session of these employees. */
  employeeIds?: number[];
  /** These sessions only (a sign-out; a password change ending the other sessions). */
  sessionIds?: number[];
  /** Why, as the close frame's reason: an auth message key such as `employeeBanned`. */
  reason?: string;
}

/** The channel of `RevokeMessage`s; no client can join it (not an entity, no guard grants it). */
export const REVOKE_CHANNEL = 'mizan:revoke';

export type BusMessage = ServerMessage | RevokeMessage;

export type BusHandler = (channel: string, message: BusMessage) => void;

/**
 * The bus message ending these sessions. Publish it after the revoking write commits (push it to
 * the unit of work's events), so no socket closes for a write that rolls back.
 *
 * @example
 * ctx.work.events.push(revocation({ employeeIds: [id], reason: 'employeeBanned' }));
 */
export function revocation(target: Omit<RevokeMessage, 'type'>): { channel: string; message: RevokeMessage } {
  return { channel: REVOKE_CHANNEL, message: { type: 'revoke', ...target } };
}

export const isRevokeMessage = (message: BusMessage): message is RevokeMessage => message.type === 'revoke';

export { RESYNC_CHANNEL } from './channels';

/**
 * Carries real-time messages from writers (engine, chat, system) to the WebSocket hub.
 * In-process by default; a Redis pub/sub implementation of the same interface lets several server
 * instances share channels.
 *
 * @example
 * app.bus.publish('courts', { type: 'event', channel: 'courts', action: 'create', data: row });
 */
export interface Bus {
  publish(channel: string, message: BusMessage): void;
  /** Returns the function that removes the handler. */
  subscribe(handler: BusHandler): () => void;
  close(): Promise<void>;
  /** Whether the bus's server (Redis) answers; absent for the in-process bus, which needs none. */
  ping?(): Promise<boolean>;
  /** Whether messages reach the other instances now (always true in-process). */
  up(): boolean;
}

/** Delivers to handlers of this process only. A failing handler never stops the others. */
export class InProcessBus implements Bus {
  private readonly handlers = new Set<BusHandler>();

  publish(channel: string, message: BusMessage): void {
    for (const handler of [...this.handlers]) {
      try {
        handler(channel, message);
      } catch (error) {
        this.onHandlerError(error);
      }
    }
  }

  subscribe(handler: BusHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }

  up(): boolean {
    return true;
  }

  constructor(private readonly onHandlerError: (error: unknown) => void = () => undefined) {}
}

export interface BusLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * The bus for this configuration: Redis pub/sub when `REDIS_URL` is set, else in-process. A Redis
 * that does not answer within `waitMs` does not stop the start: the instance serves on its own
 * (a warning), `/api/ready` says Redis is down, and the bus joins the others when Redis answers.
 */
export async function createBus(redisUrl: string | null, log?: BusLog, waitMs = 10_000): Promise<Bus> {
  const onError = (error: unknown) => log?.error({ err: error }, 'bus error');
  if (!redisUrl) return new InProcessBus(onError);
  // ioredis is loaded only where a Redis is configured.
  const { RedisBus } = await import('./redis.js');
  const bus = new RedisBus(redisUrl, log);
  let timer: NodeJS.Timeout | undefined;
  const answered = await Promise.race([
    bus.ready.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), waitMs);
    }),
  ]).finally(() => clearTimeout(timer));
  if (!answered)
    log?.warn(
      {},
      `Redis at REDIS_URL did not answer within ${waitMs / 1000} s: serving without other instances`,
    );
  return bus;
}
