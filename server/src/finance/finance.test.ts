import {
  ALL_PERMISSIONS,
  API_BASE,
  EXPENSE_CATEGORY_SEEDS,
  TIMER_ROUTES,
  SEEDED_ROLES,
  expenseCategories,
  expenses,
  notificationChannel,
  timeEntries,
} from '@mizan/contracts';
import { countRows, createRow, createUserWith, entityUrl } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

type Row = Record<string, unknown> & { id: number; updatedAt: string };

const entriesUrl = entityUrl(timeEntries);
const expensesUrl = entityUrl(expenses);
const timer = (path: string) => API_BASE + path;
/** The permissions of a seeded role, as a fresh database gives them. */
const seeded = (key: string) =>
  ALL_PERMISSIONS.map((p) => p.key).filter(SEEDED_ROLES.find((r) => r.key === key)!.permissions);

describe.each(dialects())('time entries, expenses and the timer on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let lawyer: Session;
  let lawyerId: number;
  let other: Session;
  let otherId: number;
  let lawsuit: number;
  let now = new Date('2026-03-10T08:00:00Z');

  const h = (s: Session, lang = 'en') => ({ ...s.headers, 'accept-language': lang });
  const count = (table: string) => countRows(t.app, table);
  const post = (s: Session, url: string, payload: unknown = {}) =>
    t.app.inject({ method: 'POST', url, headers: h(s), payload: payload as object });
  const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: h(s) });
  const entry = async (s: Session, payload: Record<string, unknown>) => {
    const res = await post(s, entriesUrl, { lawsuitId: lawsuit, date: '2026-03-09', ...payload });
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    return res.json().data as Row;
  };
  const newLawsuit = async (extra: Record<string, unknown> = {}) => {
    const client = (await createRow(t.app, admin.headers, 'customers')).id;
    const res = await post(admin, entityUrl('lawsuits'), { customerIds: [client], ...extra });
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    return res.json().data.id as number;
  };
  const setRate = async (entity: 'employees' | 'lawsuits', id: number, hourlyRate: number | null) => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${entityUrl(entity)}/${id}`,
      headers: h(admin),
      payload: { hourlyRate },
    });
    expect([res.statusCode, res.json().errors]).toEqual([200, undefined]);
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { clock: () => now } });
    admin = await t.login();
    const a = await createUserWith(t.app, admin.headers, seeded('lawyer'));
    lawyer = await t.login(a.email, a.password);
    lawyerId = a.employeeId;
    const b = await createUserWith(t.app, admin.headers, seeded('lawyer'));
    other = await t.login(b.email, b.password);
    otherId = b.employeeId;
    lawsuit = await newLawsuit();
  });
  afterAll(() => t.close());

  it('give the lawyer their own time and expenses, the administrator everyone’s', () => {
    const lawyerKeys = seeded('lawyer');
    expect(lawyerKeys.filter((k) => /^(timeEntries|expenses|finance)\./.test(k)).sort()).toEqual([
      'expenses.create',
      'expenses.export',
      'expenses.update',
      'expenses.view',
      'timeEntries.create',
      'timeEntries.delete',
      'timeEntries.export',
      'timeEntries.update',
      'timeEntries.view',
    ]);
    expect(seeded('administrator')).toContain('finance.everyone');
    expect(
      seeded('secretary')
        .filter((k) => k.startsWith('expenses.'))
        .sort(),
    ).toEqual(['expenses.create', 'expenses.update', 'expenses.view']);
  });

  it('rate: the lawsuit’s overrides the employee’s, a given one overrides both; the amount is derived', async () => {
    await setRate('employees', lawyerId, 20_000); // 200.00 an hour
    const own = await entry(lawyer, { duration: 90 });
    expect(own).toMatchObject({ employeeId: lawyerId, duration: 90, rate: 20_000, amount: 30_000 });

    const special = await newLawsuit({ hourlyRate: 50_000 });
    const overridden = await entry(lawyer, { lawsuitId: special, duration: '0:45' });
    expect(overridden).toMatchObject({ duration: 45, rate: 50_000, amount: 37_500 });

    // An amount is not the client's to set: refused, naming it, and nothing is recorded.
    const entries = await count(timeEntries.table);
    const forged = await post(lawyer, entriesUrl, {
      lawsuitId: lawsuit,
      date: '2026-03-09',
      duration: 90,
      amount: 1,
    });
    expect([forged.statusCode, forged.json().errors]).toEqual([
      422,
      { amount: [expect.stringContaining('cannot be sent from a form')] },
    ]);
    expect(await count(timeEntries.table)).toBe(entries);
    const given = await entry(lawyer, { duration: '١٫٥', rate: 10_001 });
    // 1.5 × 100.01 = 150.015 → rounded half up to 150.02.
    expect(given).toMatchObject({ duration: 90, rate: 10_001, amount: 15_002 });

    await setRate('employees', otherId, null);
    const noRate = await entry(other, { duration: 30 });
    expect(noRate).toMatchObject({ rate: 0, amount: 0 });

    // Editing the duration derives the amount again; clearing the rate takes the default again.
    const longer = await t.app.inject({
      method: 'PATCH',
      url: `${entriesUrl}/${given.id}`,
      headers: h(lawyer),
      payload: { duration: '2:00' },
    });
    expect(longer.json().data).toMatchObject({ duration: 120, rate: 10_001, amount: 20_002 });
    const cleared = await t.app.inject({
      method: 'PATCH',
      url: `${entriesUrl}/${given.id}`,
      headers: h(lawyer),
      payload: { rate: null },
    });
    expect(cleared.json().data).toMatchObject({ duration: 120, rate: 20_000, amount: 40_000 });
  });

  it('a lawyer sees and edits only their own entries; the administrator everyone’s', async () => {
    const mine = await entry(lawyer, { duration: 60, description: 'mine' });
    const theirs = await entry(other, { duration: 60, description: 'theirs' });

    const listed = async (s: Session) =>
      ((await get(s, `${entriesUrl}?pageSize=100`)).json().data.items as Row[]).map((r) => r.id);
    expect(await listed(lawyer)).toContain(mine.id);
    expect(await listed(lawyer)).not.toContain(theirs.id);
    expect(await listed(admin)).toEqual(expect.arrayContaining([mine.id, theirs.id]));

    expect((await get(lawyer, `${entriesUrl}/${theirs.id}`)).statusCode).toBe(404);
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `${entriesUrl}/${theirs.id}`,
      headers: h(lawyer),
      payload: { description: 'changed' },
    });
    expect(edit.statusCode).toBe(404);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${entriesUrl}/${theirs.id}`,
      headers: h(lawyer),
    });
    expect(del.statusCode).toBe(404);
    expect((await get(admin, `${entriesUrl}/${theirs.id}`)).json().data.description).toBe('theirs');

    // Recording time for a colleague, or moving one's entry to them, is refused.
    const before = await count(timeEntries.table);
    const forOther = await post(lawyer, entriesUrl, {
      lawsuitId: lawsuit,
      date: '2026-03-09',
      duration: 30,
      employeeId: otherId,
    });
    expect([forOther.statusCode, Object.keys(forOther.json().errors)]).toEqual([422, ['employeeId']]);
    const moved = await t.app.inject({
      method: 'PATCH',
      url: `${entriesUrl}/${mine.id}`,
      headers: h(lawyer),
      payload: { employeeId: otherId },
    });
    expect(moved.statusCode).toBe(422);
    expect(await count(timeEntries.table)).toBe(before);

    // The administrator records for anyone.
    const byAdmin = await entry(admin, { duration: 15, employeeId: otherId });
    expect(byAdmin.employeeId).toBe(otherId);
  });

  it.each([
    ['duration 0', { duration: 0 }, 'duration'],
    ['duration over 24 h', { duration: 1441 }, 'duration'],
    ['duration 24:01 as text', { duration: '24:01' }, 'duration'],
    ['duration not a length of time', { duration: 'soon' }, 'duration'],
    ['duration of a fraction of a minute', { duration: '0.01' }, 'duration'],
    ['a negative rate', { duration: 30, rate: -100 }, 'rate'],
    ['an unknown lawsuit', { duration: 30, lawsuitId: 999_999 }, 'lawsuitId'],
    ['no date', { duration: 30, date: null }, 'date'],
  ])('a time entry with %s is 422 on that field, nothing stored', async (_what, payload, field) => {
    const before = await count(timeEntries.table);
    const res = await post(lawyer, entriesUrl, { lawsuitId: lawsuit, date: '2026-03-09', ...payload });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual([field]);
    expect(await count(timeEntries.table)).toBe(before);
  });

  it('expense categories start with the seeded kinds, in both languages', async () => {
    const res = await get(admin, `${entityUrl(expenseCategories)}?pageSize=100`);
    expect((res.json().data.items as Row[]).map((r) => [r.name, r.nameEn])).toEqual(
      EXPENSE_CATEGORY_SEEDS.map((c) => [c.name, c.nameEn]),
    );
  });

  it('records an expense; zero, negative or fractional amounts and unknown references are 422', async () => {
    const categories = (await get(admin, `${entityUrl(expenseCategories)}?pageSize=100`)).json().data
      .items as Row[];
    const courtFees = categories[0]!.id;
    const res = await post(lawyer, expensesUrl, {
      lawsuitId: lawsuit,
      date: '2026-03-09',
      amount: 12_550,
      categoryId: courtFees,
      paidBy: 'retainer',
      billable: true,
    });
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    expect(res.json().data).toMatchObject({ amount: 12_550, paidBy: 'retainer', billable: true });

    const before = await count(expenses.table);
    for (const [payload, field] of [
      [{ amount: 0 }, 'amount'],
      [{ amount: -500 }, 'amount'],
      [{ amount: 10.5 }, 'amount'],
      [{ amount: 100, categoryId: 999_999 }, 'categoryId'],
      [{ amount: 100, lawsuitId: 999_999 }, 'lawsuitId'],
      [{ amount: 100, paidBy: 'bank' }, 'paidBy'],
    ] as const) {
      const bad = await post(lawyer, expensesUrl, {
        lawsuitId: lawsuit,
        date: '2026-03-09',
        categoryId: courtFees,
        ...payload,
      });
      expect([bad.statusCode, Object.keys(bad.json().errors ?? {})]).toEqual([422, [field]]);
    }
    expect(await count(expenses.table)).toBe(before);
  });

  it('the timer survives a sign-out, pauses, resumes and becomes an entry', async () => {
    const me = await createUserWith(t.app, admin.headers, seeded('lawyer'));
    let session = await t.login(me.email, me.password);
    expect((await get(session, timer(TIMER_ROUTES.get.path))).json().data).toBeNull();
    // Nothing to pause or stop yet; a lawsuit is needed, and must exist.
    expect((await post(session, timer(TIMER_ROUTES.stop.path))).statusCode).toBe(409);
    const noLawsuit = await post(session, timer(TIMER_ROUTES.start.path), {});
    expect([noLawsuit.statusCode, Object.keys(noLawsuit.json().errors)]).toEqual([422, ['lawsuitId']]);
    const unknown = await post(session, timer(TIMER_ROUTES.start.path), { lawsuitId: 999_999 });
    expect([unknown.statusCode, Object.keys(unknown.json().errors)]).toEqual([422, ['lawsuitId']]);

    now = new Date('2026-03-10T08:00:00Z');
    const started = await post(session, timer(TIMER_ROUTES.start.path), { lawsuitId: lawsuit });
    expect(started.json().data).toMatchObject({
      lawsuitId: lawsuit,
      elapsedSeconds: 0,
      runningSince: now.toISOString(),
    });
    // Every tab of the employee hears of it on their channel.
    expect(t.published).toContainEqual({
      channel: notificationChannel(me.employeeId),
      message: { type: 'timer', channel: notificationChannel(me.employeeId), data: started.json().data },
    });
    const other = await newLawsuit();
    expect((await post(session, timer(TIMER_ROUTES.start.path), { lawsuitId: other })).statusCode).toBe(409);

    // Signed out for lunch; back on another device 50 minutes later, the timer still counts.
    expect((await post(session, '/api/auth/logout')).statusCode).toBe(200);
    now = new Date('2026-03-10T08:50:00Z');
    session = await t.login(me.email, me.password);
    const running = (await get(session, timer(TIMER_ROUTES.get.path))).json().data;
    expect(running).toMatchObject({
      lawsuitId: lawsuit,
      elapsedSeconds: 0,
      runningSince: '2026-03-10T08:00:00.000Z',
    });

    const paused = await post(session, timer(TIMER_ROUTES.pause.path));
    expect(paused.json().data).toMatchObject({ elapsedSeconds: 3000, runningSince: null });
    now = new Date('2026-03-10T12:00:00Z'); // paused time does not count
    expect((await post(session, timer(TIMER_ROUTES.start.path))).json().data).toMatchObject({
      lawsuitId: lawsuit,
      elapsedSeconds: 3000,
      runningSince: now.toISOString(),
    });
    now = new Date('2026-03-10T12:40:29Z');

    const before = await count(timeEntries.table);
    const stopped = await post(session, timer(TIMER_ROUTES.stop.path), { description: 'Drafted the memo' });
    expect([stopped.statusCode, stopped.json().errors]).toEqual([200, undefined]);
    expect(stopped.json().data).toMatchObject({
      employeeId: me.employeeId,
      lawsuitId: lawsuit,
      date: '2026-03-10',
      duration: 90, // 50 min + 40 min 29 s, to the nearest minute
      description: 'Drafted the memo',
      billable: true,
    });
    expect(await count(timeEntries.table)).toBe(before + 1);
    expect((await get(session, timer(TIMER_ROUTES.get.path))).json().data).toBeNull();
  });

  it('a timer run past 24 hours is 422 on duration and stays, to be discarded', async () => {
    const me = await createUserWith(t.app, admin.headers, seeded('lawyer'));
    const session = await t.login(me.email, me.password);
    now = new Date('2026-03-11T08:00:00Z');
    await post(session, timer(TIMER_ROUTES.start.path), { lawsuitId: lawsuit });
    now = new Date('2026-03-12T08:01:00Z');
    const before = await count(timeEntries.table);
    const stopped = await post(session, timer(TIMER_ROUTES.stop.path));
    expect([stopped.statusCode, Object.keys(stopped.json().errors)]).toEqual([422, ['duration']]);
    expect(await count(timeEntries.table)).toBe(before);
    expect((await get(session, timer(TIMER_ROUTES.get.path))).json().data).toMatchObject({
      lawsuitId: lawsuit,
    });
    const discarded = await t.app.inject({
      method: 'DELETE',
      url: timer(TIMER_ROUTES.get.path),
      headers: h(session),
    });
    expect(discarded.statusCode).toBe(200);
    expect((await get(session, timer(TIMER_ROUTES.get.path))).json().data).toBeNull();
  });
});
