import { createTestApp, dialects, type Session, type TestApp } from '../../test/harness';
import { signInWith } from '../testing/users';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(60_000);

const AUDIT = '/api/admin/settings/system/audit';
const CONTINENTS = '/api/admin/settings/places/continents';
const COUNTRIES = '/api/admin/settings/places/countries';

type Entry = { entity: string; entityId: number | null; action: string };

describe.each(dialects())('one record history for viewers of its entity on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let viewer: Session;
  let asiaId: number;
  let africaId: number;
  let countryId: number;

  const post = async (url: string, payload: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: number; updatedAt: string };
  };
  const get = (query: string, session: Session | null = viewer) =>
    t.app.inject({ method: 'GET', url: `${AUDIT}${query}`, headers: session?.headers ?? {} });

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    viewer = await signInWith(t, ['continents.view']);
    const asia = await post(CONTINENTS, { name: 'آسيا', code: 'AS' });
    asiaId = asia.id;
    africaId = (await post(CONTINENTS, { name: 'أفريقيا', code: 'AF' })).id;
    const update = await t.app.inject({
      method: 'PUT',
      url: CONTINENTS,
      headers: admin.headers,
      payload: { id: asiaId, name: 'قارة آسيا', code: 'AS', updatedAt: asia.updatedAt },
    });
    expect(update.statusCode).toBe(200);
    countryId = (await post(COUNTRIES, { name: 'اليابان', code: 'JP', continentId: asiaId })).id;
  });
  afterAll(() => t.close());

  it("lets a holder of <entity>.view read one row's entries, and only that row's", async () => {
    const res = await get(`?entity=continents&entityId=${asiaId}`);
    expect(res.statusCode).toBe(200);
    const page = res.json().data as { items: Entry[]; total: number };
    expect(page.total).toBe(2);
    expect(page.items.map((i) => `${i.entity}:${i.entityId}:${i.action}`)).toEqual([
      `continents:${asiaId}:update`,
      `continents:${asiaId}:create`,
    ]);
    // Paged like the full trail.
    const second = (await get(`?entity=continents&entityId=${asiaId}&pageSize=1&page=2`)).json().data as {
      items: Entry[];
    };
    expect(second.items.map((i) => i.action)).toEqual(['create']);
    const other = (await get(`?entity=continents&entityId=${africaId}`)).json().data as { items: Entry[] };
    expect(other.items.map((i) => `${i.entityId}:${i.action}`)).toEqual([`${africaId}:create`]);
  });

  it("refuses another entity's history, the whole trail, an entity's whole trail and the system settings", async () => {
    for (const query of [
      `?entity=countries&entityId=${countryId}`,
      '',
      '?entity=continents',
      `?entityId=${asiaId}`,
      '?entity=systemSettings&entityId=1',
      `?entity=nosuch&entityId=${asiaId}`,
      `?employeeId=${admin.user.id}`,
    ]) {
      const res = await get(query);
      expect([query, res.statusCode]).toEqual([query, 403]);
      expect(JSON.stringify(res.json())).not.toContain('اليابان');
    }
    expect((await get(`?entity=continents&entityId=${asiaId}`, null)).statusCode).toBe(401);
  });

  it('still gives the whole trail to audit.view and a row history to the entity viewer only', async () => {
    const auditor = await signInWith(t, ['audit.view']);
    const all = await get('', auditor);
    expect(all.statusCode).toBe(200);
    expect((all.json().data as { items: Entry[] }).items.some((i) => i.entity === 'countries')).toBe(true);
    const countryViewer = await signInWith(t, ['countries.view']);
    expect((await get(`?entity=countries&entityId=${countryId}`, countryViewer)).statusCode).toBe(200);
    expect((await get(`?entity=continents&entityId=${asiaId}`, countryViewer)).statusCode).toBe(403);
  });
});
