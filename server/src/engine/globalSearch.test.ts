import { API_BASE, SEARCH_ROUTES, permissionKey, type GlobalSearchResult } from '@mizan/contracts';
import { createRow, createUserWith } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

/**
 * The header's global search: clients, opponents and lawsuits by the folded `q` (file and case
 * numbers included) and the hearings of the lawsuits found, grouped by kind, each kind only for a
 * reader who may view it.
 */
describe.each(dialects())('global search on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let lawsuit: Record<string, unknown> & { id: number };
  const url = (q: string) => `${API_BASE}${SEARCH_ROUTES.global.path}?q=${encodeURIComponent(q)}`;
  const search = async (q: string, session = admin): Promise<GlobalSearchResult> => {
    const res = await t.app.inject({ method: 'GET', url: url(q), headers: session.headers });
    expect(res.statusCode).toBe(200);
    return res.json().data as GlobalSearchResult;
  };
  const kinds = (result: GlobalSearchResult) =>
    Object.fromEntries(result.groups.map((g) => [g.kind, g.items.map((i) => i.title)]));

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    const client = await createRow(t.app, admin.headers, 'customers', { name: 'مُصطفى إبراهيم الشناوي' });
    await createRow(t.app, admin.headers, 'customers', { name: 'سعاد الشناوى' });
    const opponent = await createRow(t.app, admin.headers, 'opponents', { name: 'شركة الشناوي للتجارة' });
    lawsuit = await createRow(t.app, admin.headers, 'lawsuits', {
      fileNumber: 'F-2026-0417',
      filingDate: '2025-12-01',
      caseNumber: '٧٧١٢',
      caseYear: 2025,
      customerIds: [client.id],
      opponentIds: [opponent.id],
    });
    for (const date of ['2026-01-10', '2026-03-05'])
      await createRow(t.app, admin.headers, 'sessions', { lawsuitId: lawsuit.id, date, time: '10:30' });
  });
  afterAll(() => t.close());

  it('groups clients and opponents matched by folded names, in the kinds order', async () => {
    const result = await search('الشناوي');
    expect(result.groups.map((g) => g.kind)).toEqual(['customers', 'opponents']);
    expect(kinds(result).customers!.sort()).toEqual(['سعاد الشناوى', 'مُصطفى إبراهيم الشناوي'].sort());
    expect(result.groups[0]!.total).toBe(2);
    expect(kinds(result).opponents).toEqual(['شركة الشناوي للتجارة']);
  });

  it('finds a lawsuit by its file or case number, with the hearings of the lawsuits found', async () => {
    for (const q of ['F-2026-0417', '7712', '٧٧١٢']) {
      const result = await search(q);
      expect(kinds(result).lawsuits).toEqual(['F-2026-0417']);
      const hearings = result.groups.find((g) => g.kind === 'sessions')!;
      expect(hearings.total).toBe(2);
      expect(hearings.items.map((h) => h.title)).toEqual(['2026-03-05 10:30', '2026-01-10 10:30']);
      expect(hearings.items[0]!.detail).toContain('F-2026-0417');
    }
    const detail = (await search('7712')).groups.find((g) => g.kind === 'lawsuits')!.items[0]!.detail;
    expect(detail).toContain('7712/2025');
  });

  it('answers only the kinds the reader may view', async () => {
    const user = await createUserWith(t.app, admin.headers, [permissionKey('customers', 'view')]);
    const session = await t.login(user.email, user.password);
    expect((await search('الشناوي', session)).groups.map((g) => g.kind)).toEqual(['customers']);
    expect((await search('F-2026-0417', session)).groups).toEqual([]);
  });

  it('refuses an empty query (422) and a reader who is not signed in (401)', async () => {
    const empty = await t.app.inject({ method: 'GET', url: url('  '), headers: admin.headers });
    expect(empty.statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: url('x') })).statusCode).toBe(401);
  });
});
