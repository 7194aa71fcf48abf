import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from '../test/harness';
import { headers, insertEmployee } from './testing/fixtures';

const PASSWORD = 'Secret-pass-1';

/** Signs in from `remoteAddress` with an `X-Forwarded-For` claim; answers the address stored with the session. */
async function sessionIp(app: FastifyInstance, remoteAddress: string, forwardedFor: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: headers(undefined, { 'x-forwarded-for': forwardedFor }),
    payload: { email: 'probe@law.test', password: PASSWORD },
    remoteAddress,
  });
  expect(res.statusCode).toBe(200);
  const row = await app.db
    .selectFrom('sessions')
    .select('ip')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return String(row.ip);
}

describe('X-Forwarded-For is believed from loopback only, unless MIZAN_TRUST_PROXY says more', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await insertEmployee(t.app.db, { email: 'probe@law.test', username: 'probe', password: PASSWORD });
  });
  afterAll(() => t.close());

  it('takes the forwarded address from a proxy on this machine', async () => {
    expect(await sessionIp(t.app, '127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
  });

  it('ignores it from an office machine on the private network (10/8, 172.16/12, 192.168/16, fc00::/7)', async () => {
    for (const peer of ['192.168.1.20', '10.0.0.7', '172.16.4.2', 'fd00::5'])
      expect(await sessionIp(t.app, peer, '203.0.113.9')).toBe(peer);
  });

  it('so a LAN machine cannot walk past the per-IP sign-in limit by inventing addresses', async () => {
    let status = 0;
    for (let i = 0; i < 100 && status !== 429; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: headers(undefined, { 'x-forwarded-for': `198.51.100.${i}` }),
        payload: { email: `nobody${i}@law.test`, password: 'wrong-pass-1' },
        remoteAddress: '192.168.1.77',
      });
      status = res.statusCode;
    }
    expect(status).toBe(429);
  });
});

describe('MIZAN_TRUST_PROXY names the proxies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { MIZAN_TRUST_PROXY: '10.0.0.5' } });
    await insertEmployee(t.app.db, { email: 'probe@law.test', username: 'probe', password: PASSWORD });
  });
  afterAll(() => t.close());

  it('believes the named proxy and no one else, loopback included', async () => {
    expect(await sessionIp(t.app, '10.0.0.5', '203.0.113.9')).toBe('203.0.113.9');
    expect(await sessionIp(t.app, '10.0.0.6', '203.0.113.9')).toBe('10.0.0.6');
    expect(await sessionIp(t.app, '127.0.0.1', '203.0.113.9')).toBe('127.0.0.1');
  });
});

describe('sign-out with another device fingerprint', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is refused with 401 and leaves the session working', async () => {
    const admin = await t.login();
    const stolen = { ...admin.headers, 'x-fingerprint-session': 'another-device', 'accept-language': 'en' };
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: stolen });
    expect(out.statusCode).toBe(401);
    expect(out.json()).toMatchObject({
      code: 'unauthorized',
      message: 'This session belongs to another device, please sign in again',
    });
    const withoutFingerprint = { authorization: admin.headers.authorization! };
    const bare = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: withoutFingerprint });
    expect(bare.statusCode).toBe(401);
    const check = await t.app.inject({ method: 'POST', url: '/api/auth/check', headers: admin.headers });
    expect(check.statusCode).toBe(200);
    // The owner's own device still signs out.
    const own = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: admin.headers });
    expect(own.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'POST', url: '/api/auth/check', headers: admin.headers });
    expect(after.statusCode).toBe(401);
  });
});
