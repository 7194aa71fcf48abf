import { API_BASE, DEADLINE_ROUTES, SYSTEM_SETTINGS_ROUTES } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { createRow, entityUrl, nextSeq } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

jest.setTimeout(180_000);

const CALCULATE = API_BASE + DEADLINE_ROUTES.calculate.path;
const HOLIDAYS = entityUrl('holidays');
const RULES = entityUrl('deadlineRules');
const DEADLINES_URL = entityUrl('deadlines');
const SESSIONS = entityUrl('sessions');

describe.each(dialects())('legal periods and deadlines on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  /** Cairo is UTC+2 in March. */
  const clock = { now: new Date('2026-03-11T08:00:00Z') };
  const others: FastifyInstance[] = [];
  const ids: Record<string, number> = {};
  const get = (url: string, lang = 'en') =>
    t.app.inject({ method: 'GET', url, headers: { ...admin.headers, 'accept-language': lang } });
  const send = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: unknown, lang = 'en') =>
    t.app.inject({
      method,
      url,
      headers: { ...admin.headers, 'accept-language': lang },
      payload: payload as object,
    });
  /** The deadlines of the test's lawsuit as `rule due state`, by rule. */
  const deadlinesOf = async (lawsuitId: number) =>
    (await get(`${DEADLINES_URL}?lawsuitId=${lawsuitId}&pageSize=100&sort=dueDate:asc`)).json().data
      .items as Record<string, unknown>[];

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { clock: () => clock.now } });
    admin = await t.login();
    // The office is in Saudi Arabia: its holidays count.
    const put = await send('PUT', API_BASE + SYSTEM_SETTINGS_ROUTES.get.path, { officeCountry: 'SA' });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toMatchObject({
      officeCountry: 'SA',
      weekendDays: [5, 6],
      deadlineReminderDays: [7, 3, 1],
    });

    ids.civil = (await createRow(t.app, admin.headers, 'lawsuitTypes')).id;
    ids.labour = (await createRow(t.app, admin.headers, 'lawsuitTypes')).id;
    ids.court = (await createRow(t.app, admin.headers, 'courts', { courtType: 'general' })).id;
    ids.lawyer = (await createRow(t.app, admin.headers, 'employees')).id;
    ids.attending = (await createRow(t.app, admin.headers, 'employees')).id;
    const rule = async (body: Record<string, unknown>) =>
      (
        await createRow(t.app, admin.headers, 'deadlineRules', {
          name: `rule ${nextSeq()}`,
          lawsuitTypeIds: [],
          courtType: null,
          country: null,
          unit: 'days',
          calendar: 'gregorian',
          shift: 'next',
          legalBasis: 'نظام المرافعات الشرعية، المادة 187',
          ...body,
        })
      ).id;
    ids.appeal = await rule({
      event: 'judgmentIssued',
      amount: 30,
      action: 'appeal',
      lawsuitTypeIds: [ids.civil],
    });
    // Not for this lawsuit: another type, another degree of court, another country.
    ids.otherType = await rule({
      event: 'judgmentIssued',
      amount: 15,
      action: 'objection',
      lawsuitTypeIds: [ids.labour],
    });
    ids.otherCourt = await rule({
      event: 'judgmentIssued',
      amount: 60,
      action: 'cassation',
      courtType: 'appeal',
    });
    ids.otherCountry = await rule({ event: 'judgmentIssued', amount: 40, action: 'petition', country: 'EG' });
    ids.served = await rule({
      event: 'judgmentServed',
      amount: 1,
      unit: 'months',
      calendar: 'hijri',
      action: 'reconsideration',
    });
    ids.inactive = await rule({ event: 'judgmentIssued', amount: 10, action: 'memorandum' });
    await send('PATCH', `${RULES}/status/${ids.inactive}`, {});

    const lawsuit = await createRow(t.app, admin.headers, 'lawsuits', {
      fileNumber: `D-${nextSeq()}`,
      filingDate: '2026-01-01',
      lawsuitTypeId: ids.civil,
      courtId: ids.court,
      circuitId: null,
      judgeId: null,
      lawyerIds: [ids.lawyer],
    });
    ids.lawsuit = lawsuit.id;
    ids.hearing = (
      await createRow(t.app, admin.headers, 'sessions', {
        lawsuitId: lawsuit.id,
        date: '2026-03-11',
        time: '09:00',
        lawyerId: ids.attending,
        courtId: null,
        circuitId: null,
        judgeId: null,
        decision: null,
        judgment: false,
        servedOn: null,
        nextDate: null,
        previousId: null,
      })
    ).id;
  });
  afterAll(async () => {
    for (const app of others) await app.close();
    await t.close();
  });

  it('seeds the holidays of Egypt and Saudi Arabia, and refuses a day no calendar has', async () => {
    const sa = (await get(`${HOLIDAYS}?country=SA&pageSize=100`)).json().data.items;
    expect(sa.map((h: { name: string }) => h.name).sort()).toEqual(
      ['اليوم الوطني', 'عيد الأضحى', 'عيد الفطر', 'يوم التأسيس', 'يوم عرفة'].sort(),
    );
    expect(sa.find((h: { name: string }) => h.name === 'عيد الفطر')).toMatchObject({
      kind: 'hijri',
      month: 10,
      day: 1,
      days: 3,
    });
    expect((await get(`${HOLIDAYS}?country=EG&pageSize=100`)).json().data.total).toBe(12);

    for (const [body, field] of [
      [{ kind: 'hijri', month: 9, day: 31 }, 'day'],
      [{ kind: 'hijri', month: 13, day: 1 }, 'month'],
      [{ kind: 'gregorian', month: 2, day: 30 }, 'day'],
      [{ kind: 'gregorian', month: 4, day: null }, 'day'],
      [{ kind: 'once', date: null }, 'date'],
      [{ kind: 'once', date: '2026-02-30' }, 'date'],
    ] as const) {
      const res = await send('POST', HOLIDAYS, { name: 'عطلة', country: 'SA', days: 1, ...body });
      expect([body, res.statusCode, Object.keys(res.json().errors ?? {})]).toEqual([body, 422, [field]]);
    }
    const ar = await send(
      'POST',
      HOLIDAYS,
      { name: 'عطلة', country: 'SA', kind: 'hijri', month: 2, day: 31 },
      'ar',
    );
    expect(ar.json().errors.day[0]).toMatch(/اليوم.*30/);
    expect((await get(`${HOLIDAYS}?country=SA`)).json().data.total).toBe(5);
  });

  it('refuses a rule with a period of zero, less, or too many months', async () => {
    for (const [amount, unit] of [
      [0, 'days'],
      [-5, 'days'],
      [121, 'months'],
    ] as const) {
      const res = await send('POST', RULES, {
        name: `bad ${nextSeq()}`,
        event: 'judgmentIssued',
        amount,
        unit,
        action: 'appeal',
      });
      expect([amount, res.statusCode, Object.keys(res.json().errors ?? {})]).toEqual([
        amount,
        422,
        ['amount'],
      ]);
    }
  });

  it('calculates a period on the office calendar: weekends, Eid, Hijri months, bad input', async () => {
    const calc = async (query: string, lang = 'en') => get(`${CALCULATE}?${query}`, lang);
    const eid = await calc('from=2026-03-11&amount=10&unit=days');
    expect(eid.statusCode).toBe(200);
    expect(eid.json().data).toEqual({
      due: '2026-03-23',
      dueHijri: '1447-10-04',
      shiftedFrom: '2026-03-21',
      skipped: [
        { date: '2026-03-21', reason: 'holiday', holiday: 'عيد الفطر' },
        { date: '2026-03-22', reason: 'holiday', holiday: 'عيد الفطر' },
      ],
      country: 'SA',
    });
    // Egypt on the same days: Eid too; Arabic-Indic digits read.
    expect((await calc('from=٢٠٢٦-٠٣-١١&amount=١٠&country=EG')).json().data.due).toBe('2026-03-23');
    const hijri = await calc('from=2026-03-19&amount=1&unit=months&calendar=hijri&shift=none');
    expect(hijri.json().data).toEqual({
      due: '2026-04-17',
      dueHijri: '1447-10-29',
      skipped: [],
      country: 'SA',
    });

    for (const [query, fields] of [
      ['from=2026-03-11&amount=0', ['amount']],
      ['from=2026-03-11&amount=-3', ['amount']],
      ['from=2026-02-30&amount=3', ['from']],
      ['amount=3', ['from']],
      ['from=2026-03-11&amount=3&unit=weeks&calendar=julian&country=FR', ['calendar', 'country', 'unit']],
      ['from=2077-01-01&amount=12&unit=months&calendar=hijri', ['from']],
    ] as const) {
      const res = await calc(query);
      expect([query, res.statusCode, Object.keys(res.json().errors ?? {}).sort()]).toEqual([
        query,
        422,
        fields,
      ]);
    }
    const ar = await calc('from=2026-03-11&amount=0', 'ar');
    expect(ar.json().errors.amount[0]).toContain('المدة');
  });

  it('a judgment recorded at a hearing creates the deadlines of the matching rules, once', async () => {
    // A decision that is not a judgment starts nothing of these rules.
    const decided = await send('PATCH', `${SESSIONS}/${ids.hearing}`, { decision: 'حجز الدعوى للحكم' });
    expect(decided.statusCode).toBe(200);
    expect(await deadlinesOf(ids.lawsuit)).toEqual([]);

    const judged = await send('PATCH', `${SESSIONS}/${ids.hearing}`, {
      decision: 'حكمت المحكمة بإلزام المدعى عليه بالمبلغ',
      judgment: true,
    });
    expect(judged.statusCode).toBe(200);
    // 11 March + 30 days = Friday 10 April: Sunday 12 April.
    expect(await deadlinesOf(ids.lawsuit)).toEqual([
      expect.objectContaining({
        ruleId: ids.appeal,
        action: 'appeal',
        event: 'judgmentIssued',
        sessionId: ids.hearing,
        startDate: '2026-03-11',
        dueDate: '2026-04-12',
        dueHijri: '1447-10-24',
        state: 'open',
        lawyerId: ids.lawyer,
        legalBasis: 'نظام المرافعات الشرعية، المادة 187',
      }),
    ]);

    // Served on 15 March (26 Ramadan): one Hijri month, 26 Shawwal, Tuesday 14 April.
    await send('PATCH', `${SESSIONS}/${ids.hearing}`, { servedOn: '2026-03-15' });
    // Saved again unchanged: nothing new.
    await send('PATCH', `${SESSIONS}/${ids.hearing}`, { servedOn: '2026-03-15', judgment: true });
    const all = await deadlinesOf(ids.lawsuit);
    expect(all.map((d) => [d.ruleId, d.dueDate, d.dueHijri])).toEqual([
      [ids.appeal, '2026-04-12', '1447-10-24'],
      [ids.served, '2026-04-14', '1447-10-26'],
    ]);
    ids.deadline = all[0]!.id as number;
  });

  it('changes a due date only with a reason (audited), closes and reopens', async () => {
    const url = `${DEADLINES_URL}/${ids.deadline}`;
    const noReason = await send('PATCH', `${url}/changeDue`, { dueDate: '2026-04-20' });
    expect([noReason.statusCode, Object.keys(noReason.json().errors)]).toEqual([422, ['reason']]);
    // Typed on create, the due date is then the action's (`setBy: 'create'`), as its state and
    // reason are: the engine's one message, naming each field.
    const forged = await send('PATCH', url, { dueDate: '2026-04-20', state: 'done', dueChangeReason: 'x' });
    expect([forged.statusCode, forged.json().errors]).toEqual([
      422,
      {
        dueDate: [expect.stringContaining('cannot be sent from a form')],
        state: [expect.stringContaining('cannot be sent from a form')],
        dueChangeReason: [expect.stringContaining('cannot be sent from a form')],
      },
    ]);
    const early = await send('PATCH', `${url}/changeDue`, { dueDate: '2026-03-01', reason: 'x' });
    expect([early.statusCode, Object.keys(early.json().errors)]).toEqual([422, ['dueDate']]);

    const changed = await send('PATCH', `${url}/changeDue`, {
      dueDate: '2026-04-20',
      reason: 'مدّت المحكمة الميعاد',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({
      dueDate: '2026-04-20',
      dueHijri: '1447-11-03',
      dueChangeReason: 'مدّت المحكمة الميعاد',
    });
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('entity', '=', 'deadlines')
      .where('entity_id', '=', ids.deadline)
      .where('action', '=', 'changeDue')
      .executeTakeFirstOrThrow();
    expect([JSON.parse(String(audit.before)).dueDate, JSON.parse(String(audit.after)).dueDate]).toEqual([
      '2026-04-12',
      '2026-04-20',
    ]);

    const closed = await send('PATCH', `${url}/close`, { state: 'done', note: 'قُدّمت صحيفة الاستئناف' });
    expect(closed.json().data).toMatchObject({ state: 'done', note: 'قُدّمت صحيفة الاستئناف' });
    expect((await send('PATCH', `${url}/close`, { state: 'waived' })).statusCode).toBe(409);
    expect((await send('PATCH', `${url}/changeDue`, { dueDate: '2026-04-21', reason: 'x' })).statusCode).toBe(
      409,
    );
    expect((await send('PATCH', `${url}/reopen`, {})).json().data.state).toBe('open');
  });

  it('lists deadlines due this week, overdue, and by lawyer', async () => {
    const count = async (query: string) =>
      (await get(`${DEADLINES_URL}?lawsuitId=${ids.lawsuit}&${query}`)).json().data.total as number;
    // 11 March: both fall due later than a week.
    expect([
      await count('dueWithinDays=7'),
      await count('overdue=true'),
      await count(`lawyerId=${ids.lawyer}`),
    ]).toEqual([0, 0, 2]);
    clock.now = new Date('2026-04-15T08:00:00Z');
    expect([
      await count('dueWithinDays=7'),
      await count('overdue=true'),
      await count('overdue=false'),
    ]).toEqual([1, 1, 1]);
    expect(await count('dueFrom=2026-04-14&dueTo=2026-04-14')).toBe(1);
    expect((await get(`${DEADLINES_URL}?dueWithinDays=400`)).statusCode).toBe(422);
  });

  it('reminds of a deadline 7, 3 and 1 days before, once across two instances', async () => {
    // The deadline due 20 April (its lawyer, also the lawsuit's) is 7 days away on 13 April.
    const sent = async () =>
      (
        await t.app.db
          .selectFrom('notifications')
          .select(['employee_id', 'key'])
          .where('key', 'like', `deadlineDue:${ids.deadline}:%`)
          .orderBy('id')
          .execute()
      ).map((r) => `${r.employee_id} ${r.key}`);
    const second = await buildApp(t.config, { clock: () => clock.now });
    others.push(second);
    const key = (threshold: number) => `deadlineDue:${ids.deadline}:${threshold}:2026-04-20`;
    // The jobs' first poll schedules their first run: the next 07:00.
    clock.now = new Date('2026-04-12T08:00:00Z');
    await Promise.all([t.app.scheduler.tick(), second.scheduler.tick()]);
    expect(await sent()).toEqual([]);
    // The morning run at 07:00 in the office's zone (Cairo, UTC+2): 05:00Z.
    for (const [now, expected] of [
      ['2026-04-13T05:00:00Z', [`${ids.lawyer} ${key(7)}`]],
      ['2026-04-17T05:00:00Z', [`${ids.lawyer} ${key(7)}`, `${ids.lawyer} ${key(3)}`]],
      [
        '2026-04-19T05:00:00Z',
        [`${ids.lawyer} ${key(7)}`, `${ids.lawyer} ${key(3)}`, `${ids.lawyer} ${key(1)}`],
      ],
    ] as const) {
      clock.now = new Date(now);
      const [a, b] = await Promise.all([t.app.scheduler.tick(), second.scheduler.tick()]);
      expect([...a, ...b].filter((name) => name === 'reminders.deadlineDue')).toHaveLength(1);
      expect(await sent()).toEqual(expected);
    }
  });

  it('closing the lawsuit with a judgment starts the rules no hearing started', async () => {
    const won = await createRow(t.app, admin.headers, 'lawsuitCases', { outcome: 'won' });
    const other = await createRow(t.app, admin.headers, 'lawsuits', {
      fileNumber: `D-${nextSeq()}`,
      filingDate: '2026-01-01',
      lawsuitTypeId: ids.civil,
      courtId: ids.court,
      circuitId: null,
      judgeId: null,
      lawyerIds: [ids.lawyer],
    });
    clock.now = new Date('2026-04-15T08:00:00Z');
    const closed = await send('PATCH', `${entityUrl('lawsuits')}/${other.id}/close`, {
      lawsuitCaseId: won.id,
    });
    expect(closed.statusCode).toBe(200);
    // 15 April + 30 days = Friday 15 May: Sunday 17 May.
    expect((await deadlinesOf(other.id)).map((d) => [d.ruleId, d.startDate, d.dueDate])).toEqual([
      [ids.appeal, '2026-04-15', '2026-05-17'],
    ]);
    // The first lawsuit's judgment was recorded at its hearing: closing it adds nothing.
    const before = (await deadlinesOf(ids.lawsuit)).length;
    await send('PATCH', `${entityUrl('lawsuits')}/${ids.lawsuit}/close`, { lawsuitCaseId: won.id });
    expect(await deadlinesOf(ids.lawsuit)).toHaveLength(before);
  });
});
