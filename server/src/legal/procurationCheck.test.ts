import { API_BASE, LEGAL_ROUTES, SYSTEM_SETTINGS_ROUTES } from '@mizan/contracts';
import { sql } from 'kysely';
import { toBoolean } from '../db';
import { deadlineMigrations } from '../deadlines/migrations';
import { countRows, createRow, entityUrl, nextSeq } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

jest.setTimeout(180_000);

const CHECK = API_BASE + LEGAL_ROUTES.procurationCheck.path;
const LAWSUITS = entityUrl('lawsuits');
const SESSIONS = entityUrl('sessions');

describe.each(dialects())('the power-of-attorney check on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  /** 11 March 2026 in Cairo. */
  const clock = { now: new Date('2026-03-11T08:00:00Z') };
  const ids: Record<string, number> = {};
  const names: Record<string, string> = {};
  const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown, lang = 'en') =>
    t.app.inject({
      method,
      url,
      headers: { ...admin.headers, 'accept-language': lang },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const mode = async (procurationCheck: 'warn' | 'refuse') => {
    const put = await send('PUT', API_BASE + SYSTEM_SETTINGS_ROUTES.get.path, { procurationCheck });
    expect([put.statusCode, put.json().data?.procurationCheck]).toEqual([200, procurationCheck]);
  };
  const count = (table: string) => countRows(t.app, table);
  const lawsuitBody = (customerIds: number[], extra: Record<string, unknown> = {}) => ({
    fileNumber: `PC-${nextSeq()}`,
    courtId: ids.court,
    circuitId: null,
    judgeId: null,
    customerIds,
    opponentIds: [],
    lawyerIds: [],
    filingDate: null,
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { clock: () => clock.now } });
    admin = await t.login();
    ids.court = (await createRow(t.app, admin.headers, 'courts', { courtType: 'general' })).id;
    const client = async (key: string) => {
      names[key] = `موكل ${key} ${nextSeq()}`;
      ids[key] = (
        await createRow(t.app, admin.headers, 'customers', {
          name: names[key],
          kind: 'person',
          nationalId: `2${String(nextSeq()).padStart(13, '0')}`,
          commercialRegister: null,
          customerTypeId: null,
          nationalityId: null,
          governorateId: null,
          branchId: null,
          lawyerId: null,
        })
      ).id;
    };
    const procuration = (customerId: number, extra: Record<string, unknown>) =>
      createRow(t.app, admin.headers, 'procurations', {
        number: `PC-${nextSeq()}`,
        year: 2026,
        customerIds: [customerId],
        lawyerIds: [],
        procurationCaseId: null,
        issueDate: '2025-01-01',
        expiryDate: null,
        files: undefined,
        ...extra,
      });
    for (const key of ['valid', 'expired', 'none', 'untilMarch20', 'notLitigation']) await client(key);
    // Litigation is what a power of attorney covers unless said otherwise.
    const open = await procuration(ids.valid!, { litigation: undefined });
    expect(open.litigation).toBe(true);
    await procuration(ids.expired!, { expiryDate: '2026-01-15', litigation: true });
    await procuration(ids.expired!, { expiryDate: '2026-02-01', litigation: true });
    await procuration(ids.untilMarch20!, { expiryDate: '2026-03-20', litigation: true });
    // In force, but for a sale only; and one for litigation, switched off.
    await procuration(ids.notLitigation!, { litigation: false });
    const off = await procuration(ids.notLitigation!, { litigation: true });
    expect((await send('PATCH', `${entityUrl('procurations')}/status/${off.id}`, {})).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('names the clients without a power of attorney for litigation on a day, and why', async () => {
    const all = ['valid', 'expired', 'none', 'untilMarch20', 'notLitigation'].map((k) => ids[k]).join(',');
    const res = await send('GET', `${CHECK}?customerIds=${all}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      mode: 'warn',
      date: '2026-03-11',
      problems: [
        { customerId: ids.expired, name: names.expired, reason: 'expired', expiredOn: '2026-02-01' },
        { customerId: ids.none, name: names.none, reason: 'none', expiredOn: null },
        {
          customerId: ids.notLitigation,
          name: names.notLitigation,
          reason: 'notLitigation',
          expiredOn: null,
        },
      ],
    });
    // A lawsuit's clients, on its next hearing's day: expired by then.
    const lawsuit = (await send('POST', LAWSUITS, lawsuitBody([ids.valid!, ids.untilMarch20!]))).json().data;
    const later = await send('GET', `${CHECK}?lawsuitId=${lawsuit.id}&date=2026-03-25`);
    expect(later.json().data.problems).toEqual([
      { customerId: ids.untilMarch20, name: names.untilMarch20, reason: 'expired', expiredOn: '2026-03-20' },
    ]);
    expect(
      (await send('GET', `${CHECK}?lawsuitId=${lawsuit.id}&date=2026-03-20`)).json().data.problems,
    ).toEqual([]);
  });

  it('refuses a check of nobody, or of a day that is no day, with field messages', async () => {
    const nobody = await send('GET', CHECK, undefined, 'ar');
    expect(nobody.statusCode).toBe(422);
    expect(Object.keys(nobody.json().errors)).toEqual(['customerIds']);
    const bad = await send('GET', `${CHECK}?customerIds=${ids.none}&date=tomorrow`);
    expect([bad.statusCode, Object.keys(bad.json().errors)]).toEqual([422, ['date']]);
  });

  it('in warn mode lets the lawsuit and the hearing through', async () => {
    const created = await send('POST', LAWSUITS, lawsuitBody([ids.none!]));
    expect(created.statusCode).toBe(201);
    const hearing = await send('POST', SESSIONS, {
      lawsuitId: created.json().data.id,
      date: '2026-03-15',
      time: '09:00',
    });
    expect(hearing.statusCode).toBe(201);
  });

  it('in refuse mode refuses a lawsuit, a filing and a hearing with the client and the reason, changing nothing', async () => {
    await mode('refuse');
    try {
      const before = await count('lawsuits');
      const refused = await send('POST', LAWSUITS, lawsuitBody([ids.expired!, ids.none!]));
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toEqual({
        customerIds: [
          `Every power of attorney of client “${names.expired}” has expired, the last on 2026-02-01`,
          `Client “${names.none}” has no power of attorney on record`,
        ],
      });
      const arabic = await send('POST', LAWSUITS, lawsuitBody([ids.notLitigation!]), 'ar');
      expect(arabic.json().errors).toEqual({
        customerIds: [`لا يشمل أيٌّ من توكيلات الموكل «${names.notLitigation}» السارية التقاضي`],
      });
      expect(await count('lawsuits')).toBe(before);

      // Valid today; its filing recorded after the power of attorney ends is refused.
      const lawsuit = await send('POST', LAWSUITS, lawsuitBody([ids.valid!, ids.untilMarch20!]));
      expect(lawsuit.statusCode).toBe(201);
      const id = lawsuit.json().data.id as number;
      const filing = await send('PATCH', `${LAWSUITS}/${id}`, { filingDate: '2026-03-22' });
      expect([filing.statusCode, Object.keys(filing.json().errors ?? {})]).toEqual([422, ['customerIds']]);
      expect((await send('PATCH', `${LAWSUITS}/${id}`, { filingDate: '2026-03-12' })).statusCode).toBe(200);

      // A hearing on a day the power of attorney covers; not after it ends, nor moved there.
      const hearings = await count('sessions');
      const late = await send('POST', SESSIONS, { lawsuitId: id, date: '2026-03-25', time: '09:00' }, 'ar');
      expect(late.statusCode).toBe(422);
      expect(late.json().errors).toEqual({
        date: [`انتهت كل توكيلات الموكل «${names.untilMarch20}»، وآخرها انتهى في 2026-03-20`],
      });
      expect(await count('sessions')).toBe(hearings);
      const onTime = await send('POST', SESSIONS, { lawsuitId: id, date: '2026-03-18', time: '09:00' });
      expect(onTime.statusCode).toBe(201);
      const moved = await send('PATCH', `${SESSIONS}/${onTime.json().data.id}`, { date: '2026-03-24' });
      expect([moved.statusCode, Object.keys(moved.json().errors ?? {})]).toEqual([422, ['date']]);
      // Its other fields still change.
      const notes = await send('PATCH', `${SESSIONS}/${onTime.json().data.id}`, { requirements: 'مذكرة' });
      expect(notes.statusCode).toBe(200);
    } finally {
      await mode('warn');
    }
  });

  it("lists the lawsuits with a coming hearing that a client's power of attorney does not cover", async () => {
    const withHearing = async (customerId: number, date: string) => {
      const lawsuit = (await send('POST', LAWSUITS, lawsuitBody([customerId]))).json().data as { id: number };
      const hearing = await send('POST', SESSIONS, { lawsuitId: lawsuit.id, date, time: '10:00' });
      expect(hearing.statusCode).toBe(201);
      return lawsuit.id;
    };
    const covered = await withHearing(ids.valid!, '2026-03-15');
    const lapses = await withHearing(ids.untilMarch20!, '2026-03-25');
    const inTime = await withHearing(ids.untilMarch20!, '2026-03-18');
    const past = await withHearing(ids.expired!, '2026-03-02');
    const listed = async (value: boolean) =>
      (
        (await send('GET', `${LAWSUITS}?procurationGap=${value}&pageSize=100`)).json().data.items as {
          id: number;
        }[]
      ).map((r) => r.id);
    const gaps = await listed(true);
    expect([covered, lapses, inTime, past].map((id) => gaps.includes(id))).toEqual([
      false,
      true,
      false,
      false,
    ]);
    const others = await listed(false);
    expect([covered, lapses, inTime, past].map((id) => others.includes(id))).toEqual([
      true,
      false,
      true,
      true,
    ]);
  });

  it('takes only warn or refuse as the mode', async () => {
    const res = await send('PUT', API_BASE + SYSTEM_SETTINGS_ROUTES.get.path, {
      procurationCheck: 'sometimes',
    });
    expect([res.statusCode, Object.keys(res.json().errors)]).toEqual([422, ['procurationCheck']]);
  });

  // Last: it takes the column away and puts it back as an office's upgrade does.
  it('on an upgrade, takes the powers of attorney already kept as covering litigation', async () => {
    const kept = await createRow(t.app, admin.headers, 'procurations', {
      number: `PC-${nextSeq()}`,
      year: 2026,
      customerIds: [ids.none!],
      lawyerIds: [],
      procurationCaseId: null,
      issueDate: '2025-01-01',
      expiryDate: null,
      litigation: false,
    });
    // As before the step: no column, nor the filter's index on it.
    await t.app.db.schema.dropIndex('procurations_litigation_id_idx').ifExists().execute();
    await t.app.db.schema.alterTable('procurations').dropColumn('litigation').execute();
    const step = deadlineMigrations.find((m) => m.name === 'deadlines_004_procuration_litigation')!;
    await step.up(t.app.db, dialect);
    const rows = await t.app.db.selectFrom('procurations').select(['id', 'litigation']).execute();
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.every((r) => toBoolean(r.litigation))).toBe(true);
    expect(rows.some((r) => Number(r.id) === kept.id)).toBe(true);
    const index =
      dialect === 'postgres'
        ? sql`select indexname as name from pg_indexes where indexname = 'procurations_litigation_id_idx'`
        : sql`select name from sqlite_master where type = 'index' and name = 'procurations_litigation_id_idx'`;
    expect((await index.execute(t.app.db)).rows).toHaveLength(1);
  });
});
