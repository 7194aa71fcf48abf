import { API_BASE, permissionKey, sessions, type SessionRow, LEGAL_ROUTES } from '@mizan/contracts';
import { signInWith } from '../system/testing/users';
import { createRow, entityUrl } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(90_000);

const url = entityUrl(sessions);
const chainUrl = (id: number) => API_BASE + LEGAL_ROUTES.sessionChain.path.replace(':id', String(id));

/**
 * What hearing rows say of their lawsuit (`lawsuitInfo`), the list filters through the lawsuit
 * (branch, client, opponent: the calendar and the client's hearings tab) and the scope of the
 * postponement chain.
 */
describe.each(dialects())('hearings through their lawsuit on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const s: Record<string, number> = {};

  const h = (session = admin) => ({ ...session.headers, 'accept-language': 'en' });
  const list = async (query: string, session = admin) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${url}?pageSize=100&${query}`,
      headers: h(session),
    });
    expect(res.statusCode).toBe(200);
    return res.json().data as { items: SessionRow[]; total: number };
  };
  const ids = (page: { items: SessionRow[] }) => page.items.map((r) => r.id).sort((a, b) => a - b);
  const hearing = async (lawsuitId: number, date: string) =>
    (await createRow(t.app, admin.headers, 'sessions', { lawsuitId, date })).id;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    s.branchA = (await createRow(t.app, admin.headers, 'branches')).id;
    s.branchB = (await createRow(t.app, admin.headers, 'branches')).id;
    s.clientA = (await createRow(t.app, admin.headers, 'customers', { name: 'محمد علي' })).id;
    s.clientB = (await createRow(t.app, admin.headers, 'customers', { name: 'سارة أحمد' })).id;
    s.opponent = (await createRow(t.app, admin.headers, 'opponents', { name: 'شركة الدلتا' })).id;
    s.otherOpponent = (await createRow(t.app, admin.headers, 'opponents', { name: 'أحمد حسن' })).id;
    // Lawsuit 1: branch A, both clients against the company. Lawsuit 2: branch B, client B alone.
    s.lawsuit1 = (
      await createRow(t.app, admin.headers, 'lawsuits', {
        branchId: s.branchA,
        customerIds: [s.clientB, s.clientA],
        opponentIds: [s.opponent, s.otherOpponent],
        caseNumber: '1234',
        caseYear: 2026,
        filingDate: '2026-01-01',
      })
    ).id;
    s.lawsuit2 = (
      await createRow(t.app, admin.headers, 'lawsuits', {
        branchId: s.branchB,
        customerIds: [s.clientB],
        opponentIds: [],
        caseNumber: null,
        caseYear: null,
        filingDate: '2026-01-01',
      })
    ).id;
    s.h1 = await hearing(s.lawsuit1, '2026-02-01');
    s.h2 = await hearing(s.lawsuit1, '2026-03-01');
    s.h3 = await hearing(s.lawsuit2, '2026-02-15');
  });
  afterAll(() => t.close());

  it('each row carries its lawsuit case number and parties (list, get, write response)', async () => {
    const page = await list('');
    const byId = new Map(page.items.map((r) => [r.id, r]));
    const sorted = (rows: { id: number; name: string }[]) => [...rows].sort((a, b) => a.id - b.id);
    expect(byId.get(s.h1!)!.lawsuitInfo).toEqual({
      caseNumber: '1234',
      caseYear: 2026,
      customers: sorted([
        { id: s.clientA!, name: 'محمد علي' },
        { id: s.clientB!, name: 'سارة أحمد' },
      ]),
      opponents: sorted([
        { id: s.opponent!, name: 'شركة الدلتا' },
        { id: s.otherOpponent!, name: 'أحمد حسن' },
      ]),
    });
    expect(byId.get(s.h3!)!.lawsuitInfo).toEqual({
      caseNumber: null,
      caseYear: null,
      customers: [{ id: s.clientB!, name: 'سارة أحمد' }],
      opponents: [],
    });
    const one = await t.app.inject({ method: 'GET', url: `${url}/${s.h2}`, headers: h() });
    expect(one.json().data.lawsuitInfo.caseNumber).toBe('1234');
    const created = await t.app.inject({
      method: 'POST',
      url,
      headers: h(),
      payload: { lawsuitId: s.lawsuit2, date: '2026-05-01' },
    });
    expect(created.json().data.lawsuitInfo.customers).toEqual([{ id: s.clientB!, name: 'سارة أحمد' }]);
    await t.app.inject({ method: 'DELETE', url: `${url}/${created.json().data.id}`, headers: h() });
  });

  it('filters by the lawsuit branch, client and opponent (page and total agree)', async () => {
    const a = await list(`branchId=${s.branchA}`);
    expect([ids(a), a.total]).toEqual([[s.h1, s.h2], 2]);
    expect(ids(await list(`branchId=${s.branchB}`))).toEqual([s.h3]);
    const clientB = await list(`customerId=${s.clientB}`);
    expect([ids(clientB), clientB.total]).toEqual([[s.h1, s.h2, s.h3], 3]);
    expect(ids(await list(`customerId=${s.clientA}`))).toEqual([s.h1, s.h2]);
    expect(ids(await list(`opponentId=${s.otherOpponent}`))).toEqual([s.h1, s.h2]);
    // Combined with the calendar's month and each other.
    expect(ids(await list(`customerId=${s.clientB}&from=2026-02-10&to=2026-02-28`))).toEqual([s.h3]);
    expect(ids(await list(`customerId=${s.clientA}&branchId=${s.branchB}`))).toEqual([]);
    for (const bad of ['0', 'x', '-3']) {
      const res = await t.app.inject({ method: 'GET', url: `${url}?branchId=${bad}`, headers: h() });
      expect([res.statusCode, Object.keys(res.json().errors)]).toEqual([422, ['branchId']]);
    }
  });

  it("filters an employee's hearings: those they attend and those of the lawsuits they are responsible for", async () => {
    const lawyer = (await createRow(t.app, admin.headers, 'employees')).id;
    const other = (await createRow(t.app, admin.headers, 'employees')).id;
    const responsibleFor = (
      await createRow(t.app, admin.headers, 'lawsuits', { lawyerIds: [lawyer], filingDate: '2026-01-01' })
    ).id;
    const byResponsibility = await hearing(responsibleFor, '2026-04-01');
    const attended = (
      await createRow(t.app, admin.headers, 'sessions', {
        lawsuitId: s.lawsuit2,
        date: '2026-04-02',
        lawyerId: lawyer,
      })
    ).id;
    const mine = await list(`employeeId=${lawyer}`);
    expect([ids(mine), mine.total]).toEqual([[byResponsibility, attended], 2]);
    expect(ids(await list(`employeeId=${lawyer}&to=2026-04-01`))).toEqual([byResponsibility]);
    expect(ids(await list(`employeeId=${other}`))).toEqual([]);
    const bad = await t.app.inject({ method: 'GET', url: `${url}?employeeId=0`, headers: h() });
    expect([bad.statusCode, Object.keys(bad.json().errors)]).toEqual([422, ['employeeId']]);
  });

  it('answers the chain with only the hearings the reader may see; an unseen asked one is 404', async () => {
    const postponed = await t.app.inject({
      method: 'PATCH',
      url: `${url}/${s.h3}/postpone`,
      headers: h(),
      payload: { decision: 'للاطلاع', nextDate: '2026-03-15' },
    });
    expect(postponed.statusCode).toBe(200);
    const next = postponed.json().data.nextId as number;
    const reader = await signInWith(t, [permissionKey(sessions.name, 'view')]);
    const chain = async (id: number, session: Session) =>
      t.app.inject({ method: 'GET', url: chainUrl(id), headers: h(session) });
    const full = await chain(s.h3!, reader);
    expect(full.json().data.items.map((r: SessionRow) => r.id)).toEqual([s.h3, next]);
    expect(full.json().data.items[0].lawsuitInfo.customers).toEqual([{ id: s.clientB!, name: 'سارة أحمد' }]);
    expect(full.json().data.items[0].nextId).toBe(next);
    // A scope hiding the next hearing from this reader (a module's `scope` hook).
    const remove = t.app.entities.hooks(sessions.name, {
      scope: (_ctx, user) =>
        user.id === reader.user.id ? (eb, table) => eb(`${table}.id`, '!=', next) : null,
    });
    try {
      const scoped = await chain(s.h3!, reader);
      expect(scoped.json().data.items.map((r: SessionRow) => r.id)).toEqual([s.h3]);
      expect((await chain(next, reader)).statusCode).toBe(404);
      const asAdmin = await chain(s.h3!, admin);
      expect(asAdmin.json().data.items.map((r: SessionRow) => r.id)).toEqual([s.h3, next]);
    } finally {
      remove();
    }
  });
});
