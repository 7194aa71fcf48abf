import type { ServerMessage } from '@mizan/contracts';
import { RedisBus } from './redis';

export type BusHandler = (channel: string, message: ServerMessage) => void;

/**
 * Carries real-time messages from writers (engine, chat, system) to the WebSocket hub.
 * In-process by default; a Redis pub/sub implementation of the same interface lets several server
 * instances share channels (DESIGN §5).
 *
 * @example
 * app.bus.publish('courts', { type: 'event', channel: 'courts', action: 'create', data: row });
 */
export interface Bus {
  publish(channel: string, message: ServerMessage): void;
  /** Returns the function that removes the handler. */
  subscribe(handler: BusHandler): () => void;
  close(): Promise<void>;
}

/** Delivers to handlers of this process only. A failing handler never stops the others. */
export class InProcessBus implements Bus {
  private readonly handlers = new Set<BusHandler>();

  publish(channel: string, message: ServerMessage): void {
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

  constructor(private readonly onHandlerError: (error: unknown) => void = () => undefined) {}
}

/** The bus for this configuration: Redis pub/sub when `REDIS_URL` is set, else in-process. */
export async function createBus(redisUrl: string | null, onError?: (error: unknown) => void): Promise<Bus> {
  if (!redisUrl) return new InProcessBus(onError);
  const bus = new RedisBus(redisUrl, onError);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      bus.ready,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis at REDIS_URL did not answer within 10 s`)), 10_000);
      }),
    ]);
  } catch (error) {
    await bus.close();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return bus;
}
