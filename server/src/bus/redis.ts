import crypto from 'node:crypto';
import Redis from 'ioredis';
import { RESYNC_CHANNEL } from './channels';
import type { Bus, BusHandler, BusLog, BusMessage } from './index';

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
 * ignores its own messages coming back. When the link to Redis breaks, messages still reach this
 * instance's handlers; when it comes back, the handlers hear `resync` on `RESYNC_CHANNEL` (what the
 * other instances published meanwhile is lost, and must be read again).
 */
export class RedisBus implements Bus {
  private readonly handlers = new Set<BusHandler>();
  private readonly origin = crypto.randomBytes(8).toString('hex');
  private readonly pub: Redis;
  private readonly sub: Redis;
  /** Resolves once the subscription is active (tests; start-up waits for it). */
  readonly ready: Promise<void>;
  /** Subscribed and able to publish. */
  private linked = false;
  /** The link broke (or never came up) since it was last up: its return means a resync. */
  private broken = false;
  private readonly onError: (error: unknown) => void;

  constructor(
    url: string,
    private readonly log?: BusLog,
  ) {
    this.onError = (error) => log?.error({ err: error }, 'bus error');
    // No queue while disconnected: a message Redis cannot take now is dropped at once (the others
    // resync when the link returns) rather than held and retried.
    this.pub = new Redis(url, { lazyConnect: false, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.sub = new Redis(url, { lazyConnect: false });
    // Connection errors repeat at every reconnection attempt: the outage is logged once, below.
    this.pub.on('error', () => undefined);
    this.sub.on('error', () => undefined);
    this.sub.on('message', (_channel: string, raw: string) => this.receive(raw));
    this.sub.on('close', () => this.lost());
    this.pub.on('close', () => this.lost());
    this.sub.on('ready', () => this.relinked());
    this.pub.on('ready', () => this.relinked());
    const published = new Promise<void>((resolve) => this.pub.once('ready', () => resolve()));
    this.ready = Promise.all([this.sub.subscribe(REDIS_BUS_CHANNEL), published]).then(() => {
      this.relinked();
    });
  }

  up(): boolean {
    return this.linked;
  }

  private closing = false;

  private lost(): void {
    if (this.closing || (!this.linked && this.broken)) return;
    this.linked = false;
    this.broken = true;
    this.log?.warn({}, 'bus: Redis unreachable, real-time messages stay on this instance until it returns');
  }

  /** Both connections ready (the subscriber resubscribes itself): tell the handlers to resync. */
  private relinked(): void {
    if (this.linked || this.pub.status !== 'ready' || this.sub.status !== 'ready') return;
    this.linked = true;
    if (!this.broken) return;
    this.broken = false;
    this.log?.info({}, 'bus: Redis reachable again, open screens resync');
    this.deliver(RESYNC_CHANNEL, { type: 'resync' });
  }

  publish(channel: string, message: BusMessage): void {
    this.deliver(channel, message);
    if (!this.linked) return;
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
    this.closing = true;
    this.linked = false;
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
