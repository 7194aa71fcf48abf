import { isReferencedError, referencesTo } from '@mizan/contracts';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(60_000);

const GOVERNORATES = '/api/admin/settings/places/governorates';

describe.each(dialects())('deleting a row other rows still refer to, on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
  });
  afterAll(() => t.close());

  it('answers 409 naming every holder with its count, in the request language, and deletes nothing', async () => {
    const actor = { user: null };
    const e = (name: string) => t.app.entities.get(name);
    const africa = await e('continents').create(actor, { name: 'أفريقيا' });
    const egypt = await e('countries').create(actor, { name: 'مصر', continentId: africa.id });
    const cairo = await e('governorates').create(actor, { name: 'القاهرة', countryId: egypt.id });
    for (const name of ['قسم الأزبكية', 'قسم عابدين', 'قسم السيدة زينب'])
      await e('policeStations').create(actor, { name, governorateId: cairo.id });
    await e('branches').create(actor, { name: 'فرع وسط البلد', governorateId: cairo.id });

    const del = (lang: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `${GOVERNORATES}/${cairo.id}`,
        headers: { ...admin.headers, 'accept-language': lang },
      });
    const en = await del('en');
    expect(en.statusCode).toBe(409);
    const body = en.json();
    expect(isReferencedError(body)).toBe(true);
    // Holders in registry order (the order `referencesTo` lists them), each counted once.
    const order = [...new Set(referencesTo('governorates').map((r) => r.entity.name))];
    expect(body.heldBy).toEqual(
      [
        { entity: 'branches', count: 1 },
        { entity: 'policeStations', count: 3 },
      ].sort((a, b) => order.indexOf(a.entity) - order.indexOf(b.entity)),
    );
    expect(body.message).toMatch(/^“القاهرة” cannot be deleted: other records still refer to it \(.+\)$/);
    expect(body.message).toContain('Police stations: 3');
    expect(body.message).toContain('Branches: 1');
    const ar = (await del('ar')).json();
    expect(ar.message).toMatch(/^لا يمكن حذف «القاهرة»: ما زالت سجلات أخرى مرتبطة بهذا السجل \(.+\)$/);
    expect(ar.message).toContain('أقسام الشرطة: 3');
    expect(ar.message).toContain('، ');
    expect(await e('governorates').get(cairo.id)).toMatchObject({ name: 'القاهرة' });
  });

  it('counts the rows holding it through a refs field (a join table)', async () => {
    const actor = { user: null };
    const [permission] = (await t.app.entities.get('permissions').list({ pageSize: 1 })).items;
    await t.app.entities
      .get('roles')
      .create(actor, { name: 'دور للاختبار', permissionIds: [permission!.id] });
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/employees/permissions/${permission!.id}`,
      headers: { ...admin.headers, 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(409);
    // The administrator's role and the new one.
    expect(res.json().heldBy).toEqual([{ entity: 'roles', count: 2 }]);
  });
});
