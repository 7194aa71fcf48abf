import type { Kysely } from 'kysely';
import { createTestApp, dialects, type TestApp } from '../test/harness';
import { AccountCache } from './accountCache';
import { EMPLOYEE_ROLES, ROLE_PERMISSIONS } from './joins';
import { headers, insertEmployee, signIn } from './testing/fixtures';
import type { AuthDatabase } from './types';

/**
 * A cached account is used only while nobody has written the employees, roles or permissions
 * since it was read: each write below goes straight to the tables (as a seed or another module
 * would), and the next load reads the account again.
 */
describe.each(dialects())(`${AccountCache.name} (%s)`, (dialect) => {
  let t: TestApp;
  let db: Kysely<AuthDatabase>;
  let sut: AccountCache;
  let employeeId: number;
  let roleId: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    db = t.app.db as unknown as Kysely<AuthDatabase>;
    employeeId = await insertEmployee(t.app.db, {
      email: 'cached@law.test',
      username: 'cached',
      roles: ['Secretary'],
    });
    const [link] = await t.app.db
      .selectFrom(EMPLOYEE_ROLES.table)
      .select(EMPLOYEE_ROLES.ref)
      .where(EMPLOYEE_ROLES.owner, '=', employeeId)
      .execute();
    roleId = Number(link![EMPLOYEE_ROLES.ref]);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    sut = new AccountCache();
  });

  const keyOf = async (permission: string) =>
    Number(
      (
        await t.app.db
          .selectFrom('permissions')
          .select('id')
          .where('key', '=', permission)
          .executeTakeFirstOrThrow()
      ).id,
    );

  it('answers the same account while nothing was written, and null for an unknown employee', async () => {
    const first = await sut.load(db, employeeId);
    expect(first?.account.employee.username).toBe('cached');
    expect(await sut.load(db, employeeId)).toBe(first);
    expect(await sut.load(db, 999_999)).toBeNull();
  });

  it('reads the account again after the employee row changes', async () => {
    const before = await sut.load(db, employeeId);
    await t.app.db.updateTable('employees').set({ baned: true }).where('id', '=', employeeId).execute();
    const after = await sut.load(db, employeeId);
    expect(after).not.toBe(before);
    expect(after?.account.employee.baned).toBeTruthy();
    await t.app.db.updateTable('employees').set({ baned: false }).where('id', '=', employeeId).execute();
  });

  it('reads the account again after a permission is given to one of its roles, or taken back', async () => {
    const key = 'dashboard.performance';
    expect((await sut.load(db, employeeId))?.permissions.has(key)).toBe(false);
    const permissionId = await keyOf(key);
    await t.app.db
      .insertInto(ROLE_PERMISSIONS.table)
      .values({ [ROLE_PERMISSIONS.owner]: roleId, [ROLE_PERMISSIONS.ref]: permissionId })
      .execute();
    expect((await sut.load(db, employeeId))?.permissions.has(key)).toBe(true);
    await t.app.db
      .deleteFrom(ROLE_PERMISSIONS.table)
      .where(ROLE_PERMISSIONS.owner, '=', roleId)
      .where(ROLE_PERMISSIONS.ref, '=', permissionId)
      .execute();
    expect((await sut.load(db, employeeId))?.permissions.has(key)).toBe(false);
  });

  it('reads the account again after one of its roles is banned, and after it loses the role', async () => {
    await sut.load(db, employeeId);
    await t.app.db.updateTable('roles').set({ baned: true }).where('id', '=', roleId).execute();
    expect((await sut.load(db, employeeId))?.account.roles.map((r) => r.baned)).toEqual([true]);
    await t.app.db.updateTable('roles').set({ baned: false }).where('id', '=', roleId).execute();

    await t.app.db.deleteFrom(EMPLOYEE_ROLES.table).where(EMPLOYEE_ROLES.owner, '=', employeeId).execute();
    expect((await sut.load(db, employeeId))?.account.roles).toEqual([]);
    await t.app.db
      .insertInto(EMPLOYEE_ROLES.table)
      .values({ [EMPLOYEE_ROLES.owner]: employeeId, [EMPLOYEE_ROLES.ref]: roleId })
      .execute();
  });

  it('keeps at most its size, the least recently used dropped first', async () => {
    const small = new AccountCache(1);
    const other = await insertEmployee(t.app.db, { email: 'other@law.test', username: 'other' });
    const first = await small.load(db, employeeId);
    await small.load(db, other);
    expect(await small.load(db, employeeId)).not.toBe(first);
  });

  it('a signed-in request sees a permission taken from its role at once', async () => {
    const token = await signIn(t.app, 'cached');
    const employees = () =>
      t.app.inject({ method: 'GET', url: '/api/employees/employees', headers: headers(token) });
    expect((await employees()).statusCode).toBe(403);
    const permissionId = await keyOf('employees.view');
    await t.app.db
      .insertInto(ROLE_PERMISSIONS.table)
      .values({ [ROLE_PERMISSIONS.owner]: roleId, [ROLE_PERMISSIONS.ref]: permissionId })
      .execute();
    expect((await employees()).statusCode).toBe(200);
    await t.app.db
      .deleteFrom(ROLE_PERMISSIONS.table)
      .where(ROLE_PERMISSIONS.owner, '=', roleId)
      .where(ROLE_PERMISSIONS.ref, '=', permissionId)
      .execute();
    expect((await employees()).statusCode).toBe(403);
  });
});
