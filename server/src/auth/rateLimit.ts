import LocalStore from '@fastify/rate-limit/store/LocalStore';
import RedisStore from '@fastify/rate-limit/store/RedisStore';
import type Redis from 'ioredis';

/**
 * Fixed-window counters of the auth routes, one limiter per purpose (login per IP, login failures
 * per account, ...), counted by @fastify/rate-limit's stores: in memory (one budget per process)
 * or, when `REDIS_URL` is set, in Redis (an atomic INCR + PEXPIRE script), so every instance
 * draws on one budget and a guesser gains nothing by spreading attempts over instances.
 * Without Redis at hand they count in the process (see `SharedCounting`).
 * Failures are events rather than requests (a login that failed, a code that was wrong), so the
 * service counts them itself through `hit`, reads them through `peek` and clears them on success.
 */
export interface RateLimitOptions {
  limit: number;
  windowMs: number;
  /** Keys kept in memory (least recently used dropped first); the Redis store expires its own. */
  maxKeys?: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window reopens (at least 1 when refused). */
  retryAfter: number;
  remaining: number;
}

/** The count of a key in its window and the milliseconds left of it (@fastify/rate-limit's stores). */
interface Window {
  current: number;
  ttl: number;
}
type Callback = (error: Error | null, window: Window) => void;
interface Store {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read(key: string, cb: Callback, timeWindow: number, max: number): void;
}

const call = (method: (cb: Callback) => void) =>
  new Promise<Window>((resolve, reject) =>
    method((error, window) => (error ? reject(error) : resolve(window))),
  );

/**
 * The Redis the limiters count in, and what happens when it is unreachable: each limiter counts in
 * its own process meanwhile (one budget per instance: degraded, never refusing sign-in with a 500),
 * with one warning when the outage starts and one line when Redis counts again.
 */
export class SharedCounting {
  private degraded = false;

  constructor(
    readonly client: Redis,
    private readonly log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void },
  ) {}

  /** Whether commands can go to Redis now (without waiting for a reconnection). */
  get available(): boolean {
    return this.client.status === 'ready';
  }

  failed(error: unknown): void {
    if (this.degraded) return;
    this.degraded = true;
    this.log?.warn({ err: error }, 'rate limits counted per instance: Redis unavailable');
  }

  succeeded(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.log?.info({}, 'rate limits counted in Redis again');
  }
}

export class RateLimiter {
  /** This process's counters: the store without Redis, and the fallback while Redis is unreachable. */
  private readonly local: LocalStore;
  private readonly shared?: Store;

  /** `redis` and `namespace` (the key prefix there, one per purpose): a budget shared by instances. */
  constructor(
    private readonly options: RateLimitOptions,
    private readonly redis?: { counting: SharedCounting; namespace: string },
  ) {
    this.local = new LocalStore(false, false, options.maxKeys ?? 50_000);
    if (redis) this.shared = new RedisStore(false, false, redis.counting.client, redis.namespace);
  }

  /** Runs `op` on Redis when it is reachable, else (or when it fails) on this process's counters. */
  private async count(op: (store: Store) => Promise<Window>): Promise<Window> {
    const counting = this.redis?.counting;
    if (this.shared && counting) {
      if (counting.available) {
        try {
          const window = await op(this.shared);
          counting.succeeded();
          return window;
        } catch (error) {
          counting.failed(error);
        }
      } else counting.failed(new Error(`Redis connection ${counting.client.status}`));
    }
    return op(this.local);
  }

  /** The state for `key` without counting. */
  async peek(key: string): Promise<RateDecision> {
    const { windowMs, limit } = this.options;
    const window = await this.count((store) => call((cb) => store.read(key, cb, windowMs, limit)));
    return this.decision(window.current, window.ttl, window.current < limit);
  }

  /** Counts one event for `key` and says whether it is within the limit. */
  async hit(key: string): Promise<RateDecision> {
    const { windowMs, limit } = this.options;
    const window = await this.count((store) => call((cb) => store.incr(key, cb, windowMs, limit)));
    return this.decision(window.current, window.ttl, window.current <= limit);
  }

  async reset(key: string): Promise<void> {
    this.local.lru.delete(key);
    const counting = this.redis?.counting;
    if (!counting?.available) return;
    await counting.client
      .del(`${this.redis!.namespace}${key}`)
      .catch((error: unknown) => counting.failed(error));
  }

  /** The in-memory counters (tests start each case from none). */
  get windows(): { clear(): void; size: number } {
    return this.local.lru;
  }

  private decision(current: number, ttl: number, allowed: boolean): RateDecision {
    return {
      allowed,
      retryAfter: allowed ? 0 : Math.max(1, Math.ceil(ttl / 1000)),
      remaining: Math.max(0, this.options.limit - current),
    };
  }
}

function envInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/**
 * The limiters of the auth routes; limits can be raised through the environment (e2e suites).
 * With `redis`, counted there under `MIZAN_RATE_LIMIT_PREFIX` (default `mizan:rl:`).
 */
export function createAuthLimiters(env: NodeJS.ProcessEnv = process.env, redis?: SharedCounting) {
  const minute = 60_000;
  const prefix = env.MIZAN_RATE_LIMIT_PREFIX || 'mizan:rl:';
  const limiter = (purpose: string, options: RateLimitOptions) =>
    new RateLimiter(options, redis ? { counting: redis, namespace: `${prefix}${purpose}:` } : undefined);
  return {
    /** Every login attempt from one IP: 10 per minute. */
    loginIp: limiter('loginIp', { limit: envInt(env.MIZAN_LOGIN_LIMIT_PER_IP, 10), windowMs: minute }),
    /** Failed logins on one account: 5 per 15 minutes, then the account waits (from every IP). */
    loginAccount: limiter('loginAccount', {
      limit: envInt(env.MIZAN_LOGIN_FAILURES_PER_ACCOUNT, 5),
      windowMs: 15 * minute,
    }),
    /** Reset requests: 5 per 15 minutes per IP, 3 per 15 minutes per email. */
    forgotIp: limiter('forgotIp', { limit: 5, windowMs: 15 * minute }),
    forgotEmail: limiter('forgotEmail', { limit: 3, windowMs: 15 * minute }),
    /** Code and token checks: 10 per minute per IP (each reset also allows only 5 wrong codes). */
    verifyIp: limiter('verifyIp', { limit: 10, windowMs: minute }),
  };
}

export type AuthLimiters = ReturnType<typeof createAuthLimiters>;
