import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createTestApp, type TestApp } from '../test/harness';

/** A file and its build-time `.br` and `.gz` siblings, as compression-webpack-plugin writes them. */
function writeWithCompressed(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
}

/** A host and a settings remote as `npm run build` leaves them (names and compressed siblings). */
function buildTree(root: string): void {
  const host = path.join(root, 'host', 'dist');
  const settings = path.join(root, 'remotes', 'settings', 'dist');
  writeWithCompressed(path.join(host, 'index.html'), `<!doctype html>${'<div id="root"></div>'.repeat(80)}`);
  writeWithCompressed(path.join(host, 'main.js'), `/* entry */${'var a=1;'.repeat(400)}`);
  writeWithCompressed(path.join(host, '16.3f0cde6b1d.js'), `/* chunk */${'var b=2;'.repeat(400)}`);
  fs.writeFileSync(path.join(host, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeWithCompressed(
    path.join(settings, 'mf-manifest.json'),
    JSON.stringify({ id: 'settings', pad: 'x'.repeat(2000) }),
  );
  writeWithCompressed(path.join(settings, 'remoteEntry.js'), `/* remote entry */${'var c=3;'.repeat(400)}`);
  writeWithCompressed(
    path.join(settings, '__federation_expose_routes.0a1b2c3d4e.js'),
    'var d=4;'.repeat(400),
  );
}

const decode = (body: Buffer, encoding: string | undefined): string =>
  encoding === 'br'
    ? zlib.brotliDecompressSync(body).toString()
    : encoding === 'gzip'
      ? zlib.gunzipSync(body).toString()
      : body.toString();

describe('production serving: compression, caching and security headers', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-serving-'));
    buildTree(root);
    t = await createTestApp({
      env: {
        MIZAN_STATIC_DIR: root,
        MIZAN_REMOTES: JSON.stringify({
          settings: '/remotes/settings/mf-manifest.json',
          legal: 'https://legal.cdn.example/mf-manifest.json',
        }),
      },
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it.each([
    ['br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['gzip, deflate, br', 'br'],
  ])('sends the build-time compressed file for Accept-Encoding %s', async (accept, expected) => {
    const files: Record<string, string> = {
      '/16.3f0cde6b1d.js': 'host/dist/16.3f0cde6b1d.js',
      '/main.js': 'host/dist/main.js',
      '/': 'host/dist/index.html',
      '/remotes/settings/remoteEntry.js': 'remotes/settings/dist/remoteEntry.js',
      '/remotes/settings/mf-manifest.json': 'remotes/settings/dist/mf-manifest.json',
    };
    for (const [url, file] of Object.entries(files)) {
      const res = await get(url, { 'accept-encoding': accept });
      expect([url, res.statusCode, res.headers['content-encoding']]).toEqual([url, 200, expected]);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(decode(res.rawPayload, expected)).toBe(fs.readFileSync(path.join(root, file), 'utf8'));
    }
    expect((await get('/16.3f0cde6b1d.js', { 'accept-encoding': accept })).headers['content-type']).toMatch(
      /javascript/,
    );
  });

  it('sends the plain file to a browser that accepts no compression', async () => {
    const res = await get('/16.3f0cde6b1d.js');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(fs.readFileSync(path.join(root, 'host', 'dist', '16.3f0cde6b1d.js'), 'utf8'));
  });

  it('caches content-hashed chunks for a year, host and remotes alike', async () => {
    for (const url of ['/16.3f0cde6b1d.js', '/remotes/settings/__federation_expose_routes.0a1b2c3d4e.js']) {
      for (const accept of ['br', 'gzip', '']) {
        const res = await get(url, accept ? { 'accept-encoding': accept } : {});
        expect([url, accept, res.headers['cache-control']]).toEqual([
          url,
          accept,
          'public, max-age=31536000, immutable',
        ]);
      }
    }
  });

  it('re-checks the entry page, the entry scripts and the manifests on every load, with ETags', async () => {
    const urls = [
      '/',
      '/index.html',
      '/admin/settings/places/continents',
      '/main.js',
      '/favicon.svg',
      '/remotes.json',
      '/remotes/settings/mf-manifest.json',
      '/remotes/settings/remoteEntry.js',
    ];
    for (const url of urls) {
      for (const accept of ['br', '']) {
        const res = await get(url, accept ? { 'accept-encoding': accept } : {});
        expect([url, res.statusCode, res.headers['cache-control']]).toEqual([url, 200, 'no-cache']);
        const etag = res.headers.etag;
        expect([url, typeof etag]).toEqual([url, 'string']);
        const again = await get(url, {
          'if-none-match': String(etag),
          ...(accept ? { 'accept-encoding': accept } : {}),
        });
        expect([url, again.statusCode]).toEqual([url, 304]);
      }
    }
  });

  it('compresses API JSON above the threshold and leaves small answers alone', async () => {
    const big = await get('/api/docs/json', { 'accept-encoding': 'gzip, br' });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decode(big.rawPayload, 'br')).openapi).toMatch(/^3\./);
    const gzip = await get('/api/docs/json', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');

    const small = await get('/api/health', { 'accept-encoding': 'gzip, br' });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ data: { status: 'ok' } });
  });

  it('puts the security headers on pages, files and API answers; no HSTS without an https public URL', async () => {
    for (const url of [
      '/',
      '/admin/clients',
      '/16.3f0cde6b1d.js',
      '/remotes.json',
      '/api/health',
      '/api/nothing',
    ]) {
      const res = await get(url);
      const csp = String(res.headers['content-security-policy']);
      expect([url, csp]).toEqual([url, expect.stringContaining("frame-ancestors 'none'")]);
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
      // Only this origin and the remotes' origins may run scripts; never inline code.
      expect([url, scriptSrc]).toEqual([url, "'self' https://legal.cdn.example"]);
      expect(csp).toMatch(/connect-src 'self' https:\/\/legal\.cdn\.example/);
      expect(csp).toMatch(/default-src 'self'/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });
});

describe('HSTS', () => {
  it('is sent on every answer when MIZAN_PUBLIC_URL is https', async () => {
    const t = await createTestApp({ env: { MIZAN_PUBLIC_URL: 'https://office.example.test' } });
    try {
      for (const url of ['/api/health', '/remotes.json']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        expect(res.headers['content-security-policy']).toMatch(/upgrade-insecure-requests/);
      }
    } finally {
      await t.close();
    }
  });

  it('is not sent for an http public URL', async () => {
    const t = await createTestApp({ env: { MIZAN_PUBLIC_URL: 'http://mizan.lan:8080' } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['content-security-policy']).not.toMatch(/upgrade-insecure-requests/);
    } finally {
      await t.close();
    }
  });
});
