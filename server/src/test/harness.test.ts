import { createTestApp, dialects, type TestApp } from './harness';

describe.each(dialects())('test harness on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(() => t.close());

  it('starts a migrated, seeded app the first administrator can sign in to', async () => {
    const session = await t.login();
    expect(session.token).toEqual(expect.any(String));
    expect(session.user.permissions).toContain('courts.view');
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { status: 'ok' } });
  });
});
