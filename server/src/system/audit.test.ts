import { AREA_PERMISSIONS } from '@mizan/contracts';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { signInWith } from './testing/users';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(60_000);

const AUDIT = '/api/admin/settings/system/audit';
const CONTINENTS = '/api/admin/settings/places/continents';

describe.each(dialects())('audit trail on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let clerk: Session;
  let asiaId: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    clerk = await signInWith(t, ['continents.view', 'continents.create', 'continents.update']);
    const asia = await t.app.inject({
      method: 'POST',
      url: CONTINENTS,
      headers: admin.headers,
      payload: { name: 'آسيا', code: 'AS' },
    });
    asiaId = asia.json().data.id;
    await t.app.inject({
      method: 'PUT',
      url: CONTINENTS,
      headers: clerk.headers,
      payload: { id: asiaId, name: 'قارة آسيا', code: 'AS' },
    });
    await t.app.inject({
      method: 'POST',
      url: CONTINENTS,
      headers: clerk.headers,
      payload: { name: 'أفريقيا' },
    });
    await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings/system/general',
      headers: admin.headers,
      payload: { officeName: 'مكتب التجربة' },
    });
  });
  afterAll(() => t.close());

  const list = async (query = '', session = admin) => {
    const res = await t.app.inject({ method: 'GET', url: `${AUDIT}${query}`, headers: session.headers });
    expect(res.statusCode).toBe(200);
    return res.json().data as { items: Record<string, any>[]; total: number; page: number; pageSize: number }; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
  };

  it('lists every change newest first with who made it and before/after as objects', async () => {
    const page = await list();
    expect(page.page).toBe(1);
    expect(page.pageSize).toBe(20);
    const mine = page.items.filter((i) => i.entity === 'continents' || i.entity === 'systemSettings');
    expect(mine.map((i) => `${i.entity}:${i.action}`)).toEqual([
      'systemSettings:update',
      'continents:create',
      'continents:update',
      'continents:create',
    ]);
    const update = mine[2]!;
    expect(update).toMatchObject({
      entityId: asiaId,
      employeeId: clerk.user.id,
      employee: { id: clerk.user.id, name: clerk.user.name },
      before: { id: asiaId, name: 'آسيا' },
      after: { id: asiaId, name: 'قارة آسيا' },
    });
    expect(typeof update.createdAt).toBe('string');
    expect(mine[3]).toMatchObject({ employee: { id: admin.user.id }, before: null, after: { name: 'آسيا' } });
  });

  it('filters by employee, entity, entity id, action and dates', async () => {
    let page = await list(`?employeeId=${clerk.user.id}`);
    expect(page.items.map((i) => i.action)).toEqual(['create', 'update']);
    page = await list(`?entity=continents&action=create`);
    expect(page.total).toBe(2);
    page = await list(`?entity=continents&entityId=${asiaId}`);
    expect(page.items.map((i) => i.action)).toEqual(['update', 'create']);
    const today = new Date().toISOString().slice(0, 10);
    page = await list(`?entity=continents&from=${today}&to=${today}`);
    expect(page.total).toBe(3);
    page = await list(`?entity=continents&to=2020-01-01`);
    expect(page.total).toBe(0);
    page = await list(`?entity=continents&from=2999-01-01`);
    expect(page.total).toBe(0);
    page = await list(`?entity=continents&sort=createdAt:asc`);
    expect(page.items.map((i) => i.action)).toEqual(['create', 'update', 'create']);
    page = await list(`?entity=continents&pageSize=1&page=2`);
    expect(page).toMatchObject({ total: 3, page: 2, pageSize: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]!.action).toBe('update');
  });

  it('refuses bad filters with 422', async () => {
    for (const query of [
      '?pageSize=101',
      '?employeeId=abc',
      '?from=yesterday',
      '?page=0',
      '?sort=name:asc',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `${AUDIT}${query}`, headers: admin.headers });
      expect(res.statusCode).toBe(422);
    }
  });

  it('is documented in OpenAPI with its filters, like the other system and import routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = res.json().paths as Record<string, Record<string, { parameters?: { name: string }[] }>>;
    expect(paths[AUDIT]!.get!.parameters!.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'employeeId',
        'entity',
        'entityId',
        'action',
        'from',
        'to',
        'page',
        'pageSize',
      ]),
    );
    expect(
      paths['/api/admin/settings/system/logsSystem/route-stats']!.get!.parameters!.map((p) => p.name),
    ).toEqual(['date', 'type']);
    expect(paths['/api/admin/settings/system/general']!.put).toBeDefined();
    expect(paths['/api/admin/settings/places/policeStations/import']!.post).toBeDefined();
  });

  it('needs audit.view', async () => {
    expect((await t.app.inject({ method: 'GET', url: AUDIT })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: AUDIT, headers: clerk.headers })).statusCode).toBe(403);
    const auditor = await signInWith(t, [AREA_PERMISSIONS.auditView]);
    await list('', auditor);
  });
});
