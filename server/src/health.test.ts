import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { ReadinessAnswer } from '@mizan/contracts';
import { backupsDir } from './metrics';
import { createTestApp, dialects, type TestApp } from './test/harness';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

const TOKEN = 'metrics-token-of-the-test-0123456789';

describe.each(dialects())('readiness and metrics on %s', (dialect) => {
  let t: TestApp;
  let redis: ChildProcess;
  let redisPort: number;

  beforeAll(async () => {
    redisPort = await freePort();
    redis = spawn('redis-server', ['--port', String(redisPort), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await waitForPort(redisPort);
    t = await createTestApp({
      dialect,
      env: {
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        MIZAN_METRICS_TOKEN: TOKEN,
        // What is checked here is each check's answer, not its speed on a machine busy with the
        // other test files (the 2 s default was missed there once).
        MIZAN_READY_TIMEOUT_MS: '20000',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    redis.kill();
  });

  it('is ready while the database, Redis and the files storage answer; alive says only that', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.json().data).toEqual<ReadinessAnswer>({
      status: 'ready',
      checks: { database: 'ok', redis: 'ok', storage: 'ok' },
      missing: [],
    });
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({
      data: { status: 'ok' },
    });
  });

  it('counts requests per route pattern, the event loop, sockets, jobs, the pool and the newest backup', async () => {
    fs.mkdirSync(backupsDir(t.config.dataDir), { recursive: true });
    const archive = path.join(backupsDir(t.config.dataDir), 'mizan-old.tar.gz');
    fs.writeFileSync(archive, 'x');
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(archive, hourAgo, hourAgo);
    await t.app.scheduler.tick();
    await t.app.inject({ method: 'GET', url: '/api/files/12345' });

    expect((await t.app.inject({ method: 'GET', url: '/api/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { authorization: 'Bearer not-the-token-at-all' },
    });
    expect(wrong.statusCode).toBe(401);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    // The route's pattern, not the URL with its id.
    expect(text).toMatch(
      /mizan_http_request_duration_seconds_count\{method="GET",route="\/api\/files\/:id",status="401"\} 1/,
    );
    expect(text).not.toContain('12345');
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^mizan_websocket_connections 0$/m);
    expect(text).toMatch(/^mizan_job_next_run_timestamp_seconds\{job="[^"]+"\} \d+/m);
    expect(text).toMatch(/^mizan_job_failing\{job="[^"]+"\} 0$/m);
    const age = Number(/^mizan_backup_age_seconds (\S+)$/m.exec(text)?.[1]);
    expect(age).toBeGreaterThanOrEqual(3600);
    expect(age).toBeLessThan(3700);
    if (dialect === 'postgres') expect(text).toMatch(/^mizan_db_pool_connections\{state="total"\} [1-9]/m);
  });

  it('answers 503 naming what is missing, in the request language, when storage or Redis is gone', async () => {
    const files = path.join(t.config.dataDir, 'files');
    fs.renameSync(files, `${files}.away`);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        code: 'unavailable',
        message: 'الخادم غير جاهز: تعذّر الوصول إلى storage',
        data: { status: 'unready', missing: ['storage'], checks: { database: 'ok', storage: 'failing' } },
      });
    } finally {
      fs.renameSync(`${files}.away`, files);
    }

    redis.kill();
    await new Promise((r) => redis.once('exit', r));
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/ready',
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe('This server is not ready: redis cannot be reached');
    expect(res.json().data.missing).toEqual(['redis']);
    expect(['failing', 'timeout']).toContain(res.json().data.checks.redis);
    // Alive all the same: the process is not to be restarted for it.
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    // Redis back: ready again, without a restart.
    redis = spawn('redis-server', ['--port', String(redisPort), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await waitForPort(redisPort);
    let again = 503;
    for (let i = 0; i < 100 && again !== 200; i++) {
      again = (await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode;
      if (again !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(again).toBe(200);
  });
});

describe('metrics on a port of their own', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('serves /metrics on MIZAN_METRICS_PORT and nothing at /api/metrics', async () => {
    const port = await freePort();
    t = await createTestApp({ env: { MIZAN_METRICS_PORT: String(port) } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('mizan_http_request_duration_seconds');
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/metrics' })).statusCode).toBe(404);
  });
});
