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
