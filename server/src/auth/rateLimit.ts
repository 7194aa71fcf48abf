/**
 * Fixed-window counters kept in memory, one limiter per purpose (login per IP, login failures per
 * account, ...). Per process: with several server instances each one counts on its own, which still
 * bounds guessing to N times the limit.
 */
export interface RateLimitOptions {
  limit: number;
  windowMs: number;
  /** Entries kept before expired ones are swept (memory bound). */
  maxKeys?: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window reopens (at least 1 when refused). */
  retryAfter: number;
  remaining: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly options: RateLimitOptions) {}

  /** The state for `key` without counting. */
  peek(key: string, now = Date.now()): RateDecision {
    const entry = this.windows.get(key);
    if (!entry || entry.resetAt <= now)
      return { allowed: true, retryAfter: 0, remaining: this.options.limit };
    const remaining = Math.max(0, this.options.limit - entry.count);
    return {
      allowed: remaining > 0,
      retryAfter: remaining > 0 ? 0 : Math.max(1, Math.ceil((entry.resetAt - now) / 1000)),
      remaining,
    };
  }

  /** Counts one event for `key` and says whether it is within the limit. */
  hit(key: string, now = Date.now()): RateDecision {
    let entry = this.windows.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.windows.size >= (this.options.maxKeys ?? 50_000)) this.sweep(now);
      entry = { count: 0, resetAt: now + this.options.windowMs };
      this.windows.set(key, entry);
    }
    entry.count += 1;
    const allowed = entry.count <= this.options.limit;
    return {
      allowed,
      retryAfter: allowed ? 0 : Math.max(1, Math.ceil((entry.resetAt - now) / 1000)),
      remaining: Math.max(0, this.options.limit - entry.count),
    };
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.windows) if (entry.resetAt <= now) this.windows.delete(key);
    // Still full of live windows (a flood of distinct keys): drop the oldest rather than grow.
    const excess = this.windows.size - Math.floor((this.options.maxKeys ?? 50_000) / 2);
    if (excess > 0) {
      let dropped = 0;
      for (const key of this.windows.keys()) {
        if (dropped++ >= excess) break;
        this.windows.delete(key);
      }
    }
  }
}

function envInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** The limiters of the auth routes; limits can be raised through the environment (e2e suites). */
export function createAuthLimiters(env: NodeJS.ProcessEnv = process.env) {
  const minute = 60_000;
  return {
    /** Every login attempt from one IP: 10 per minute. */
    loginIp: new RateLimiter({ limit: envInt(env.MIZAN_LOGIN_LIMIT_PER_IP, 10), windowMs: minute }),
    /** Failed logins on one account: 5 per 15 minutes, then the account waits (from every IP). */
    loginAccount: new RateLimiter({
      limit: envInt(env.MIZAN_LOGIN_FAILURES_PER_ACCOUNT, 5),
      windowMs: 15 * minute,
    }),
    /** Reset requests: 5 per 15 minutes per IP, 3 per 15 minutes per email. */
    forgotIp: new RateLimiter({ limit: 5, windowMs: 15 * minute }),
    forgotEmail: new RateLimiter({ limit: 3, windowMs: 15 * minute }),
    /** Code and token checks: 10 per minute per IP (each reset also allows only 5 wrong codes). */
    verifyIp: new RateLimiter({ limit: 10, windowMs: minute }),
  };
}

export type AuthLimiters = ReturnType<typeof createAuthLimiters>;
