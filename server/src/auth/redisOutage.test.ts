import type WebSocket from 'ws';
import { openSocket } from '../chat/testing';
import { createUserWith } from '../test/fixtures';
import { createTestApp, dialects, type TestApp } from '../test/harness';
import { hasRedisServer, startRedisServer } from '../test/redisServer';

/** Waits until `check` holds (every 50 ms), failing after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const closed = (socket: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );

(hasRedisServer ? describe : describe.skip)('two instances while their Redis is down', () => {
  it.each(dialects())(
    'sign in and count limits per instance, report Redis down, then resync and close revoked sockets (%s)',
    async (dialect) => {
      const redis = await startRedisServer();
      const first: TestApp = await createTestApp({ dialect, env: { REDIS_URL: redis.url } });
      const second: TestApp = await createTestApp({
        env: { REDIS_URL: redis.url, DATABASE_URL: first.config.databaseUrl },
      });
      try {
        const admin = await first.login();
        const member = await createUserWith(first.app, admin.headers, ['courts.view']);
        const ready = await first.app.inject({ method: 'GET', url: '/api/ready' });
        expect([ready.statusCode, ready.json().data]).toEqual([
          200,
          { status: 'ready', checks: { database: 'ok', redis: 'ok', storage: 'ok' }, missing: [] },
        ]);

        const secondBase = (await second.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
        // Two sockets on the second instance: one whose session ends on the first while Redis is down.
        const watcher = await openSocket(secondBase, await second.login());
        const leaving = await first.login(member.email, member.password);
        const doomed = await openSocket(secondBase, leaving);
        const doomedClosed = closed(doomed.socket);

        await redis.stop();
        await until(
          async () => (await first.app.inject({ method: 'GET', url: '/api/ready' })).statusCode === 503,
          5000,
        );
        const down = await first.app.inject({
          method: 'GET',
          url: '/api/ready',
          headers: { 'accept-language': 'en' },
        });
        expect(down.json()).toMatchObject({
          message: 'This server is not ready: redis cannot be reached',
          code: 'unavailable',
          data: {
            status: 'unready',
            checks: { database: 'ok', redis: 'failing', storage: 'ok' },
            missing: ['redis'],
          },
        });
        // Liveness is not readiness: the instance is alive and serves.
        expect((await first.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

        // Sign-in works on both instances (it answered 500 when the limits could not be counted).
        expect((await second.login(member.email, member.password)).token).toBeTruthy();
        // Failures are still limited, counted by each instance alone meanwhile.
        const attempt = (t: TestApp) =>
          t.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            headers: { 'x-fingerprint-session': 'outage', 'accept-language': 'en' },
            remoteAddress: '10.9.9.9',
            payload: { email: member.email, password: 'Wrong-pass-1' },
          });
        for (let i = 0; i < 5; i++) expect((await attempt(first)).statusCode).toBe(401);
        const refused = await attempt(first);
        expect(refused.statusCode).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        // The other instance has its own budget during the outage.
        expect((await attempt(second)).statusCode).toBe(401);

        // Signed out on the first instance: the second does not hear it while the bus is down.
        const out = await first.app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          headers: leaving.headers,
        });
        expect(out.statusCode).toBe(200);
        await new Promise((r) => setTimeout(r, 300));
        expect(doomed.socket.readyState).toBe(doomed.socket.OPEN);

        await redis.start();
        // Back: every socket is told to read again, and the ended session's socket closes at once.
        await watcher.wait((f) => f.type === 'resync', 15_000);
        const ended = await Promise.race([
          doomedClosed,
          new Promise<null>((r) => setTimeout(() => r(null), 5000)),
        ]);
        expect(ended?.code).toBe(4403);
        expect(watcher.socket.readyState).toBe(watcher.socket.OPEN);
        await until(
          async () => (await first.app.inject({ method: 'GET', url: '/api/ready' })).statusCode === 200,
          5000,
        );
        watcher.socket.close();
      } finally {
        await second.close();
        await first.close();
        await redis.stop();
      }
    },
    90_000,
  );
});
