import {
  API_BASE,
  AREA_PERMISSIONS,
  DASHBOARD,
  DASHBOARD_ROUTES,
  dashboard as dashboardSchema,
  type Dashboard,
} from '@mizan/contracts';
import { createRow, createUserWith, entityUrl } from '../test/fixtures';
import { createTestApp, type Session, type TestApp, splitDialects } from '../test/harness';
import { spans, splitRange } from './figures';
import { STATS_TABLE, rebuildStats, storedStats } from './stats';
import { comparableStats, keptAndRecounted } from '../test/stats';

const url = API_BASE + DASHBOARD_ROUTES.get.path;
/** The office's day in these tests: 2026-06-15 (the trend runs 2025-07 … 2026-06). */
const TODAY = new Date('2026-06-15T09:00:00Z');
let now = TODAY;
const clock = () => now;
/** Runs `write` at `instant` (a task's state records when it was set), then back to today. */
async function at<T>(instant: string, write: () => Promise<T>): Promise<T> {
  now = new Date(instant);
  try {
    return await write();
  } finally {
    now = TODAY;
  }
}

describe('splitRange', () => {
  it.each([
    [undefined, undefined, { all: true, months: [null, null], edges: [] }],
    ['2026-01-01', '2026-03-31', { all: false, months: ['2026-01', '2026-03'], edges: [] }],
    [
      '2026-01-15',
      '2026-04-29',
      {
        all: false,
        months: ['2026-02', '2026-03'],
        edges: [
          ['2026-01-15', '2026-01-31'],
          ['2026-04-01', '2026-04-29'],
        ],
      },
    ],
    ['2026-02-03', '2026-02-10', { all: false, months: null, edges: [['2026-02-03', '2026-02-10']] }],
    ['2026-02-01', '2026-02-10', { all: false, months: null, edges: [['2026-02-01', '2026-02-10']] }],
    [
      '2026-02-10',
      undefined,
      { all: false, months: ['2026-03', null], edges: [['2026-02-10', '2026-02-28']] },
    ],
    [undefined, '2026-02-28', { all: false, months: [null, '2026-02'], edges: [] }],
  ])('%s … %s', (from, to, expected) => {
    expect(splitRange(from, to)).toEqual(expected);
  });
});

describe('spans', () => {
  it.each([
    [null, null, { years: [{ first: '0000', last: '9999' }], months: [] }],
    ['2025-01', '2025-12', { years: [{ first: '2025', last: '2025' }], months: [] }],
    [
      '2024-11',
      '2026-02',
      {
        years: [{ first: '2025', last: '2025' }],
        months: [
          { first: '2024-11', last: '2024-12' },
          { first: '2026-01', last: '2026-02' },
        ],
      },
    ],
    ['2025-12', '2026-10', { years: [], months: [{ first: '2025-12', last: '2026-10' }] }],
    [
      null,
      '2025-06',
      { years: [{ first: '0000', last: '2024' }], months: [{ first: '2025-01', last: '2025-06' }] },
    ],
  ])('%s … %s', (first, last, expected) => {
    expect(spans(first, last)).toEqual(expected);
  });
});

