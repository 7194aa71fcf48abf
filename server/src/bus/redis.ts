import crypto from 'node:crypto';
import Redis from 'ioredis';
import type { Bus, BusHandler, BusMessage } from './index';

/** The one Redis channel every instance publishes to; the Mizan channel travels inside. */
export const REDIS_BUS_CHANNEL = 'mizan:bus';

interface Envelope {
  origin: string;
  channel: string;
  message: BusMessage;
}

/**
 * Redis pub/sub between server instances behind a load balancer. A message is
 * delivered to this instance's handlers at once and to the others through Redis; each instance
 * ignores its own messages coming back.
 */
export class RedisBus implements Bus {
  private readonly handlers = new Set<BusHandler>();
  private readonly origin = crypto.randomBytes(8).toString('hex');
  private readonly pub: Redis;
  private readonly sub: Redis;
  /** Resolves once the subscription is active (tests; start-up waits for it). */
  readonly ready: Promise<void>;

  constructor(
    url: string,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.pub = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
    this.sub = new Redis(url, { lazyConnect: false });
    this.pub.on('error', onError);
    this.sub.on('error', onError);
    this.sub.on('message', (_channel: string, raw: string) => this.receive(raw));
    this.ready = this.sub.subscribe(REDIS_BUS_CHANNEL).then(() => undefined);
  }

  publish(channel: string, message: BusMessage): void {
    this.deliver(channel, message);
    const envelope: Envelope = { origin: this.origin, channel, message };
    this.pub.publish(REDIS_BUS_CHANNEL, JSON.stringify(envelope)).catch(this.onError);
  }

  subscribe(handler: BusHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.pub.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.allSettled([this.sub.quit(), this.pub.quit()]);
  }

  private receive(raw: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(raw) as Envelope;
    } catch (error) {
      this.onError(error);
      return;
    }
    if (envelope.origin !== this.origin) this.deliver(envelope.channel, envelope.message);
  }

  private deliver(channel: string, message: BusMessage): void {
    for (const handler of [...this.handlers]) {
      try {
        handler(channel, message);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
