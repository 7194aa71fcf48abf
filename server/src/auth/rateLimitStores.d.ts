// @fastify/rate-limit's stores, which the auth limiters count with (rateLimit.ts); the package
// types only its plugin.
declare module '@fastify/rate-limit/store/LocalStore' {
  type Callback = (error: Error | null, window: { current: number; ttl: number }) => void;
  export default class LocalStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, cache?: number);
    lru: { delete(key: string): void; clear(): void; size: number };
    incr(key: string, cb: Callback, timeWindow: number, max: number): void;
    read(key: string, cb: Callback, timeWindow: number, max: number): void;
  }
}

declare module '@fastify/rate-limit/store/RedisStore' {
  import type Redis from 'ioredis';
  type Callback = (error: Error | null, window: { current: number; ttl: number }) => void;
  export default class RedisStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key?: string);
    incr(key: string, cb: Callback, timeWindow: number, max: number): void;
    read(key: string, cb: Callback, timeWindow: number, max: number): void;
  }
}
