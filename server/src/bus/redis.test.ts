import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import WebSocket from 'ws';
import { createRow, createUserWith, entityUrl } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { AppError } from '../http/errors';
import { RedisBus } from './redis';

/** Redis tests run when a `redis-server` binary is installed (CI and this machine have one). */
const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

(hasRedis ? describe : describe.skip)('Redis bus between server instances', () => {
  let redis: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    redis = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    url = `redis://127.0.0.1:${port}`;
    for (let i = 0; i < 50; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
        socket.setTimeout(200, () => {
          socket.destroy();
          resolve(false);
        });
      });
      if (up) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('redis-server did not start');
  });
  afterAll(() => {
    redis.kill();
  });

  it('delivers at once to local handlers and once to the other instance, never echoing back', async () => {
    const a = new RedisBus(url);
    const b = new RedisBus(url);
    await Promise.all([a.ready, b.ready]);
    const gotA: unknown[] = [];
    const gotB: unknown[] = [];
    a.subscribe((channel, message) => gotA.push({ channel, message }));
    const arrived = new Promise<void>((resolve) =>
      b.subscribe((channel, message) => {
        gotB.push({ channel, message });
        resolve();
      }),
    );
    a.publish('courts', { type: 'event', channel: 'courts', action: 'create', data: { id: 1 } });
    expect(gotA).toHaveLength(1);
    await arrived;
    await new Promise((r) => setTimeout(r, 100));
    expect(gotB).toEqual([
      { channel: 'courts', message: { type: 'event', channel: 'courts', action: 'create', data: { id: 1 } } },
    ]);
    expect(gotA).toHaveLength(1);
    await Promise.all([a.close(), b.close()]);
  });

  it('lets a socket on one instance receive the events of a write on another (shared PostgreSQL or SQLite file)', async () => {
    const first: TestApp = await createTestApp({ env: { REDIS_URL: url } });
    // The second instance serves the same database file, as two processes behind a load balancer would.
    const second: TestApp = await createTestApp({
      env: { REDIS_URL: url, DATABASE_URL: first.config.databaseUrl },
    });
    try {
      const session = await second.login();
      const address = await second.app.listen({ port: 0, host: '127.0.0.1' });
      const query = new URLSearchParams({
        Authorization: session.token,
        'x-fingerprint-session': session.headers['x-fingerprint-session']!,
      });
      const socket = new WebSocket(`${address.replace('http', 'ws')}/api/ws?${query}`);
      const frames: Record<string, unknown>[] = [];
      const next = () =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('no frame arrived')), 5000);
          socket.once('message', (raw) => {
            clearTimeout(timer);
            resolve(JSON.parse(String(raw)));
          });
        });
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(JSON.stringify({ type: 'subscribe', channel: 'courts' }));
      frames.push(await next());
      expect(frames[0]).toEqual({ type: 'subscribed', channel: 'courts' });
      const admin = await first.login();
      const event = next();
      const court = await createRow(first.app, admin.headers, 'courts');
      expect(await event).toEqual({ type: 'event', channel: 'courts', action: 'create', data: court });
      socket.terminate();
    } finally {
      await second.close();
      await first.close();
    }
  });

  // Two instances behind a load balancer: a ban through A must close the employee's socket on B
  // at once, not at B's next periodic recheck (60 s here), and only after A's write committed.
  it.each(dialects())(
    'closes on this instance, within a second, the sockets of a ban, a password reset and a sign-out made on another (%s)',
    async (dialect) => {
      const first: TestApp = await createTestApp({ dialect, env: { REDIS_URL: url } });
      const second: TestApp = await createTestApp({
        env: { REDIS_URL: url, DATABASE_URL: first.config.databaseUrl },
      });
      try {
        const admin = await first.login();
        const address = await second.app.listen({ port: 0, host: '127.0.0.1' });
        /** A socket on the second instance, authenticated (it answered a ping). */
        const openSocket = async (session: Session) => {
          const query = new URLSearchParams({
            Authorization: session.token,
            'x-fingerprint-session': session.headers['x-fingerprint-session']!,
          });
          const ws = new WebSocket(`${address.replace('http', 'ws')}/api/ws?${query}`);
          const closed = new Promise<{ code: number; reason: string; at: number }>((resolve) =>
            ws.once('close', (code, reason) => resolve({ code, reason: String(reason), at: Date.now() })),
          );
          await new Promise((resolve) => ws.once('open', resolve));
          const pong = new Promise((resolve) =>
            ws.once('message', (raw) => resolve(JSON.parse(String(raw)))),
          );
          ws.send(JSON.stringify({ type: 'ping' }));
          expect(await pong).toEqual({ type: 'pong' });
          return { socket: ws, closed };
        };
        const creds = await createUserWith(first.app, admin.headers, ['courts.view']);
        const { socket, closed } = await openSocket(await second.login(creds.email, creds.password));

        // A ban that fails after the people hooks revoked the sessions rolls back and closes nothing.
        const failing = first.app.entities.hooks('employees', {
          afterChange() {
            throw new AppError('conflict');
          },
        });
        const refused = await first.app.inject({
          method: 'PATCH',
          url: `${entityUrl('employees')}/baned/${creds.employeeId}`,
          headers: admin.headers,
          payload: { baned: true },
        });
        failing();
        expect(refused.statusCode).toBe(409);
        await new Promise((r) => setTimeout(r, 300));
        expect(socket.readyState).toBe(WebSocket.OPEN);

        const started = Date.now();
        const ban = await first.app.inject({
          method: 'PATCH',
          url: `${entityUrl('employees')}/baned/${creds.employeeId}`,
          headers: admin.headers,
          payload: { baned: true },
        });
        expect(ban.statusCode).toBe(200);
        const { code, reason, at } = await closed;
        expect({ code, reason }).toEqual({ code: 4403, reason: 'employeeBanned' });
        expect(at - started).toBeLessThan(1000);

        // A temporary password set on the first instance ends the sessions on the second too.
        const other = await createUserWith(first.app, admin.headers, ['courts.view']);
        const reset = await openSocket(await second.login(other.email, other.password));
        const resetAt = Date.now();
        const res = await first.app.inject({
          method: 'PUT',
          url: `${entityUrl('employees')}/resetPassword/${other.employeeId}`,
          headers: admin.headers,
          payload: { password: 'Temporary-pass-2026' },
        });
        expect(res.statusCode).toBe(200);
        const resetClosed = await reset.closed;
        expect(resetClosed.code).toBe(4403);
        expect(resetClosed.at - resetAt).toBeLessThan(1000);

        // Signing out through the first instance closes that session's socket on the second.
        const again = await second.login(other.email, 'Temporary-pass-2026');
        const signedOut = await openSocket(again);
        const out = await first.app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          headers: again.headers,
        });
        expect(out.statusCode).toBe(200);
        expect((await signedOut.closed).reason).toBe('loggedOut');
      } finally {
        await second.close();
        await first.close();
      }
    },
  );
});
