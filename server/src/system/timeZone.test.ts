import { DEFAULT_TIME_ZONE, getEntity } from '@mizan/contracts';
import { officeToday } from '../engine/today';
import { createRow, entityUrl } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

const GENERAL = '/api/admin/settings/system/general';
const PUBLIC = '/api/auth/systemSettings';
/** 22:30 UTC on 22 November: already 01:30 on the 23rd in Riyadh (UTC+3) and Cairo (UTC+2). */
const NIGHT = new Date('2026-11-22T22:30:00Z');

describe('officeToday', () => {
  it('is the calendar day in the office zone, and counts days on the calendar', () => {
    expect(officeToday('UTC', NIGHT).today).toBe('2026-11-22');
    expect(officeToday('Asia/Riyadh', NIGHT).today).toBe('2026-11-23');
    expect(officeToday('Africa/Cairo', NIGHT).today).toBe('2026-11-23');
    expect(officeToday('America/New_York', NIGHT).today).toBe('2026-11-22');
    const { daysFromToday } = officeToday('Asia/Riyadh', new Date('2026-12-31T21:30:00Z'));
    expect([daysFromToday(-1), daysFromToday(0), daysFromToday(31)]).toEqual([
      '2026-12-31',
      '2027-01-01',
      '2027-02-01',
    ]);
  });
});

describe.each(dialects())('office time zone on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const url = entityUrl(getEntity('procurations'));
  const tag = `TZ${Date.now() % 100000}`;

  const setZone = (timeZone: string) =>
    t.app.inject({ method: 'PUT', url: GENERAL, headers: admin.headers, payload: { timeZone } });

  /** The numbers (suffixes) of this test's powers of attorney matching `query`. */
  const listed = async (query: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${url}?pageSize=100&q=${tag}&${query}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const page = res.json().data as { items: { number: string }[]; total: number };
    expect(page.total).toBe(page.items.length);
    return page.items.map((r) => r.number.slice(tag.length + 1)).sort();
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { clock: () => NIGHT } });
    admin = await t.login();
    for (const [name, expiryDate] of [
      ['yesterday', '2026-11-22'],
      ['today', '2026-11-23'],
    ])
      await createRow(t.app, admin.headers, 'procurations', {
        number: `${tag}-${name}`,
        issueDate: '2026-01-01',
        expiryDate,
      });
  });
  afterAll(() => t.close());

  it('defaults to the office zone, public too', async () => {
    const general = await t.app.inject({ method: 'GET', url: GENERAL, headers: admin.headers });
    expect(general.json().data.timeZone).toBe(DEFAULT_TIME_ZONE);
    const pub = await t.app.inject({ method: 'GET', url: PUBLIC });
    expect(pub.json().data.timeZone).toBe(DEFAULT_TIME_ZONE);
  });

  it("counts expiry by the office's day, not UTC's", async () => {
    expect((await setZone('Asia/Riyadh')).statusCode).toBe(200);
    // 01:30 on the 23rd in Riyadh: the one ending on the 22nd has expired, the 23rd's ends today.
    expect(await listed('expired=true')).toEqual(['yesterday']);
    expect(await listed('expired=false')).toEqual(['today']);
    expect(await listed('expiresWithin=0')).toEqual(['today']);

    // Still the 22nd in UTC: neither has expired yet.
    expect((await setZone('UTC')).statusCode).toBe(200);
    expect(await listed('expired=true')).toEqual([]);
    expect(await listed('expiresWithin=0')).toEqual(['yesterday']);
    const pub = await t.app.inject({ method: 'GET', url: PUBLIC });
    expect(pub.json().data.timeZone).toBe('UTC');
  });

  it('refuses an unknown zone with 422 on the field, in both languages, changing nothing', async () => {
    expect((await setZone('Asia/Riyadh')).statusCode).toBe(200);
    for (const bad of ['Mars/Olympus', 'UTC+3', '', 42]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: GENERAL,
        headers: { ...admin.headers, 'accept-language': 'en' },
        payload: { timeZone: bad },
      });
      expect([bad, res.statusCode]).toEqual([bad, 422]);
      expect(Object.keys(res.json().errors)).toEqual(['timeZone']);
      expect(res.json().errors.timeZone[0]).toContain('Office time zone');
    }
    const ar = await setZone('Mars/Olympus');
    expect(ar.json().errors.timeZone[0]).toContain('المنطقة الزمنية للمكتب');
    const res = await t.app.inject({ method: 'GET', url: GENERAL, headers: admin.headers });
    expect(res.json().data.timeZone).toBe('Asia/Riyadh');
    expect(await listed('expired=true')).toEqual(['yesterday']);
  });
});
