import fs from 'node:fs';
import path from 'node:path';
import { registry } from '@mizan/contracts';
import { createTestApp, dialects, type TestApp } from './test/harness';

const today = () => new Date().toISOString().slice(0, 10);
const lines = (file: string) =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];

describe.each(dialects())('the app on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(() => t.close());

  it('documents every engine route in OpenAPI from the contracts schemas, browsable at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const entity of registry) {
      const base = `/api${entity.path}`;
      expect(Object.keys(doc.paths[base] ?? {})).toEqual(expect.arrayContaining(['get', 'post', 'put']));
      expect(doc.paths[`${base}/{id}`]).toHaveProperty('delete');
    }
    const courts = doc.paths['/api/admin/settings/courts/courts'];
    expect(courts.post.requestBody.content['application/json'].schema.properties.courtType.enum).toContain(
      'criminal',
    );
    expect(courts.get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['page', 'pageSize', 'sort', 'q']),
    );
    const { headers } = await t.login();
    const slash = await t.app.inject({ method: 'GET', url: '/api/admin/settings/courts/courts/', headers });
    expect(slash.statusCode).toBe(200);
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });

  it('writes one JSON line per request to the daily combined log, failures also to the error log', async () => {
    const dir = path.join(t.config.dataDir, 'logs');
    await t.app.inject({ method: 'GET', url: '/api/health?probe=1' });
    const combined = lines(path.join(dir, `${today()}-combined.log`));
    expect(combined.find((l) => l.url === '/api/health?probe=1')).toEqual({
      level: 30,
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      pid: process.pid,
      hostname: expect.any(String),
      reqId: expect.any(String),
      method: 'GET',
      url: '/api/health?probe=1',
      route: '/api/health',
      statusCode: 200,
      responseTime: expect.any(Number),
      msg: 'request completed',
    });

    // A table gone from under the engine: an internal error, logged with its stack, answered generically.
    const { headers } = await t.login();
    // Renamed rather than dropped: other tables' foreign keys point at it on PostgreSQL.
    await t.app.db.schema.alterTable('customer_types').renameTo('customer_types_gone').execute();
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/customers/settings/types',
      headers: { ...headers, 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Server error, please try later', code: 'internal' });
    const errors = lines(path.join(dir, `${today()}-error.log`));
    const failed = errors.find((l) => l.url === '/api/admin/customers/settings/types');
    expect(failed).toMatchObject({
      level: 50,
      statusCode: 500,
      route: '/api/admin/customers/settings/types',
      err: { type: expect.any(String), message: expect.any(String), stack: expect.any(String) },
    });
    expect(errors.every((l) => (l.level as number) >= 50)).toBe(true);
  });

  it('answers 503 from /api/health when the database does not answer', async () => {
    const other = await createTestApp({ dialect });
    try {
      await other.app.db.destroy();
      const res = await other.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'accept-language': 'en' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: 'Connection problem, please try later', code: 'unavailable' });
    } finally {
      await other.close().catch(() => undefined);
    }
  });
});

describe('static serving', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'mizan-static-'));
    fs.mkdirSync(path.join(root, 'host', 'dist'), { recursive: true });
    fs.writeFileSync(path.join(root, 'host', 'dist', 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(root, 'host', 'dist', 'main.js'), 'console.log(1)');
    fs.mkdirSync(path.join(root, 'remotes', 'settings', 'dist'), { recursive: true });
    fs.writeFileSync(path.join(root, 'remotes', 'settings', 'dist', 'mf-manifest.json'), '{"id":"settings"}');
    fs.writeFileSync(path.join(root, 'remotes', 'settings', 'dist', 'remoteEntry.js'), 'var x');
    t = await createTestApp({
      env: {
        MIZAN_STATIC_DIR: root,
        MIZAN_REMOTES: JSON.stringify({ settings: 'https://cdn.example/settings/mf-manifest.json' }),
      },
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('serves the host with SPA fallback, never cached for the entry page', async () => {
    for (const url of ['/', '/admin/settings/places/continents', '/login?redirect=%2Fadmin']) {
      const res = await get(url);
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
    const script = await get('/main.js');
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe('console.log(1)');
    expect((await get('/missing.js')).statusCode).toBe(404);
  });

  it('serves each remote under /remotes/<name>/ and the deploy-time remotes.json, manifests never cached', async () => {
    const manifest = await get('/remotes/settings/mf-manifest.json');
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect((await get('/remotes/settings/remoteEntry.js')).body).toBe('var x');
    expect((await get('/remotes/legal/mf-manifest.json')).statusCode).toBe(404);
    const remotes = await get('/remotes.json');
    expect(remotes.headers['cache-control']).toBe('no-cache');
    expect(remotes.json()).toEqual({ settings: 'https://cdn.example/settings/mf-manifest.json' });
  });

  it('keeps unknown /api paths as JSON 404 in the request language', async () => {
    const res = await get('/api/nothing/here', { 'accept-language': 'en' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'The page does not exist', code: 'notFound' });
    const ar = await get('/api/nothing/here');
    expect(ar.json().message).toBe('الصفحة غير موجودة');
  });
});

describe('API-only server (no builds)', () => {
  it('starts without host or remote builds and lists the local remotes in remotes.json', async () => {
    const t = await createTestApp();
    try {
      const remotes = await t.app.inject({ method: 'GET', url: '/remotes.json' });
      expect(remotes.json()).toEqual({
        settings: '/remotes/settings/mf-manifest.json',
        clients: '/remotes/clients/mf-manifest.json',
        legal: '/remotes/legal/mf-manifest.json',
        tasks: '/remotes/tasks/mf-manifest.json',
        chat: '/remotes/chat/mf-manifest.json',
      });
      expect((await t.app.inject({ method: 'GET', url: '/admin' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
