import crypto from 'node:crypto';
import Redis from 'ioredis';
import { createTestApp, type TestApp } from '../test/harness';
import { RateLimiter, createAuthLimiters } from './rateLimit';
import { headers } from './testing/fixtures';

describe(RateLimiter.name, () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('allows up to the limit in a window, then refuses with the seconds left', async () => {
    const sut = new RateLimiter({ limit: 3, windowMs: 60_000 });
    for (let i = 0; i < 3; i++) expect((await sut.hit('ip')).allowed).toBe(true);
    jest.advanceTimersByTime(10_000);
    const refused = await sut.hit('ip');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBe(50);
    expect((await sut.peek('ip')).allowed).toBe(false);
    expect((await sut.hit('other')).allowed).toBe(true);
  });

  it('opens again when the window ends, and reset clears a key', async () => {
    const sut = new RateLimiter({ limit: 1, windowMs: 1000 });
    expect((await sut.hit('k')).allowed).toBe(true);
    jest.advanceTimersByTime(500);
    expect((await sut.hit('k')).allowed).toBe(false);
    jest.advanceTimersByTime(500);
    expect((await sut.hit('k')).allowed).toBe(true);
    expect((await sut.hit('k')).allowed).toBe(false);
    await sut.reset('k');
    expect(await sut.peek('k')).toEqual({ allowed: true, retryAfter: 0, remaining: 1 });
  });

  it('peek does not count', async () => {
    const sut = new RateLimiter({ limit: 1, windowMs: 1000 });
    for (let i = 0; i < 5; i++) expect((await sut.peek('k')).allowed).toBe(true);
    expect((await sut.hit('k')).allowed).toBe(true);
  });

  it('stays bounded under a flood of distinct keys', async () => {
    const sut = new RateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 100 });
    for (let i = 0; i < 1000; i++) await sut.hit(`k${i}`);
    expect(sut.windows.size).toBeLessThanOrEqual(100);
  });

  it('reads limits from the environment', async () => {
    const limiters = createAuthLimiters({ MIZAN_LOGIN_LIMIT_PER_IP: '2' });
    expect((await limiters.loginIp.hit('a')).allowed).toBe(true);
    expect((await limiters.loginIp.hit('a')).allowed).toBe(true);
    expect((await limiters.loginIp.hit('a')).allowed).toBe(false);
    expect((await createAuthLimiters({ MIZAN_LOGIN_LIMIT_PER_IP: 'x' }).loginIp.peek('a')).remaining).toBe(
      10,
    );
  });
});

/** A Redis server for the shared-budget test: 127.0.0.1:6379 unless `MIZAN_TEST_REDIS_URL` says otherwise. */
const REDIS_URL = process.env.MIZAN_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('sign-in limits shared by two instances through Redis', () => {
  const apps: TestApp[] = [];
  // A namespace of this run's own: other runs on the same Redis count elsewhere.
  const prefix = `mizan-test:${crypto.randomBytes(6).toString('hex')}:`;

  const saved = { ...process.env };

  beforeAll(async () => {
    // The limiters read their settings from the process environment (as e2e servers set them).
    Object.assign(process.env, { MIZAN_RATE_LIMIT_PREFIX: prefix, MIZAN_LOGIN_LIMIT_PER_IP: '4' });
    for (let i = 0; i < 2; i++) apps.push(await createTestApp({ env: { REDIS_URL } }));
  });
  afterAll(() => {
    for (const key of ['MIZAN_RATE_LIMIT_PREFIX', 'MIZAN_LOGIN_LIMIT_PER_IP'])
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
  });
  afterAll(async () => {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await Promise.all(apps.map((t) => t.close()));
  });

  const login = (t: TestApp, identifier: string, password: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: ip,
      headers: headers(),
      payload: { email: identifier, password },
    });

  it('counts attempts from one IP on both instances against one budget', async () => {
    // Two attempts on each instance: four, the limit.
    for (const t of [...apps, ...apps])
      expect((await login(t, 'nobody@law.test', 'Wrong-pass-1', '10.7.7.7')).statusCode).toBe(401);
    // The fifth is refused on either, with the usual message and Retry-After.
    for (const t of apps) {
      const refused = await login(t, 'nobody@law.test', 'Wrong-pass-1', '10.7.7.7');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(/^Too many attempts, please try again in \d+ seconds$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await login(apps[1]!, 'nobody@law.test', 'Wrong-pass-1', '10.7.7.8')).statusCode).toBe(401);
  });

  it('locks an account after failures spread over both instances, and a success clears them', async () => {
    const { email, password } = { email: 'admin@mizan.test', password: 'Admin-pass-2026' };
    // Four failures on one instance, a success on the other clears the account's count ...
    for (let i = 0; i < 4; i++)
      expect((await login(apps[0]!, email, 'Wrong-pass-1', `10.8.0.${i}`)).statusCode).toBe(401);
    expect((await login(apps[1]!, email, password, '10.8.1.1')).statusCode).toBe(200);
    // ... then five failures, alternating instances, lock it on both.
    for (let i = 0; i < 5; i++)
      expect((await login(apps[i % 2]!, email, 'Wrong-pass-1', `10.8.2.${i}`)).statusCode).toBe(401);
    for (const t of apps) expect((await login(t, email, password, '10.8.3.1')).statusCode).toBe(429);
  });
});