describe.each(splitDialects())('dashboard on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const ids: Record<string, number> = {};

  const h = (session: Session = admin, lang = 'en') => ({ ...session.headers, 'accept-language': lang });
  const read = async (query = '', session: Session = admin): Promise<Dashboard> => {
    const res = await t.app.inject({ method: 'GET', url: `${url}${query}`, headers: h(session) });
    expect([res.statusCode, res.json().errors]).toEqual([200, undefined]);
    const data = res.json().data as Dashboard;
    expect(dashboardSchema.strict().safeParse(data).success).toBe(true);
    return data;
  };
  const post = async (entity: string, payload: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url: entityUrl(entity), headers: h(), payload });
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    return res.json().data as { id: number; updatedAt: string } & Record<string, unknown>;
  };
  const action = async (path: string, payload: Record<string, unknown> = {}) => {
    const res = await t.app.inject({ method: 'PATCH', url: `${API_BASE}${path}`, headers: h(), payload });
    expect([res.statusCode, res.json().errors]).toEqual([200, undefined]);
    return res.json().data;
  };
  const session = async (permissions: string[]) => {
    const user = await createUserWith(t.app, admin.headers, permissions);
    return t.login(user.email, user.password);
  };
  const employeesTotal = async () =>
    (await t.app.inject({ method: 'GET', url: entityUrl('employees'), headers: h() })).json().data
      .total as number;
  let viewer: Session;
  let performanceViewer: Session;
  let nobody: Session;

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { clock } });
    admin = await t.login();
    viewer = await session([AREA_PERMISSIONS.dashboardView]);
    performanceViewer = await session([
      AREA_PERMISSIONS.dashboardView,
      AREA_PERMISSIONS.dashboardPerformance,
    ]);
    nobody = await session(['courts.view']);

    ids.b1 = (await createRow(t.app, admin.headers, 'branches')).id;
    ids.b2 = (await createRow(t.app, admin.headers, 'branches')).id;
    ids.c1 = (await createRow(t.app, admin.headers, 'courts', { courtType: 'criminal' })).id;
    ids.c2 = (await createRow(t.app, admin.headers, 'courts', { courtType: 'commercial' })).id;
    ids.won = (await createRow(t.app, admin.headers, 'lawsuitCases', { outcome: 'won' })).id;
    ids.lost = (await createRow(t.app, admin.headers, 'lawsuitCases', { outcome: 'lost' })).id;
    ids.ongoing = (await createRow(t.app, admin.headers, 'lawsuitCases', { outcome: 'ongoing' })).id;
    ids.e1 = (
      await createRow(t.app, admin.headers, 'employees', { name: 'Lawyer One', branchId: ids.b1 })
    ).id;
    ids.e2 = (
      await createRow(t.app, admin.headers, 'employees', { name: 'Lawyer Two', branchId: ids.b2 })
    ).id;
    ids.k1 = (await createRow(t.app, admin.headers, 'customers', { branchId: ids.b1 })).id;
    ids.k2 = (await createRow(t.app, admin.headers, 'customers', { branchId: null })).id;

    const lawsuit = (extra: Record<string, unknown>) => post('lawsuits', { customerIds: [ids.k1], ...extra });
    const l1 = await lawsuit({
      filingDate: '2026-01-10',
      branchId: ids.b1,
      courtId: ids.c1,
      lawsuitCaseId: ids.ongoing,
      lawyerIds: [ids.e1],
      agreedFee: 100_000,
    });
    const l2 = await lawsuit({
      filingDate: '2026-02-20',
      branchId: ids.b1,
      courtId: ids.c2,
      lawyerIds: [ids.e1, ids.e2],
      agreedFee: 50_000,
    });
    const l3 = await lawsuit({
      filingDate: '2026-04-05',
      branchId: ids.b2,
      courtId: ids.c1,
      lawsuitCaseId: ids.ongoing,
      lawyerIds: [ids.e2],
    });
    const l4 = await lawsuit({ customerIds: [ids.k2], agreedFee: 20_000 });
    // A new lawsuit starts at the pending case; this one's case is then cleared (none recorded).
    expect(l4.lawsuitCaseId).toBe(ids.ongoing);
    await action(`/admin/lawsuits/${l4.id}`, { lawsuitCaseId: null });
    const l5 = await lawsuit({
      filingDate: '2025-05-01',
      branchId: ids.b2,
      courtId: ids.c2,
      lawsuitCaseId: ids.won,
      lawyerIds: [ids.e1],
      agreedFee: 10_000,
    });
    Object.assign(ids, { l1: l1.id, l2: l2.id, l3: l3.id, l4: l4.id, l5: l5.id });
    await action(`/admin/lawsuits/${l1.id}/close`, { lawsuitCaseId: ids.won });
    await action(`/admin/lawsuits/${l2.id}/close`, { lawsuitCaseId: ids.lost });
    // Closed and reopened, then closed again: counted once, by its last state.
    await action(`/admin/lawsuits/${l2.id}/reopen`);
    await action(`/admin/lawsuits/${l2.id}/close`, { lawsuitCaseId: ids.lost });

    await post('lawsuitPayments', { lawsuitId: l1.id, amount: 60_000, paidOn: '2026-02-01', method: 'cash' });
    await post('lawsuitPayments', { lawsuitId: l2.id, amount: 50_000, paidOn: '2026-03-01', method: 'cash' });
    await post('lawsuitPayments', {
      lawsuitId: l3.id,
      amount: 1_000,
      paidOn: '2026-04-06',
      method: 'cash',
      overpayment: true,
    });

    const h1 = await post('sessions', { lawsuitId: l1.id, date: '2026-01-20', lawyerId: ids.e1 });
    const postponed = await action(`/admin/lawsuits/sessions/${h1.id}/postpone`, {
      decision: 'Adjourned for the defence',
      nextDate: '2026-02-01',
    });
    ids.h1 = h1.id;
    ids.h2 = postponed.nextId;
    ids.h3 = (
      await post('sessions', { lawsuitId: l3.id, date: '2026-06-20', time: '10:00', lawyerId: ids.e2 })
    ).id;
    ids.h4 = (await post('sessions', { lawsuitId: l2.id, date: '2026-07-01' })).id;

    // Tasks done: one of L1's (branch 1) in February, one without a lawsuit for both lawyers in
    // March; one of L3's still in progress.
    const tasks = t.app.entities.get('tasks');
    const task = async (fields: Record<string, unknown>, state: string, instant: string) => {
      const { id } = await tasks.create({ user: null }, { title: 'Task', ...fields });
      await at(instant, () => tasks.runAction({ user: null }, 'status', id, { state }));
    };
    await task({ assigneeIds: [ids.e1], lawsuitId: l1.id }, 'done', '2026-02-10T10:00:00.000Z');
    await task({ assigneeIds: [ids.e1, ids.e2] }, 'done', '2026-03-05T08:00:00.000Z');
    await task({ assigneeIds: [ids.e2], lawsuitId: l3.id }, 'inProgress', '2026-03-05T08:00:00.000Z');
    // About sixty writes through HTTP: slow on a loaded machine.
  }, 120_000);
  afterAll(() => t.close());

  it('answers every figure of a hand-computed office', async () => {
    const d = await read();
    expect(d.counts).toEqual({
      customers: 2,
      lawsuits: 5,
      employees: await employeesTotal(),
      sessions: 4,
      activeLawsuits: 3,
      completedLawsuits: 2,
    });
    // Closed: L1 won, L2 lost; L5's case is a won one but it is still open, so not counted: 1 / 2.
    expect(d.rates).toEqual({ successRate: 50 });
    expect(d.upcomingSessions).toEqual([
      {
        id: ids.h3,
        date: '2026-06-20',
        time: '10:00',
        lawsuit: { id: ids.l3, fileNumber: expect.any(String) },
        court: { id: ids.c1, name: expect.any(String) },
        lawyer: { id: ids.e2, name: 'Lawyer Two' },
      },
      {
        id: ids.h4,
        date: '2026-07-01',
        time: null,
        lawsuit: { id: ids.l2, fileNumber: expect.any(String) },
        court: { id: ids.c2, name: expect.any(String) },
        lawyer: null,
      },
    ]);
    expect(d.recentLawsuits.map((l) => l.id)).toEqual([ids.l5, ids.l4, ids.l3, ids.l2, ids.l1]);
    expect(d.recentLawsuits[3]).toMatchObject({
      filingDate: '2026-02-20',
      state: 'completed',
      court: { id: ids.c2 },
      lawsuitCase: { id: ids.lost, outcome: 'lost' },
    });
    const distribution = Object.fromEntries(
      d.lawsuitStatusDistribution.map((s) => [s.lawsuitCaseId ?? 0, s]),
    );
    expect(Object.keys(distribution)).toHaveLength(4);
    expect(distribution[ids.won!]).toMatchObject({ count: 2, outcome: 'won' });
    expect(distribution[ids.lost!]).toMatchObject({ count: 1, outcome: 'lost' });
    expect(distribution[ids.ongoing!]).toMatchObject({ count: 1, outcome: 'ongoing' });
    expect(distribution[0]).toEqual({
      lawsuitCaseId: null,
      name: null,
      color: null,
      outcome: null,
      count: 1,
    });
    expect(d.monthlyLawsuitTrend).toEqual([
      { month: '2025-07', count: 0 },
      { month: '2025-08', count: 0 },
      { month: '2025-09', count: 0 },
      { month: '2025-10', count: 0 },
      { month: '2025-11', count: 0 },
      { month: '2025-12', count: 0 },
      { month: '2026-01', count: 1 },
      { month: '2026-02', count: 1 },
      { month: '2026-03', count: 0 },
      { month: '2026-04', count: 1 },
      { month: '2026-05', count: 0 },
      { month: '2026-06', count: 0 },
    ]);
    expect(new Set(d.courtTypeDistribution)).toEqual(
      new Set([
        { courtType: 'criminal', count: 2 },
        { courtType: 'commercial', count: 2 },
        { courtType: null, count: 1 },
      ]),
    );
    expect(d.employeePerformance).toEqual([
      {
        employeeId: ids.e1,
        name: 'Lawyer One',
        lawsuits: 3,
        won: 2,
        lost: 1,
        hearings: 2,
        hearingsAttended: 1,
        tasksDone: 2,
      },
      {
        employeeId: ids.e2,
        name: 'Lawyer Two',
        lawsuits: 2,
        won: 0,
        lost: 1,
        hearings: 1,
        hearingsAttended: 0,
        tasksDone: 1,
      },
    ]);
    // Agreed 100 000 + 50 000 + 20 000 + 10 000; paid 60 000 + 50 000 + 1 000 (an overpayment
    // on a lawsuit with no fee); pending per lawsuit 40 000 + 0 + 0 + 20 000 + 10 000.
    expect(d.financialStatistics).toEqual({
      totalFees: 180_000,
      paidFees: 111_000,
      pendingFees: 70_000,
      collectionRate: 62,
    });
  });

  it('limits lawsuits by filing date and hearings by date, whole months and partial edges alike', async () => {
    const d = await read('?from=2026-01-15&to=2026-04-29');
    expect(d.counts).toMatchObject({ lawsuits: 2, activeLawsuits: 1, completedLawsuits: 1, sessions: 2 });
    expect(d.rates.successRate).toBe(0);
    expect(d.upcomingSessions).toEqual([]);
    expect(d.recentLawsuits.map((l) => l.id)).toEqual([ids.l3, ids.l2]);
    expect(d.monthlyLawsuitTrend.slice(-4)).toEqual([
      { month: '2026-01', count: 0 },
      { month: '2026-02', count: 1 },
      { month: '2026-03', count: 0 },
      { month: '2026-04', count: 1 },
    ]);
    expect(d.monthlyLawsuitTrend[0]).toEqual({ month: '2025-05', count: 0 });
    expect(new Set(d.courtTypeDistribution)).toEqual(
      new Set([
        { courtType: 'criminal', count: 1 },
        { courtType: 'commercial', count: 1 },
      ]),
    );
    expect(d.employeePerformance).toEqual([
      expect.objectContaining({
        employeeId: ids.e2,
        lawsuits: 2,
        won: 0,
        lost: 1,
        hearings: 0,
        tasksDone: 1,
      }),
      expect.objectContaining({
        employeeId: ids.e1,
        lawsuits: 1,
        won: 0,
        lost: 1,
        hearings: 2,
        hearingsAttended: 1,
        tasksDone: 2,
      }),
    ]);
    expect(d.financialStatistics).toEqual({
      totalFees: 50_000,
      paidFees: 51_000,
      pendingFees: 0,
      collectionRate: 102,
    });
    // A range inside one month is all edge; one of whole months is all aggregates.
    expect((await read('?from=2026-01-12&to=2026-01-25')).counts).toMatchObject({ lawsuits: 0, sessions: 1 });
    expect((await read('?from=2026-01-01&to=2026-02-28')).counts).toMatchObject({ lawsuits: 2, sessions: 2 });
    expect((await read('?from=2026-06-16')).upcomingSessions.map((s) => s.id)).toEqual([ids.h3, ids.h4]);
    // Tasks by the day they were done: 2026-03-05 is an edge here, February a whole month.
    const tasksOf = async (query: string) =>
      Object.fromEntries((await read(query)).employeePerformance!.map((p) => [p.employeeId, p.tasksDone]));
    expect(await tasksOf('?from=2026-02-10&to=2026-03-04')).toEqual({ [ids.e1!]: 1, [ids.e2!]: 0 });
    expect(await tasksOf('?from=2026-03-05&to=2026-03-05')).toEqual({ [ids.e1!]: 1, [ids.e2!]: 1 });
    // Whole years and the months around them (2025-05 … 2026-12: a year's rows and month rows).
    const years = await read('?from=2024-12-01&to=2026-12-31');
    expect(years.counts).toMatchObject({ lawsuits: 4, sessions: 4 });
    expect((await read('?from=2025-01-01&to=2025-12-31')).counts).toMatchObject({ lawsuits: 1, sessions: 0 });
    expect((await read('?to=2025-12-31')).counts).toMatchObject({ lawsuits: 1 });
    expect((await read('?from=2026-01-01')).counts).toMatchObject({ lawsuits: 3, sessions: 4 });
  });

  it('limits everything to one branch', async () => {
    const d = await read(`?branchId=${ids.b1}`);
    expect(d.counts).toEqual({
      customers: 1,
      lawsuits: 2,
      employees: 1,
      sessions: 3,
      activeLawsuits: 0,
      completedLawsuits: 2,
    });
    expect(d.rates.successRate).toBe(50);
    expect(d.upcomingSessions.map((s) => s.id)).toEqual([ids.h4]);
    expect(d.recentLawsuits.map((l) => l.id)).toEqual([ids.l2, ids.l1]);
    expect(d.employeePerformance).toEqual([
      expect.objectContaining({
        employeeId: ids.e1,
        lawsuits: 2,
        won: 1,
        lost: 1,
        hearings: 2,
        hearingsAttended: 1,
        tasksDone: 1,
      }),
      expect.objectContaining({
        employeeId: ids.e2,
        lawsuits: 1,
        won: 0,
        lost: 1,
        hearings: 0,
        tasksDone: 0,
      }),
    ]);
    expect(d.financialStatistics).toEqual({
      totalFees: 150_000,
      paidFees: 110_000,
      pendingFees: 40_000,
      collectionRate: 73,
    });
    const both = await read(`?branchId=${ids.b2}&from=2026-01-01&to=2026-12-31`);
    expect(both.counts).toMatchObject({ lawsuits: 1, sessions: 1, customers: 0, employees: 1 });
  });

  it('leaves out per-lawyer figures and fees without their permissions, and refuses a reader without dashboard.view', async () => {
    const plain = await read('', viewer);
    expect(plain).not.toHaveProperty('employeePerformance');
    expect(plain).not.toHaveProperty('financialStatistics');
    expect(plain).not.toHaveProperty('invoicing');
    expect(plain.counts.lawsuits).toBe(5);
    const withPerformance = await read('', performanceViewer);
    expect(withPerformance.employeePerformance).toHaveLength(2);
    expect(withPerformance).not.toHaveProperty('financialStatistics');
    const res = await t.app.inject({ method: 'GET', url, headers: h(nobody) });
    expect(res.statusCode).toBe(403);
  });

  it.each([
    ['?from=2026-05-01&to=2026-04-01', 'from'],
    ['?from=2026-02-30', 'from'],
    ['?to=yesterday', 'to'],
    ['?branchId=999999', 'branchId'],
    ['?branchId=abc', 'branchId'],
  ])('%s is 422 on %s', async (query, field) => {
    const res = await t.app.inject({ method: 'GET', url: `${url}${query}`, headers: h(admin, 'ar') });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual([field]);
    expect(res.json().errors[field][0]).toMatch(/[\u0600-\u06FF]/);
  });

  it('reads Eastern digits in the query', async () => {
    const d = await read('?from=٢٠٢٦-٠١-٠١&to=٢٠٢٦-٠٢-٢٨');
    expect(d.counts.lawsuits).toBe(2);
  });

  it('serves a write at once: the cache is dropped by the change', async () => {
    const before = await read();
    await post('lawsuits', { customerIds: [ids.k1], filingDate: '2026-06-01', agreedFee: 5_000 });
    const after = await read();
    expect(after.counts.lawsuits).toBe(before.counts.lawsuits + 1);
    expect(after.financialStatistics!.totalFees).toBe(before.financialStatistics!.totalFees + 5_000);
    expect(after.monthlyLawsuitTrend.at(-1)).toEqual({ month: '2026-06', count: 1 });
  });

  it('sums the invoicing figures from the finance reports, for the office and per branch, at once after an invoice is issued', async () => {
    const before = (await read()).invoicing!;
    const invoice = await post('invoices', { customerId: ids.k1 });
    await post('invoiceLines', { invoiceId: invoice.id, description: 'Advice', unitPrice: 10_000 });
    const res = await t.app.inject({
      method: 'POST',
      url: `${entityUrl('invoices')}/${invoice.id}/issue`,
      headers: h(),
    });
    expect(res.statusCode).toBe(200);
    const after = (await read()).invoicing!;
    expect(after).toEqual({
      ...before,
      revenue: before.revenue + 10_000,
      receivables: before.receivables + Number(res.json().data.total),
    });
    expect(await read('', viewer)).not.toHaveProperty('invoicing');

    // A branch's figures are its lawsuits' money: an invoice of no lawsuit counts for the office only.
    const inB1 = (await read(`?branchId=${ids.b1}`)).invoicing!;
    const inB2 = (await read(`?branchId=${ids.b2}`)).invoicing!;
    const suit = await post('lawsuits', { customerIds: [ids.k1], branchId: ids.b1 });
    const billed = await post('invoices', { customerId: ids.k1, lawsuitId: suit.id });
    await post('invoiceLines', { invoiceId: billed.id, description: 'Pleading', unitPrice: 20_000 });
    await post('feeInstalments', { lawsuitId: suit.id, dueDate: '2026-06-15', amount: 7_000 });
    const issued = await t.app.inject({
      method: 'POST',
      url: `${entityUrl('invoices')}/${billed.id}/issue`,
      headers: h(),
    });
    expect(issued.statusCode).toBe(200);
    const total = Number(issued.json().data.total);
    await post('payments', {
      customerId: ids.k1,
      date: '2026-06-15',
      amount: 5_000,
      invoiceIds: [billed.id],
    });
    expect((await read(`?branchId=${ids.b1}`)).invoicing).toEqual({
      ...inB1,
      revenue: inB1.revenue + 20_000,
      collected: inB1.collected + 5_000,
      unbilled: inB1.unbilled + 7_000,
      receivables: inB1.receivables + total - 5_000,
    });
    expect((await read(`?branchId=${ids.b2}`)).invoicing).toEqual(inB2);
    expect((await read()).invoicing).toEqual({
      ...after,
      revenue: after.revenue + 20_000,
      collected: after.collected + 5_000,
      unbilled: after.unbilled + 7_000,
      receivables: after.receivables + total - 5_000,
    });
  });

  it('keeps the aggregates equal to a full recount', async () => {
    const { kept, recounted } = await keptAndRecounted(t.app.db, t.dialect);
    expect(kept).toEqual(recounted);
  });

  it('lists the next hearings soonest first by day and time, at most the list size', async () => {
    const times = ['14:00', '09:30', '11:00', '08:00'];
    for (let i = 0; i < 12; i++)
      await post('sessions', { lawsuitId: ids.l3, date: `2026-06-1${6 + (i % 3)}`, time: times[i % 4] });
    const d = await read();
    expect(d.upcomingSessions).toHaveLength(DASHBOARD.listSize);
    const order = d.upcomingSessions.map((s) => `${s.date} ${s.time}`);
    expect(order).toEqual([...order].sort());
    expect(order[0]).toBe('2026-06-16 08:00');
    expect(order.at(-1)! < '2026-06-20').toBe(true);
  });

  it('leaves a postponed hearing out of the next hearings: its next one stands for it', async () => {
    // The first hearing ahead, postponed: the day it was set for no longer takes place.
    const soon = await post('sessions', { lawsuitId: ids.l3, date: '2026-06-15', time: '07:00' });
    const { nextId } = await action(`/admin/lawsuits/sessions/${soon.id}/postpone`, {
      decision: 'Adjourned',
      nextDate: '2026-06-16',
    });
    const listed = (await read()).upcomingSessions.map((s) => s.id);
    expect(listed).not.toContain(soon.id);
    expect(listed).toContain(nextId);
  });
});

