import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { headers, insertEmployee, signIn } from './testing/fixtures';

const EMPLOYEES = '/api/employees/employees';

/**
 * A signed-in employee who is banned or deactivated is told so on their next request (the ban
 * revoked the session), not "session ended"; a session ended for any other reason stays a 401.
 */
describe.each(dialects())('a revoked session of a blocked employee (%s)', (dialect) => {
  let t: TestApp;
  let admin: Session;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
  });
  afterAll(() => t.close());

  const check = (token: string, extra: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/auth/check', headers: headers(token, extra) });

  it.each([
    ['baned', 'en', 'Your account is banned'],
    ['baned', 'ar', 'تم حظر حسابك'],
    ['status', 'en', 'Your account is inactive'],
  ] as const)('PATCH %s: the next request answers 403 saying why (%s)', async (action, lang, text) => {
    const username = `blocked${action}${lang}`;
    const id = await insertEmployee(t.app.db, { email: `${username}@law.test`, username });
    const token = await signIn(t.app, username);
    expect((await check(token)).statusCode).toBe(200);

    const res = await t.app.inject({
      method: 'PATCH',
      url: `${EMPLOYEES}/${action}/${id}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);

    const after = await check(token, { 'accept-language': lang });
    expect(after.statusCode).toBe(403);
    expect(after.json().message).toContain(text);
  });

  it('a signed-out session is a 401 "session ended", and another device learns nothing', async () => {
    const id = await insertEmployee(t.app.db, { email: 'leaver@law.test', username: 'leaver' });
    const token = await signIn(t.app, 'leaver');
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: headers(token) });
    expect((await check(token)).statusCode).toBe(401);

    const ban = await t.app.inject({
      method: 'PATCH',
      url: `${EMPLOYEES}/baned/${id}`,
      headers: admin.headers,
    });
    expect(ban.statusCode).toBe(200);
    // The same (revoked) token from another device: no word about the account.
    expect((await check(token, { 'x-fingerprint-session': 'fp-other-device' })).statusCode).toBe(401);
  });
});
