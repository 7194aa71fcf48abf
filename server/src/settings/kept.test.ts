import { API_BASE, SYSTEM_SETTINGS_ROUTES } from '@mizan/contracts';
import { createRow, entityUrl, nextSeq } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { statementsOf } from '../test/statements';

jest.setTimeout(180_000);

// A write takes the settings kept at the write version its request read with the session
// (settings/repository.ts): a change on any instance raises that version, and the next request of
// every instance reads the row again.

describe.each(dialects())('settings kept at their write version on %s', (dialect) => {
  let a: TestApp;
  let b: TestApp;
  let onA: Session;
  let onB: Session;
  let customer = 0;
  const lawsuit = (t: TestApp, session: Session) =>
    t.app.inject({
      method: 'POST',
      url: entityUrl('lawsuits'),
      headers: { ...session.headers, 'accept-language': 'en' },
      payload: { fileNumber: `KS-${nextSeq()}`, customerIds: [customer], lawyerIds: [] },
    });
  const mode = async (procurationCheck: 'warn' | 'refuse') => {
    const put = await b.app.inject({
      method: 'PUT',
      url: API_BASE + SYSTEM_SETTINGS_ROUTES.get.path,
      headers: onB.headers,
      payload: { procurationCheck },
    });
    expect([put.statusCode, put.json().data?.procurationCheck]).toEqual([200, procurationCheck]);
  };

  beforeAll(async () => {
    a = await createTestApp({ dialect });
    // A second instance on the same database.
    b = await createTestApp({ dialect, env: { DATABASE_URL: a.config.databaseUrl } });
    onA = await a.login();
    onB = await b.login();
    // A client with no power of attorney: refused when the office refuses such lawsuits.
    customer = (
      await createRow(a.app, onA.headers, 'customers', {
        name: `موكل ${nextSeq()}`,
        kind: 'person',
        nationalId: `2${String(nextSeq()).padStart(13, '0')}`,
      })
    ).id;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("serves a write the settings it kept, and another instance's change from the next request on", async () => {
    expect((await lawsuit(a, onA)).statusCode).toBe(201);
    // Kept: the row is not read again while nothing changed it.
    const statements = await statementsOf(async () => expect((await lawsuit(a, onA)).statusCode).toBe(201));
    expect(statements.filter((s) => /from "system_settings"/.test(s))).toEqual([]);

    await mode('refuse');
    const refused = await lawsuit(a, onA);
    expect([refused.statusCode, Object.keys(refused.json().errors ?? {})]).toEqual([422, ['customerIds']]);
    await mode('warn');
    expect((await lawsuit(a, onA)).statusCode).toBe(201);
  });

  it('gives a settings change the row as stored, not what a write kept', async () => {
    // Kept on `a` at the current version; the change on `a` builds on the row itself.
    expect((await lawsuit(a, onA)).statusCode).toBe(201);
    const put = (payload: object) =>
      a.app.inject({
        method: 'PUT',
        url: API_BASE + SYSTEM_SETTINGS_ROUTES.get.path,
        headers: onA.headers,
        payload,
      });
    const statements = await statementsOf(async () =>
      expect((await put({ procurationCheck: 'refuse' })).statusCode).toBe(200),
    );
    expect(statements.filter((s) => /from "system_settings"/.test(s)).length).toBeGreaterThan(0);
    expect((await lawsuit(a, onA)).statusCode).toBe(422);
    expect((await put({ procurationCheck: 'warn' })).statusCode).toBe(200);
  });
});
