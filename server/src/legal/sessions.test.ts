import { API_BASE, SEEDED_ROLES, sessions, type SessionRow, LEGAL_ROUTES } from '@mizan/contracts';
import { AppError } from '../http/errors';
import { countRows, createRow, entityUrl } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

type Row = SessionRow & Record<string, unknown>;

const url = entityUrl(sessions);
const chainUrl = (id: number | string) =>
  API_BASE + LEGAL_ROUTES.sessionChain.path.replace(':id', String(id));

/** Today plus `days` in UTC, `YYYY-MM-DD`. */
const day = (days: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days))
    .toISOString()
    .slice(0, 10);
};

describe('seeded roles and hearings', () => {
  const role = (key: string) => SEEDED_ROLES.find((r) => r.key === key)!;
  it.each(['lawyer', 'secretary'])(
    'a %s views, creates, updates and postpones hearings, deletes none',
    (key) => {
      for (const action of ['view', 'create', 'update', 'postpone'])
        expect([action, role(key).permissions(`sessions.${action}`)]).toEqual([action, true]);
      expect(role(key).permissions('sessions.delete')).toBe(false);
    },
  );
});

describe.each(dialects())('lawsuit sessions (hearings) on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let court: number;
  let circuit: number;
  let judge: number;
  let otherCourt: number;
  let sessionType: number;
  let lawyer: number;
  let client: number;
  /** Filed on 2026-01-10 before court/circuit/judge above. */
  let lawsuit: number;

  const h = (lang = 'en') => ({ ...admin.headers, 'accept-language': lang });
  const count = (table: string) => countRows(t.app, table);
  const post = (payload: Record<string, unknown>, lang = 'en') =>
    t.app.inject({ method: 'POST', url, headers: h(lang), payload });
  const create = async (extra: Record<string, unknown> = {}) => {
    const res = await post({ lawsuitId: lawsuit, date: '2026-03-01', ...extra });
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    return res.json().data as Row;
  };
  const get = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: `${url}/${id}`, headers: h() })).json().data as Row;
  const postpone = (row: Row, body: Record<string, unknown>, lang = 'en') =>
    t.app.inject({
      method: 'PATCH',
      url: `${url}/${row.id}/postpone`,
      headers: h(lang),
      payload: { updatedAt: row.updatedAt, ...body },
    });
  /** A lawsuit of one client before court/circuit/judge, filed on 2026-01-10 unless told. */
  const newLawsuit = async (extra: Record<string, unknown> = {}) => {
    const res = await t.app.inject({
      method: 'POST',
      url: entityUrl('lawsuits'),
      headers: h(),
      payload: {
        customerIds: [client],
        courtId: court,
        circuitId: circuit,
        judgeId: judge,
        filingDate: '2026-01-10',
        ...extra,
      },
    });
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    return res.json().data.id as number;
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    court = (await createRow(t.app, admin.headers, 'courts')).id;
    otherCourt = (await createRow(t.app, admin.headers, 'courts')).id;
    circuit = (await createRow(t.app, admin.headers, 'circuits', { courtId: court })).id;
    judge = (await createRow(t.app, admin.headers, 'judges', { circuitId: circuit })).id;
    sessionType = (await createRow(t.app, admin.headers, 'sessionTypes')).id;
    lawyer = (await createRow(t.app, admin.headers, 'employees')).id;
    client = (await createRow(t.app, admin.headers, 'customers')).id;
    lawsuit = await newLawsuit();
  });
  afterAll(() => t.close());

  it('takes court, circuit and judge from the lawsuit when left blank; a time as HH:mm', async () => {
    const row = await create({ time: '9:30' });
    expect(row).toMatchObject({ courtId: court, circuitId: circuit, judgeId: judge, time: '09:30' });
    expect(row).toMatchObject({ nextId: null, previousId: null, decision: null, nextDate: null });
    // Another court: the lawsuit's circuit and judge are not of it, so they are not taken.
    const moved = await create({ courtId: otherCourt });
    expect(moved).toMatchObject({ courtId: otherCourt, circuitId: null, judgeId: null });
    const bad = await post({ lawsuitId: lawsuit, date: '2026-03-01', time: '24:10' });
    expect([bad.statusCode, Object.keys(bad.json().errors)]).toEqual([422, ['time']]);
    expect(bad.json().errors.time[0]).toContain('HH:mm');
  });

  it('a circuit not of the court, or a judge not of the circuit, is 422 on the field', async () => {
    const wrongCircuit = await post({
      lawsuitId: lawsuit,
      date: '2026-03-01',
      courtId: otherCourt,
      circuitId: circuit,
    });
    expect([wrongCircuit.statusCode, Object.keys(wrongCircuit.json().errors)]).toEqual([422, ['circuitId']]);
    const otherCircuit = (await createRow(t.app, admin.headers, 'circuits', { courtId: court })).id;
    const wrongJudge = await post({
      lawsuitId: lawsuit,
      date: '2026-03-01',
      circuitId: otherCircuit,
      judgeId: judge,
    });
    expect([wrongJudge.statusCode, Object.keys(wrongJudge.json().errors)]).toEqual([422, ['judgeId']]);
  });

  it('a hearing before the lawsuit was filed is 422 on date, also when the date changes later', async () => {
    const before = await count('lawsuit_sessions');
    const res = await post({ lawsuitId: lawsuit, date: '2026-01-09' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      date: ["Date cannot be before the lawsuit's filing date (2026-01-10)"],
    });
    const ar = await post({ lawsuitId: lawsuit, date: '2026-01-09' }, 'ar');
    expect(ar.json().errors.date[0]).toContain('2026-01-10');
    expect(await count('lawsuit_sessions')).toBe(before);
    const row = await create({ date: '2026-01-10' });
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `${url}/${row.id}`,
      headers: h(),
      payload: { date: '2025-12-31', updatedAt: row.updatedAt },
    });
    expect([patch.statusCode, Object.keys(patch.json().errors)]).toEqual([422, ['date']]);
    expect((await get(row.id)).date).toBe('2026-01-10');
  });

  it('previousId and nextDate are the chain’s, not a form’s', async () => {
    const first = await create();
    const res = await post({ lawsuitId: lawsuit, date: '2026-03-05', previousId: first.id });
    expect([res.statusCode, Object.keys(res.json().errors)]).toEqual([422, ['previousId']]);
    const next = await post({ lawsuitId: lawsuit, date: '2026-03-05', nextDate: '2026-04-01' });
    expect([next.statusCode, Object.keys(next.json().errors)]).toEqual([422, ['nextDate']]);
    // Sent back unchanged with a whole row (a form's PUT), they are accepted.
    const put = await t.app.inject({
      method: 'PUT',
      url,
      headers: h(),
      payload: { ...first, notes: 'ملاحظة', previousId: null, nextDate: null },
    });
    expect([put.statusCode, put.json().data?.notes]).toEqual([200, 'ملاحظة']);
  });

  it('postponing records the decision and next date and creates the next hearing, in one write', async () => {
    const first = await create({
      time: '10:00',
      sessionTypeId: sessionType,
      lawyerId: lawyer,
      requirements: 'مذكرة',
    });
    const audit = await count('audit_log');
    const res = await postpone(first, { decision: 'التأجيل للاطلاع', nextDate: '2026-04-12' });
    expect(res.statusCode).toBe(200);
    const after = res.json().data as Row;
    expect(after).toMatchObject({ decision: 'التأجيل للاطلاع', nextDate: '2026-04-12' });
    expect(after.nextId).toEqual(expect.any(Number));
    const next = await get(after.nextId!);
    expect(next).toMatchObject({
      lawsuitId: lawsuit,
      date: '2026-04-12',
      time: '10:00',
      courtId: court,
      circuitId: circuit,
      judgeId: judge,
      sessionTypeId: sessionType,
      lawyerId: lawyer,
      previousId: first.id,
      decision: null,
      nextDate: null,
      requirements: null,
    });
    // One entry for the postponement, one for the new hearing.
    const entries = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'entity_id'])
      .where('entity', '=', 'sessions')
      .orderBy('id')
      .execute();
    expect(entries.slice(-2).map((e) => [e.action, Number(e.entity_id)])).toEqual([
      ['create', next.id],
      ['postpone', first.id],
    ]);
    expect(await count('audit_log')).toBe(audit + 2);

    const again = await postpone(after, { decision: 'x', nextDate: '2026-05-01' });
    expect([again.statusCode, again.json().message]).toEqual([
      409,
      'This session has already been postponed to 2026-04-12: record the next postponement on that session',
    ]);
  });

  it('two postponements of one hearing sent at once make one next hearing; the other is 409', async () => {
    const row = await create({ date: '2026-06-01' });
    const send = (nextDate: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `${url}/${row.id}/postpone`,
        headers: h(),
        payload: { decision: 'تأجيل', nextDate },
      });
    const answers = await Promise.all([send('2026-06-10'), send('2026-06-20')]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const next = await t.app.db
      .selectFrom('lawsuit_sessions')
      .select('date')
      .where('previous_id', '=', row.id)
      .execute();
    expect(next).toHaveLength(1);
    expect((await get(row.id)).nextDate).toBe(String(next[0]!.date));
  });

  it('a next date not after the hearing is 422 on nextDate and changes nothing', async () => {
    const row = await create({ date: '2026-03-10' });
    const audit = await count('audit_log');
    const rows = await count('lawsuit_sessions');
    for (const nextDate of ['2026-03-10', '2026-03-09']) {
      const res = await postpone(row, { decision: 'تأجيل', nextDate });
      expect([res.statusCode, Object.keys(res.json().errors)]).toEqual([422, ['nextDate']]);
      expect(res.json().errors.nextDate[0]).toContain('2026-03-10');
    }
    const missing = await postpone(row, { decision: '  ' });
    expect([missing.statusCode, Object.keys(missing.json().errors).sort()]).toEqual([
      422,
      ['decision', 'nextDate'],
    ]);
    expect(await get(row.id)).toMatchObject({ decision: null, nextDate: null, updatedAt: row.updatedAt });
    expect([await count('audit_log'), await count('lawsuit_sessions')]).toEqual([audit, rows]);
  });

  it('when creating the next hearing fails, the hearing keeps no decision and nothing is audited', async () => {
    const row = await create({ date: '2026-03-11' });
    const audit = await count('audit_log');
    const rows = await count('lawsuit_sessions');
    // A module refusing the next hearing once it is inserted (inside the postponement's transaction).
    const remove = t.app.entities.hooks(sessions.name, {
      afterChange(_ctx, { action, after }) {
        if (action === 'create' && after?.previousId === row.id)
          throw new AppError('validation', { entity: 'sessions', errors: { date: ['refused'] } });
      },
    });
    try {
      const res = await postpone(row, { decision: 'تأجيل', nextDate: '2026-04-01' });
      expect([res.statusCode, res.json().errors]).toEqual([422, { date: ['refused'] }]);
    } finally {
      remove();
    }
    expect(await get(row.id)).toMatchObject({
      decision: null,
      nextDate: null,
      nextId: null,
      updatedAt: row.updatedAt,
    });
    expect([await count('audit_log'), await count('lawsuit_sessions')]).toEqual([audit, rows]);
    // Without the refusal the same postponement goes through.
    expect((await postpone(row, { decision: 'تأجيل', nextDate: '2026-04-01' })).statusCode).toBe(200);
  });

  it('the chain route answers the whole chain first to last from any of its hearings', async () => {
    const own = await newLawsuit();
    let current = await create({ lawsuitId: own, date: '2026-02-01' });
    const ids = [current.id];
    for (const nextDate of ['2026-02-15', '2026-03-01', '2026-03-20']) {
      const res = await postpone(current, { decision: `قرار ${nextDate}`, nextDate });
      current = await get((res.json().data as Row).nextId!);
      ids.push(current.id);
    }
    const lone = await create({ lawsuitId: own, date: '2026-02-02' });
    for (const id of ids) {
      const res = await t.app.inject({ method: 'GET', url: chainUrl(id), headers: h() });
      expect(res.statusCode).toBe(200);
      const items = res.json().data.items as Row[];
      expect(items.map((r) => r.id)).toEqual(ids);
      expect(items.map((r) => r.date)).toEqual(['2026-02-01', '2026-02-15', '2026-03-01', '2026-03-20']);
      expect(items.map((r) => r.nextId)).toEqual([...ids.slice(1), null]);
      expect(items[0]).toMatchObject({ court: expect.anything(), decision: 'قرار 2026-02-15' });
    }
    const single = await t.app.inject({ method: 'GET', url: chainUrl(lone.id), headers: h() });
    expect((single.json().data.items as Row[]).map((r) => r.id)).toEqual([lone.id]);
    for (const bad of ['999999', 'abc', '0'])
      expect((await t.app.inject({ method: 'GET', url: chainUrl(bad), headers: h() })).statusCode).toBe(404);
  });

  it('moving a postponed-to hearing keeps the previous next date in step; deleting it clears it', async () => {
    const first = await create({ date: '2026-05-01' });
    const next = await get(
      ((await postpone(first, { decision: 'تأجيل', nextDate: '2026-05-10' })).json().data as Row).nextId!,
    );
    const patch = (row: Row, date: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `${url}/${row.id}`,
        headers: h(),
        payload: { date, updatedAt: row.updatedAt },
      });
    const early = await patch(next, '2026-05-01');
    expect([early.statusCode, Object.keys(early.json().errors)]).toEqual([422, ['date']]);
    expect(early.json().errors.date[0]).toContain('2026-05-01');
    const moved = await patch(next, '2026-05-17');
    expect(moved.statusCode).toBe(200);
    expect(await get(first.id)).toMatchObject({ nextDate: '2026-05-17', nextId: next.id });
    // The first hearing cannot move past the one it was postponed to.
    const firstNow = await get(first.id);
    const late = await patch(firstNow, '2026-05-17');
    expect([late.statusCode, Object.keys(late.json().errors)]).toEqual([422, ['date']]);
    // Deleting the first while the next holds it: 409; deleting the next clears the next date.
    const held = await t.app.inject({ method: 'DELETE', url: `${url}/${first.id}`, headers: h() });
    expect(held.statusCode).toBe(409);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${url}/${next.id}`, headers: h() })).statusCode,
    ).toBe(200);
    expect(await get(first.id)).toMatchObject({ nextDate: null, nextId: null, decision: 'تأجيل' });
  });

  it('flags hearings past their date with no decision (list filter pastWithoutDecision)', async () => {
    const own = await newLawsuit({ filingDate: '2020-01-01' });
    // Days well away from today: the engine's today is the office's (its time zone), not UTC's.
    const past = await create({ lawsuitId: own, date: day(-2) });
    const decided = await create({ lawsuitId: own, date: day(-3), decision: 'حجز للحكم' });
    const soon = await create({ lawsuitId: own, date: day(2) });
    const future = await create({ lawsuitId: own, date: day(5) });
    const list = async (query: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `${url}?lawsuitId=${own}&pageSize=100&${query}`,
        headers: h(),
      });
      expect(res.statusCode).toBe(200);
      const page = res.json().data as { items: Row[]; total: number };
      expect(page.total).toBe(page.items.length);
      return page.items.map((r) => r.id).sort((a, b) => a - b);
    };
    expect(await list('pastWithoutDecision=true')).toEqual([past.id]);
    expect(await list('pastWithoutDecision=false')).toEqual(
      [decided.id, soon.id, future.id].sort((a, b) => a - b),
    );
    const bad = await t.app.inject({ method: 'GET', url: `${url}?pastWithoutDecision=maybe`, headers: h() });
    expect([bad.statusCode, Object.keys(bad.json().errors)]).toEqual([422, ['pastWithoutDecision']]);
    // A lawyer's own hearings are the lawyerId filter.
    const mine = await create({ lawsuitId: own, date: day(3), lawyerId: lawyer });
    expect(await list(`lawyerId=${lawyer}`)).toEqual([mine.id]);
  });

  it('lists a date range, both days included (the calendar’s month), with its total', async () => {
    const own = await newLawsuit();
    const dates = ['2026-01-31', '2026-02-01', '2026-02-14', '2026-02-28', '2026-03-01'];
    const rows = [];
    for (const date of dates) rows.push(await create({ lawsuitId: own, date }));
    const ids = async (query: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `${url}?lawsuitId=${own}&pageSize=100&sort=date:asc&${query}`,
        headers: h(),
      });
      expect([query, res.statusCode]).toEqual([query, 200]);
      const page = res.json().data as { items: Row[]; total: number };
      expect(page.total).toBe(page.items.length);
      return page.items.map((r) => r.date);
    };
    expect(await ids('from=2026-02-01&to=2026-02-28')).toEqual(['2026-02-01', '2026-02-14', '2026-02-28']);
    expect(await ids('from=2026-02-15')).toEqual(['2026-02-28', '2026-03-01']);
    expect(await ids('to=٢٠٢٦-٠١-٣١')).toEqual(['2026-01-31']);
    for (const bad of ['from=2026-02-30', 'to=tomorrow'])
      expect((await t.app.inject({ method: 'GET', url: `${url}?${bad}`, headers: h() })).statusCode).toBe(
        422,
      );
  });

  it('deleting a lawsuit that has hearings or payments is 409 naming them', async () => {
    const own = await newLawsuit({ agreedFee: 100000 });
    await create({ lawsuitId: own, date: '2026-02-01' });
    await create({ lawsuitId: own, date: '2026-02-02' });
    const payment = await t.app.inject({
      method: 'POST',
      url: entityUrl('lawsuitPayments'),
      headers: h(),
      payload: { lawsuitId: own, amount: 5000, paidOn: '2026-02-03' },
    });
    expect(payment.statusCode).toBe(201);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `${entityUrl('lawsuits')}/${own}`,
      headers: h(),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().heldBy).toEqual(
      expect.arrayContaining([
        { entity: 'sessions', count: 2 },
        { entity: 'lawsuitPayments', count: 1 },
      ]),
    );
    expect(res.json().message).toContain('Lawsuit sessions: 2');
    expect(res.json().message).toContain('Lawsuit payments: 1');
    const ar = await t.app.inject({
      method: 'DELETE',
      url: `${entityUrl('lawsuits')}/${own}`,
      headers: h('ar'),
    });
    expect(ar.json().message).toContain('جلسات الدعاوى: 2');
  });
});
