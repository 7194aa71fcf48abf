import type { FastifyInstance } from 'fastify';
import { createTestApp, dialects, type TestApp } from '../test/harness';
import { FINGERPRINT, SEEDED, headers, insertEmployee, signIn } from './testing/fixtures';

/** Guarded by `employees.view`, and open to any signed-in user. */
const EMPLOYEES = '/api/employees/employees';
const ME = '/api/employees/employees/profile';

const login = (
  app: FastifyInstance,
  email: string,
  password: string,
  extra: Record<string, string> = {},
  ip?: string,
) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: headers(undefined, extra),
    payload: { email, password },
    ...(ip ? { remoteAddress: ip } : {}),
  });

describe.each(dialects())('auth sessions (%s)', (dialect) => {
  let t: TestApp;
  let db: FastifyInstance['db'];
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    db = t.app.db;
    await insertEmployee(db, { email: 'lawyer@law.test', username: 'lawyer', roles: ['Lawyer'] });
    await insertEmployee(db, { email: 'sec@law.test', username: 'secretary', roles: ['Secretary'] });
  });
  afterAll(() => t.close());
  // Each test starts with fresh counters, so rate limits only bite where a test wants them to.
  beforeEach(() => {
    for (const limiter of Object.values(t.app.auth.limiters))
      (limiter as unknown as { windows: Map<string, unknown> }).windows.clear();
  });

  it('signs in the seeded administrator by email and by username, in any case', async () => {
    for (const identifier of ['admin@mizan.test', 'ADMIN', ' Admin@Mizan.Test ']) {
      const res = await login(t.app, identifier, 'Admin-pass-2026');
      expect(res.statusCode).toBe(200);
      const { data } = res.json();
      expect(data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(data.passwordChangeRequired).toBe(false);
      expect(data.user).toMatchObject({
        email: 'admin@mizan.test',
        username: 'admin',
        status: true,
        baned: false,
      });
      expect(data.user.password).toBeUndefined();
      expect(data.user.Roles).toHaveLength(1);
      expect(data.user.Roles[0].name).toBe(SEEDED.administrator);
      expect(data.user.Roles[0].Permissions.length).toBeGreaterThan(50);
      expect(data.user.Roles[0].Permissions[0]).toEqual({ id: expect.any(Number), key: expect.any(String) });
      expect(data.user.permissions).toContain('employees.update');
      expect(data.user.roleIds).toEqual([data.user.Roles[0].id]);
      expect(data.user.lastLoginAt).toEqual(expect.any(String));
    }
    // Only the hash of a token is stored.
    const token = await signIn(t.app, 'admin', 'Admin-pass-2026');
    const stored = await db.selectFrom('sessions').select('token_hash').execute();
    expect(stored.map((s) => s.token_hash)).not.toContain(token);
  });

  it('answers a wrong password and an unknown account with the same 401, and records both', async () => {
    const wrong = await login(t.app, 'lawyer@law.test', 'Wrong-pass-1');
    const unknown = await login(t.app, 'nobody@law.test', 'Wrong-pass-1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      message: 'The email, username or password is incorrect',
      code: 'unauthorized',
    });
    expect(unknown.json()).toEqual(wrong.json());
    const arabic = await login(t.app, 'lawyer@law.test', 'Wrong-pass-1', { 'accept-language': 'ar' });
    expect(arabic.json().message).toBe('البريد الإلكتروني أو اسم المستخدم أو كلمة المرور غير صحيحة');

    const history = await db
      .selectFrom('login_history')
      .selectAll()
      .where('identifier', 'in', ['lawyer@law.test', 'nobody@law.test'])
      .orderBy('id')
      .execute();
    expect(history.map((h) => [h.identifier, Boolean(h.success), h.reason])).toEqual([
      ['lawyer@law.test', false, 'wrong_password'],
      ['nobody@law.test', false, 'unknown_account'],
      ['lawyer@law.test', false, 'wrong_password'],
    ]);
    expect(history[0]!.employee_id).not.toBeNull();
    expect(history[1]!.employee_id).toBeNull();
  });

  it('records successful sign-ins with IP and user agent', async () => {
    await signIn(t.app, 'secretary', 'Secret-pass-1', { 'user-agent': 'JestBrowser/1.0' });
    const row = await db
      .selectFrom('login_history')
      .selectAll()
      .where('identifier', '=', 'secretary')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_agent: 'JestBrowser/1.0', ip: '127.0.0.1', reason: null });
    expect(Boolean(row.success)).toBe(true);
    expect(new Date(String(row.created_at)).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses a login body without email or password with 422 field messages', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: headers(),
      payload: { password: '' },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(expect.arrayContaining(['email', 'password']));
    expect(res.json().message).toContain('Email');
    const notObject = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: headers(),
      payload: '[1]',
    });
    expect([400, 415, 422]).toContain(notObject.statusCode);
  });

  it('checks a session and answers the user and the same token', async () => {
    const token = await signIn(t.app, 'lawyer');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/check', headers: headers(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.token).toBe(token);
    expect(res.json().data.user).toMatchObject({ username: 'lawyer', Roles: [{ name: SEEDED.lawyer }] });
    expect(res.json().data.user.permissions).toContain('courts.view');
    expect(res.json().data.user.permissions).not.toContain('employees.view');
  });

  it('answers 401 without a token, with an unknown token and with another fingerprint', async () => {
    const token = await signIn(t.app, 'lawyer');
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/auth/check',
      headers: { 'x-fingerprint-session': FINGERPRINT },
    });
    expect(none.statusCode).toBe(401);
    expect(none.json().message).toBe('يرجى تسجيل الدخول');
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/check',
      headers: headers('x'.repeat(43)),
    });
    expect(unknown.statusCode).toBe(401);
    const other = await t.app.inject({
      method: 'GET',
      url: ME,
      headers: headers(token, { 'x-fingerprint-session': 'another-device' }),
    });
    expect(other.statusCode).toBe(401);
    expect(other.json().message).toBe('This session belongs to another device, please sign in again');
    const noFingerprint = await t.app.inject({
      method: 'GET',
      url: ME,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(noFingerprint.statusCode).toBe(401);
    // The right fingerprint still works: the session was not harmed by the attempts.
    expect((await t.app.inject({ method: 'GET', url: ME, headers: headers(token) })).statusCode).toBe(200);
  });

  it('expires an idle session and slides the expiry of a used one', async () => {
    const token = await signIn(t.app, 'lawyer');
    const session = await db
      .selectFrom('sessions')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const hours = (new Date(String(session.expires_at)).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);

    // Seen 5 minutes ago, expiring in 1 minute: a request pushes the expiry 12 hours ahead.
    const past = (ms: number) => new Date(Date.now() - ms).toISOString();
    await db
      .updateTable('sessions')
      .set({ last_seen_at: past(5 * 60_000), expires_at: past(-60_000) })
      .where('id', '=', session.id)
      .execute();
    expect((await t.app.inject({ method: 'GET', url: ME, headers: headers(token) })).statusCode).toBe(200);
    const slid = await db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    expect(new Date(String(slid.expires_at)).getTime()).toBeGreaterThan(Date.now() + 11.9 * 3_600_000);

    await db
      .updateTable('sessions')
      .set({ expires_at: past(1000) })
      .where('id', '=', session.id)
      .execute();
    const expired = await t.app.inject({ method: 'POST', url: '/api/auth/check', headers: headers(token) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe('Your session has ended, please sign in again');
  });

  it('signs out: the token stops working at once; signing out again is harmless', async () => {
    const token = await signIn(t.app, 'lawyer');
    const other = await signIn(t.app, 'lawyer');
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: headers(token) });
    expect(out.statusCode).toBe(200);
    expect(out.json().data.message).toBe('Signed out successfully');
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/check', headers: headers(token) })).statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: headers(token) })).statusCode,
    ).toBe(200);
    // Another session of the same employee is untouched.
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/check', headers: headers(other) })).statusCode,
    ).toBe(200);
  });

  it('checks permissions: 403 without the key, 200 with it', async () => {
    const lawyer = await signIn(t.app, 'lawyer');
    const admin = await signIn(t.app, 'admin', 'Admin-pass-2026');
    const denied = await t.app.inject({
      method: 'GET',
      url: EMPLOYEES,
      headers: headers(lawyer),
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ message: 'You cannot access this page', code: 'forbidden' });
    const allowed = await t.app.inject({
      method: 'GET',
      url: EMPLOYEES,
      headers: headers(admin),
    });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().data.items.length).toBeGreaterThan(0);
  });

  it('refuses banned and inactive employees with a clear 403, and a live session of one at once', async () => {
    const id = await insertEmployee(db, { email: 'clerk@law.test', username: 'clerk', roles: ['Secretary'] });
    const token = await signIn(t.app, 'clerk');
    await db.updateTable('employees').set({ baned: true }).where('id', '=', id).execute();
    const banned = await login(t.app, 'clerk', 'Secret-pass-1');
    expect(banned.statusCode).toBe(403);
    expect(banned.json().message).toBe('Your account is banned, please contact the administrator');
    const live = await t.app.inject({ method: 'GET', url: ME, headers: headers(token) });
    expect(live.statusCode).toBe(403);

    await db.updateTable('employees').set({ baned: false, status: false }).where('id', '=', id).execute();
    const inactive = await login(t.app, 'clerk', 'Secret-pass-1');
    expect(inactive.statusCode).toBe(403);
    expect(inactive.json().message).toBe('Your account is inactive, please contact the administrator');
    // A wrong password on a banned account still says only "incorrect": the ban is not revealed to guessers.
    expect((await login(t.app, 'clerk', 'Wrong-pass-1')).statusCode).toBe(401);
    const reasons = await db
      .selectFrom('login_history')
      .select('reason')
      .where('identifier', '=', 'clerk')
      .execute();
    expect(reasons.map((r) => r.reason)).toEqual(expect.arrayContaining(['banned', 'inactive']));
  });

  it('refuses employees holding a banned or inactive role', async () => {
    await insertEmployee(db, { email: 'para@law.test', username: 'paralegal', roles: ['Lawyer'] });
    const lawyerRole = await db
      .selectFrom('roles')
      .select('id')
      .where('name', '=', SEEDED.lawyer)
      .executeTakeFirstOrThrow();
    try {
      await db.updateTable('roles').set({ baned: true }).where('id', '=', lawyerRole.id).execute();
      const res = await login(t.app, 'paralegal', 'Secret-pass-1');
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('One of your roles is suspended, please contact the administrator');
      await db
        .updateTable('roles')
        .set({ baned: false, status: false })
        .where('id', '=', lawyerRole.id)
        .execute();
      expect((await login(t.app, 'paralegal', 'Secret-pass-1')).statusCode).toBe(403);
    } finally {
      await db
        .updateTable('roles')
        .set({ baned: false, status: true })
        .where('id', '=', lawyerRole.id)
        .execute();
    }
    expect((await login(t.app, 'paralegal', 'Secret-pass-1')).statusCode).toBe(200);
  });

  it('lets an employee who must change the password reach only the routes open to any signed-in user', async () => {
    await insertEmployee(db, {
      email: 'new@law.test',
      username: 'newcomer',
      roles: ['Administrator'],
      passwordChangeRequired: true,
    });
    const res = await login(t.app, 'newcomer', 'Secret-pass-1');
    expect(res.json().data.passwordChangeRequired).toBe(true);
    expect(res.json().data.user.passwordChangeRequired).toBe(true);
    const token = res.json().data.token;
    const blocked = await t.app.inject({
      method: 'GET',
      url: EMPLOYEES,
      headers: headers(token),
    });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().message).toBe('You must change your password to continue');
    expect((await t.app.inject({ method: 'GET', url: ME, headers: headers(token) })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/check', headers: headers(token) })).statusCode,
    ).toBe(200);
  });

  it('limits login attempts per IP: the 11th in a minute gets 429 with Retry-After', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await login(t.app, `someone${i}@law.test`, 'Wrong-pass-1', {}, '10.9.9.9')).statusCode).toBe(
        401,
      );
    }
    const limited = await login(t.app, 'admin', 'Admin-pass-2026', {}, '10.9.9.9');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.json().message).toMatch(/^Too many attempts, please try again in \d+ seconds$/);
    // Another address is not affected.
    expect((await login(t.app, 'admin', 'Admin-pass-2026', {}, '10.9.9.10')).statusCode).toBe(200);
  });

  it('locks an account after 5 failures in 15 minutes, from any IP, email and username alike', async () => {
    for (let i = 0; i < 5; i++) {
      const identifier = i % 2 ? 'secretary' : 'sec@law.test';
      expect((await login(t.app, identifier, 'Wrong-pass-1', {}, `10.1.1.${i}`)).statusCode).toBe(401);
    }
    const locked = await login(t.app, 'secretary', 'Secret-pass-1', {}, '10.1.2.1');
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    // Unknown identifiers lock the same way (no difference tells whether an account exists).
    for (let i = 0; i < 5; i++) await login(t.app, 'ghost@law.test', 'Wrong-pass-1', {}, `10.2.1.${i}`);
    expect((await login(t.app, 'ghost@law.test', 'Wrong-pass-1', {}, '10.2.2.1')).statusCode).toBe(429);
    // Other accounts still sign in.
    expect((await login(t.app, 'lawyer', 'Secret-pass-1', {}, '10.1.2.2')).statusCode).toBe(200);
  });

  it('serves the public system settings without authentication', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/systemSettings' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      officeName: expect.any(String),
      logoUrl: null,
      faviconUrl: null,
      primaryColor: expect.stringMatching(/^#[0-9a-f]{6}$/i),
      defaultLanguage: 'ar',
      defaultTheme: 'light',
      calendar: expect.any(String),
      timeZone: 'Africa/Cairo',
      // The forms check a file's size before sending it.
      maxUploadMb: 25,
    });
  });

  it('documents the auth and profile routes in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<
      string,
      Record<string, { tags?: string[]; requestBody?: unknown }>
    >;
    expect(paths['/api/auth/login']?.post?.tags).toEqual(['auth']);
    expect(paths['/api/auth/login']?.post?.requestBody).toBeDefined();
    expect(paths['/api/employees/employees/changePassword']?.put?.tags).toEqual(['employees']);
    expect(paths['/api/employees/employees/resetPassword/{id}']?.put).toBeDefined();
  });
});
