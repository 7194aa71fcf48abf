import type { FastifyInstance } from 'fastify';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { headers, insertEmployee, signIn } from './testing/fixtures';

describe.each(dialects())('security policy from the system settings (%s)', (dialect) => {
  let t: TestApp;
  let db: FastifyInstance['db'];
  let admin: Session;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    db = t.app.db;
    admin = await t.login();
  });
  afterAll(() => t.close());

  const settings = (payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings/system/general',
      headers: admin.headers,
      payload,
    });

  it('gives new sessions the configured lifetime', async () => {
    expect((await settings({ sessionLifetimeHours: 2 })).statusCode).toBe(200);
    await insertEmployee(db, { email: 'short@law.test', username: 'shortlived', roles: ['Lawyer'] });
    await signIn(t.app, 'shortlived');
    const session = await db
      .selectFrom('sessions')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const hours = (new Date(String(session.expires_at)).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(1.9);
    expect(hours).toBeLessThanOrEqual(2);
  });

  it('slides a session in use by the lifetime configured when it slides', async () => {
    await insertEmployee(db, { email: 'sliding@law.test', username: 'sliding', roles: ['Lawyer'] });
    const token = await signIn(t.app, 'sliding');
    const { id } = await db
      .selectFrom('sessions')
      .select('id')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    /** The session's hours left after `url` is asked once its last slide is two minutes old. */
    const hoursAfterUse = async (method: 'GET' | 'POST', url: string) => {
      const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString();
      await db.updateTable('sessions').set({ last_seen_at: twoMinutesAgo }).where('id', '=', id).execute();
      const res = await t.app.inject({ method, url, headers: headers(token) });
      expect(res.statusCode).toBe(200);
      const { expires_at } = await db
        .selectFrom('sessions')
        .select('expires_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return (new Date(String(expires_at)).getTime() - Date.now()) / 3_600_000;
    };
    expect((await settings({ sessionLifetimeHours: 3 })).statusCode).toBe(200);
    expect(await hoursAfterUse('POST', '/api/auth/check')).toBeCloseTo(3, 1);
    expect((await settings({ sessionLifetimeHours: 5 })).statusCode).toBe(200);
    expect(await hoursAfterUse('POST', '/api/auth/check')).toBeCloseTo(5, 1);
    // The guard of every other route slides it the same way.
    expect((await settings({ sessionLifetimeHours: 4 })).statusCode).toBe(200);
    expect(await hoursAfterUse('GET', '/api/employees/employees/profile')).toBeCloseTo(4, 1);
  });

  it('applies the configured password rules to new employees and password changes', async () => {
    expect((await settings({ passwordMinLength: 12, passwordRequireSymbols: true })).statusCode).toBe(200);
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/employees/employees',
      headers: { ...admin.headers, 'accept-language': 'en' },
      payload: { name: 'Rules', email: 'rules@law.test', username: 'rules', password: 'abcdefgh1234' },
    });
    expect(create.statusCode).toBe(422);
    expect(create.json().errors.password[0]).toContain('at least one symbol');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/employees/employees',
      headers: admin.headers,
      payload: { name: 'Rules', email: 'rules@law.test', username: 'rules', password: 'abcdefgh-1234' },
    });
    expect(created.statusCode).toBe(201);

    const token = await signIn(t.app, 'rules', 'abcdefgh-1234');
    const change = await t.app.inject({
      method: 'PUT',
      url: '/api/employees/employees/changePassword',
      headers: headers(token),
      payload: { currentPassword: 'abcdefgh-1234', newPassword: 'Short-1!' },
    });
    expect(change.statusCode).toBe(422);
    expect(change.json().errors.newPassword[0]).toBe('The password must be at least 12 characters');
    await settings({ passwordMinLength: 8, passwordRequireSymbols: false, sessionLifetimeHours: 12 });
  });
});
