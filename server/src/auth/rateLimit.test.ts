import { RateLimiter, createAuthLimiters } from './rateLimit';

describe(RateLimiter.name, () => {
  it('allows up to the limit in a window, then refuses with the seconds left', () => {
    const sut = new RateLimiter({ limit: 3, windowMs: 60_000 });
    const t0 = 1_000_000;
    expect([0, 1, 2].map((i) => sut.hit('ip', t0 + i).allowed)).toEqual([true, true, true]);
    const refused = sut.hit('ip', t0 + 10_000);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBe(50);
    expect(sut.peek('ip', t0 + 10_000).allowed).toBe(false);
    expect(sut.hit('other', t0).allowed).toBe(true);
  });

  it('opens again when the window ends, and reset clears a key', () => {
    const sut = new RateLimiter({ limit: 1, windowMs: 1000 });
    expect(sut.hit('k', 0).allowed).toBe(true);
    expect(sut.hit('k', 500).allowed).toBe(false);
    expect(sut.hit('k', 1000).allowed).toBe(true);
    expect(sut.hit('k', 1001).allowed).toBe(false);
    sut.reset('k');
    expect(sut.peek('k', 1002)).toEqual({ allowed: true, retryAfter: 0, remaining: 1 });
  });

  it('peek does not count', () => {
    const sut = new RateLimiter({ limit: 1, windowMs: 1000 });
    for (let i = 0; i < 5; i++) expect(sut.peek('k', 0).allowed).toBe(true);
    expect(sut.hit('k', 0).allowed).toBe(true);
  });

  it('stays bounded under a flood of distinct keys', () => {
    const sut = new RateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 100 });
    for (let i = 0; i < 1000; i++) sut.hit(`k${i}`, 0);
    expect((sut as unknown as { windows: Map<string, unknown> }).windows.size).toBeLessThanOrEqual(100);
  });

  it('reads limits from the environment', () => {
    const limiters = createAuthLimiters({ MIZAN_LOGIN_LIMIT_PER_IP: '2' });
    expect(limiters.loginIp.hit('a').allowed).toBe(true);
    expect(limiters.loginIp.hit('a').allowed).toBe(true);
    expect(limiters.loginIp.hit('a').allowed).toBe(false);
    expect(createAuthLimiters({ MIZAN_LOGIN_LIMIT_PER_IP: 'x' }).loginIp.peek('a').remaining).toBe(10);
  });
});
