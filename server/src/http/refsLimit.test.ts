import { MAX_REFS } from '@mizan/contracts';
import { countRows, createRow, entityUrl, TEST_PASSWORD } from '../test/fixtures';
import { createTestApp, type Session, type TestApp } from '../test/harness';

// A `refs` list longer than SQLite's variable limit answered 500 "too many SQL variables".
describe('refs lists on sqlite', () => {
  let t: TestApp;
  let admin: Session;
  let roleIds: number[];

  beforeAll(async () => {
    t = await createTestApp({ dialect: 'sqlite' });
    admin = await t.login();
    const now = new Date().toISOString();
    const rows = Array.from({ length: MAX_REFS }, (_, i) => ({
      name: `bulk role ${i}`,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await t.app.db
        .insertInto('roles')
        .values(rows.slice(i, i + 200))
        .execute();
    roleIds = (
      await t.app.db.selectFrom('roles').select('id').where('name', 'like', 'bulk role %').execute()
    ).map((r) => Number(r.id));
  });
  afterAll(() => t.close());

  const rolesCount = () => countRows(t.app, 'roles');

  it('refuses 40,000 ids with 422 on the field, and writes nothing', async () => {
    const before = await rolesCount();
    const res = await t.app.inject({
      method: 'POST',
      url: entityUrl('roles'),
      headers: { ...admin.headers, 'accept-language': 'en' },
      payload: { name: 'too many', permissionIds: Array.from({ length: 40_000 }, (_, i) => i + 1) },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.permissionIds).toEqual([
      `Permissions must have at most ${MAX_REFS.toLocaleString('en')} items`,
    ]);
    expect(await rolesCount()).toBe(before);
  });

  it(`stores and returns ${MAX_REFS} ids`, async () => {
    expect(roleIds).toHaveLength(MAX_REFS);
    const employee = await createRow(t.app, admin.headers, 'employees', {
      name: 'Many roles',
      email: 'many.roles@mizan.test',
      username: 'manyroles',
      password: TEST_PASSWORD,
      roleIds,
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `${entityUrl('employees')}/${employee.id}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as { roleIds: number[]; roles: { id: number; name: string }[] };
    expect([...data.roleIds].sort((a, b) => a - b)).toEqual([...roleIds].sort((a, b) => a - b));
    expect(data.roles).toHaveLength(MAX_REFS);
    expect(data.roles.every((r) => r.name.startsWith('bulk role '))).toBe(true);
  });

  it('answers 422, not 500, for a list of unknown ids at the limit', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: entityUrl('roles'),
      headers: admin.headers,
      payload: {
        name: 'unknown ids',
        permissionIds: Array.from({ length: MAX_REFS }, (_, i) => 900_000 + i),
      },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['permissionIds']);
  });
});