/** A small seeded generator (mulberry32): the same sequence on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)]!,
    chance: (p: number) => next() < p,
  };
}

describe.each(splitDialects())('dashboard aggregates under random writes on %s', (dialect) => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('stay equal to a full recount, roll-ups included, after creates, updates, deletes, closes, reopens, postponements, payments, retainer applications and tasks', async () => {
    t = await createTestApp({ dialect, app: { clock } });
    const { headers } = await t.login();
    const system = { user: null };
    const rnd = random(dialect === 'sqlite' ? 11 : 23);
    const make = async (name: string, extra: Record<string, unknown> = {}) =>
      (await createRow(t.app, headers, name, extra)).id;
    const branches = [null, await make('branches'), await make('branches')];
    const courtIds = [null, await make('courts'), await make('courts')];
    const cases = [
      null,
      await make('lawsuitCases', { outcome: 'won' }),
      await make('lawsuitCases', { outcome: 'lost' }),
      await make('lawsuitCases', { outcome: 'ongoing' }),
    ];
    const lawyers = [await make('employees'), await make('employees'), await make('employees')];
    const customer = await make('customers');
    const days = [null, '2026-01-31', '2026-02-01', '2026-03-15', '2025-12-20'];
    const service = (name: string) => t.app.entities.get(name);
    const lawsuitIds: number[] = [];
    const hearingIds: number[] = [];
    const paymentIds: number[] = [];
    const applicationIds: number[] = [];
    const taskIds: number[] = [];
    const lawsuitFields = () => ({
      branchId: rnd.pick(branches),
      filingDate: rnd.pick(days),
      courtId: rnd.pick(courtIds),
      lawsuitCaseId: rnd.pick(cases),
      lawyerIds: lawyers.filter(() => rnd.chance(0.4)),
      agreedFee: rnd.chance(0.3) ? null : rnd.int(50) * 1000,
    });
    const hearingDay = () => `2026-0${3 + rnd.int(4)}-${String(1 + rnd.int(28)).padStart(2, '0')}`;
    // A task's state and when it was set (done tasks count by that month), its assignees, its lawsuit.
    const setState = (id: number) =>
      at(`${rnd.pick(['2025-12-31', '2026-01-01', '2026-04-30'])}T23:30:00.000Z`, () =>
        service('tasks').runAction(system, 'status', id, {
          state: rnd.chance(0.6) ? 'done' : rnd.pick(['new', 'inProgress', 'cancelled']),
        }),
      );
    const assignees = () => {
      const some = lawyers.filter(() => rnd.chance(0.5));
      return some.length ? some : [rnd.pick(lawyers)];
    };

    const operations: (() => Promise<unknown>)[] = [
      () =>
        service('lawsuits')
          .create(system, { customerIds: [customer], ...lawsuitFields() })
          .then((r) => lawsuitIds.push(r.id)),
      async () => {
        if (!lawsuitIds.length) return;
        const fields = lawsuitFields();
        const some = Object.fromEntries(Object.entries(fields).filter(() => rnd.chance(0.5)));
        await service('lawsuits').patch(system, rnd.pick(lawsuitIds), some);
      },
      () =>
        lawsuitIds.length
          ? service('lawsuits').runAction(system, 'close', rnd.pick(lawsuitIds), {
              lawsuitCaseId: rnd.pick(cases.filter((x) => x !== null)),
            })
          : Promise.resolve(),
      () =>
        lawsuitIds.length
          ? service('lawsuits').runAction(system, 'reopen', rnd.pick(lawsuitIds), {})
          : Promise.resolve(),
      async () => {
        if (!lawsuitIds.length) return;
        const id = rnd.pick(lawsuitIds);
        await service('lawsuits').remove(system, id);
        lawsuitIds.splice(lawsuitIds.indexOf(id), 1);
      },
      async () => {
        if (!lawsuitIds.length) return;
        const row = await service('sessions').create(system, {
          lawsuitId: rnd.pick(lawsuitIds),
          date: hearingDay(),
          lawyerId: rnd.chance(0.7) ? rnd.pick(lawyers) : null,
          decision: rnd.chance(0.3) ? 'Heard' : null,
        });
        hearingIds.push(row.id);
      },
      async () => {
        if (!hearingIds.length) return;
        await service('sessions').patch(system, rnd.pick(hearingIds), {
          ...(rnd.chance(0.5) ? { lawyerId: rnd.chance(0.7) ? rnd.pick(lawyers) : null } : {}),
          ...(rnd.chance(0.5) ? { decision: rnd.chance(0.5) ? 'Judgment reserved' : null } : {}),
          ...(rnd.chance(0.5) ? { date: hearingDay() } : {}),
        });
      },
      async () => {
        if (!hearingIds.length) return;
        const id = rnd.pick(hearingIds);
        await service('sessions').remove(system, id);
        hearingIds.splice(hearingIds.indexOf(id), 1);
      },
      async () => {
        if (!hearingIds.length) return;
        await service('sessions').runAction(system, 'postpone', rnd.pick(hearingIds), {
          decision: 'Adjourned',
          nextDate: `2026-${String(8 + rnd.int(4)).padStart(2, '0')}-01`,
        });
      },
      async () => {
        if (!lawsuitIds.length) return;
        const row = await service('lawsuitPayments').create(system, {
          lawsuitId: rnd.pick(lawsuitIds),
          amount: 1 + rnd.int(30_000),
          paidOn: '2026-03-01',
          method: 'cash',
          overpayment: rnd.chance(0.5),
        });
        paymentIds.push(row.id);
      },
      async () => {
        if (!paymentIds.length) return;
        await service('lawsuitPayments').patch(system, rnd.pick(paymentIds), { amount: 1 + rnd.int(30_000) });
      },
      async () => {
        if (!paymentIds.length) return;
        const id = rnd.pick(paymentIds);
        await service('lawsuitPayments').remove(system, id);
        paymentIds.splice(paymentIds.indexOf(id), 1);
      },
      async () => {
        // A payment recorded under Finance for a lawsuit, with no invoice: held in the client's
        // retainer, so no fee paid (the ledger's entries are payments too, counted once).
        if (!lawsuitIds.length) return;
        await service('payments').create(system, {
          customerId: customer,
          lawsuitId: rnd.pick(lawsuitIds),
          date: '2026-03-02',
          amount: 1 + rnd.int(30_000),
          method: 'cash',
        });
      },
      async () => {
        // The client's retainer applied to an issued invoice of a lawsuit: paid towards its fee.
        if (!lawsuitIds.length) return;
        const invoice = await service('invoices').create(system, {
          customerId: customer,
          lawsuitId: rnd.pick(lawsuitIds),
        });
        await service('invoiceLines').create(system, {
          invoiceId: invoice.id,
          description: 'Fee',
          unitPrice: 1 + rnd.int(20_000),
        });
        await service('invoices').runAction(system, 'issue', invoice.id, {});
        const total = Number((await service('invoices').get(invoice.id)).total);
        await service('retainerMovements').create(system, {
          customerId: customer,
          date: '2026-03-03',
          kind: 'deposit',
          amount: total,
        });
        const row = await service('retainerMovements').create(system, {
          customerId: customer,
          date: '2026-03-04',
          kind: 'apply',
          amount: 1 + rnd.int(total),
          invoiceId: invoice.id,
        });
        applicationIds.push(row.id);
      },
      async () => {
        if (!applicationIds.length) return;
        const id = rnd.pick(applicationIds);
        await service('retainerMovements').remove(system, id);
        applicationIds.splice(applicationIds.indexOf(id), 1);
      },
      async () => {
        const row = await service('tasks').create(system, {
          title: 'Task',
          assigneeIds: assignees(),
          lawsuitId: lawsuitIds.length && rnd.chance(0.7) ? rnd.pick(lawsuitIds) : null,
        });
        taskIds.push(row.id);
        if (rnd.chance(0.7)) await setState(row.id);
      },
      async () => {
        if (taskIds.length) await setState(rnd.pick(taskIds));
      },
      async () => {
        if (!taskIds.length) return;
        await service('tasks').patch(system, rnd.pick(taskIds), {
          ...(rnd.chance(0.6) ? { assigneeIds: assignees() } : {}),
          ...(rnd.chance(0.5) && lawsuitIds.length ? { lawsuitId: rnd.pick([null, ...lawsuitIds]) } : {}),
        });
      },
      async () => {
        if (!taskIds.length) return;
        const id = rnd.pick(taskIds);
        await service('tasks').remove(system, id);
        taskIds.splice(taskIds.indexOf(id), 1);
      },
    ];

    let done = 0;
    let refused = 0;
    const failures: string[] = [];
    const seen = new Set<string>();
    for (let step = 0; step < 200; step++) {
      const op = rnd.int(operations.length);
      try {
        await operations[op]!();
        done++;
      } catch (error) {
        // Refused writes (a lawsuit still holding hearings, a fee rule, a date rule) roll back.
        if ((error as { statusCode?: number }).statusCode === undefined) throw error;
        failures.push(`${op}:${JSON.stringify((error as { options?: unknown }).options ?? String(error))}`);
        refused++;
      }
      if (step % 20 === 19) {
        const stored = await storedStats(t.app.db);
        expect(comparableStats(stored)).toEqual((await keptAndRecounted(t.app.db, t.dialect)).recounted);
        for (const row of stored) seen.add(row.paid > 0 ? 'paid' : row.kind);
        for (const row of stored) if (row.branchId === -1 && /^\d{4}$/.test(row.month)) seen.add('yearly');
      }
    }
    if (process.env.DEBUG_DASHBOARD) process.stdout.write(`${failures.join('\n')}\n`);
    expect(done).toBeGreaterThan(100);
    expect(refused).toBeLessThan(done);
    // Every kind of aggregate was exercised, payments and the office-wide yearly roll-ups included.
    expect([...seen].sort()).toEqual([
      'court',
      'hearing',
      'hearingDay',
      'lawsuit',
      'lawyer',
      'paid',
      'task',
      'yearly',
    ]);
    // Built from the base tables (a database that had lawsuits before the dashboard): the same rows.
    const kept = comparableStats(await storedStats(t.app.db));
    await t.app.db.deleteFrom(STATS_TABLE).execute();
    expect(await rebuildStats(t.app.db, t.dialect)).toBe(true);
    expect(await rebuildStats(t.app.db, t.dialect)).toBe(false);
    expect(comparableStats(await storedStats(t.app.db))).toEqual(kept);
  }, 120_000);
});
