import { ALL_PERMISSIONS } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { createTestApp, dialects, type TestApp } from '../test/harness';
import { ROLE_PERMISSIONS } from './joins';
import { DEFAULT_ADMIN_EMAIL, reapplySeededRules, seedAuth } from './seed';
import { SEEDED } from './testing/fixtures';

describe.each(dialects())('seedAuth (%s)', (dialect) => {
  let t: TestApp;
  let db: FastifyInstance['db'];
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    db = t.app.db;
  });
  afterAll(() => t.close());

  const roleKeys = async (role: string) =>
    (
      await db
        .selectFrom(`${ROLE_PERMISSIONS.table} as j`)
        .innerJoin('roles as r', 'r.id', 'j.owner_id')
        .innerJoin('permissions as p', 'p.id', 'j.ref_id')
        .select('p.key')
        .where('r.name', '=', role)
        .execute()
    ).map((r) => r.key as string);

  it('seeded every permission, the three roles and the administrator from the environment', async () => {
    const keys = (await db.selectFrom('permissions').select('key').execute()).map((r) => r.key);
    expect(keys.sort()).toEqual(ALL_PERMISSIONS.map((p) => p.key).sort());
    const roles = (await db.selectFrom('roles').select('name').orderBy('id').execute()).map((r) => r.name);
    // Stored in Arabic, the office's language (English is a translation for display).
    expect(roles).toEqual(['مدير النظام', 'محامٍ', 'سكرتير']);
    expect((await roleKeys(SEEDED.administrator)).length).toBe(ALL_PERMISSIONS.length);
    const lawyer = await roleKeys(SEEDED.lawyer);
    expect(lawyer).toContain('courts.view');
    expect(lawyer).not.toContain('employees.view');
    expect(lawyer).not.toContain('courts.delete');
    const admin = await db.selectFrom('employees').selectAll().executeTakeFirstOrThrow();
    expect(admin).toMatchObject({ email: 'admin@mizan.test', username: 'admin' });
    expect(Boolean(admin.password_change_required)).toBe(false);
    const counts = await db
      .selectFrom('entity_counts')
      .selectAll()
      .where('entity', 'in', ['permissions', 'roles', 'employees'])
      .execute();
    expect(Object.fromEntries(counts.map((c) => [c.entity, Number(c.total)]))).toEqual({
      permissions: ALL_PERMISSIONS.length,
      roles: 3,
      employees: 1,
    });
  });

  it('is idempotent, gives a new permission to the seeded roles whose rule takes it, and respects edited roles', async () => {
    expect(await seedAuth(db, { adminEmail: null, adminPassword: null, print: () => {} })).toEqual({
      permissionsAdded: [],
      rolesAdded: [],
      admin: null,
    });
    // An administrator removed courts.export from Lawyer: a later start must not give it back.
    const courtsExport = await db
      .selectFrom('permissions')
      .select('id')
      .where('key', '=', 'courts.export')
      .executeTakeFirstOrThrow();
    await db
      .deleteFrom(ROLE_PERMISSIONS.table)
      .where('ref_id', '=', courtsExport.id)
      .where('owner_id', 'in', db.selectFrom('roles').select('id').where('name', '=', SEEDED.lawyer))
      .execute();
    // A permission that did not exist before (a new entity in a later release).
    const courtsView = await db
      .selectFrom('permissions')
      .select('id')
      .where('key', '=', 'courts.view')
      .executeTakeFirstOrThrow();
    await db.deleteFrom(ROLE_PERMISSIONS.table).where('ref_id', '=', courtsView.id).execute();
    await db.deleteFrom('permissions').where('id', '=', courtsView.id).execute();

    const result = await seedAuth(db, { adminEmail: null, adminPassword: null, print: () => {} });
    expect(result.permissionsAdded).toEqual(['courts.view']);
    expect(await roleKeys(SEEDED.administrator)).toContain('courts.view');
    expect(await roleKeys(SEEDED.lawyer)).toContain('courts.view');
    expect(await roleKeys(SEEDED.secretary)).toContain('courts.view');
    expect(await roleKeys(SEEDED.lawyer)).not.toContain('courts.export');
  });

  it('renames a role seeded under its former English name instead of adding a second one', async () => {
    await db.updateTable('roles').set({ name: 'Secretary' }).where('name', '=', SEEDED.secretary).execute();
    const before = await db
      .selectFrom('roles')
      .select(['id'])
      .where('name', '=', 'Secretary')
      .executeTakeFirstOrThrow();
    const result = await seedAuth(db, { adminEmail: null, adminPassword: null, print: () => {} });
    expect(result.rolesAdded).toEqual([]);
    const after = await db
      .selectFrom('roles')
      .select(['id', 'name'])
      .where('id', '=', before.id)
      .executeTakeFirstOrThrow();
    expect(after.name).toBe(SEEDED.secretary);
    expect(await db.selectFrom('roles').select('id').where('name', '=', 'Secretary').execute()).toEqual([]);
  });

  it('on an empty employees table creates admin@mizan.local with a printed password that must be changed', async () => {
    await db.deleteFrom('employees_role_ids').execute();
    await db.deleteFrom('sessions').execute();
    await db.deleteFrom('login_history').execute();
    await db.deleteFrom('employees').execute();
    const printed: string[] = [];
    const result = await seedAuth(db, {
      adminEmail: null,
      adminPassword: null,
      print: (text) => printed.push(text),
    });
    expect(result.admin?.email).toBe(DEFAULT_ADMIN_EMAIL);
    const password = result.admin!.generatedPassword!;
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect(printed.join('')).toContain(password);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'x-fingerprint-session': 'fp' },
      payload: { email: DEFAULT_ADMIN_EMAIL, password },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.passwordChangeRequired).toBe(true);
    expect(res.json().data.user.Roles[0].name).toBe(SEEDED.administrator);
    // Once is enough: a second run neither creates nor prints.
    const again = await seedAuth(db, {
      adminEmail: null,
      adminPassword: null,
      print: (text) => printed.push(text),
    });
    expect(again.admin).toBeNull();
    expect(printed).toHaveLength(1);
  });

  it('refuses an administrator password from the environment shorter than 8 characters', async () => {
    await db.deleteFrom('employees_role_ids').execute();
    await db.deleteFrom('sessions').execute();
    await db.deleteFrom('login_history').execute();
    await db.deleteFrom('employees').execute();
    await expect(
      seedAuth(db, { adminEmail: 'boss@law.test', adminPassword: 'short', print: () => {} }),
    ).rejects.toThrow('MIZAN_ADMIN_PASSWORD must be at least 8 characters');
    const ok = await seedAuth(db, {
      adminEmail: 'Boss@Law.test',
      adminPassword: 'Boss-pass-1',
      print: () => {},
    });
    expect(ok.admin).toEqual({ email: 'boss@law.test', generatedPassword: null });
  });

  it("brings an older database's seeded roles to today's rules for the keys a migration names", async () => {
    const ids = new Map(
      (await db.selectFrom('permissions').select(['id', 'key']).execute()).map((r) => [r.key, Number(r.id)]),
    );
    const roleId = async (name: string) =>
      Number(
        (await db.selectFrom('roles').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id,
      );
    // As before the change: the lawyer without payments, the secretary reading them, no lawyers' flag.
    await db
      .deleteFrom(ROLE_PERMISSIONS.table)
      .where('owner_id', '=', await roleId(SEEDED.lawyer))
      .where('ref_id', '=', ids.get('lawsuitPayments.create')!)
      .execute();
    await db
      .insertInto(ROLE_PERMISSIONS.table)
      .values({ owner_id: await roleId(SEEDED.secretary), ref_id: ids.get('lawsuitPayments.view')! })
      .onConflict((oc) => oc.columns(['owner_id', 'ref_id']).doNothing())
      .execute();
    await db.updateTable('roles').set({ lawyers: false }).execute();

    await reapplySeededRules(db, (key) => key.startsWith('lawsuitPayments.'));
    expect(await roleKeys(SEEDED.lawyer)).toEqual(expect.arrayContaining(['lawsuitPayments.create']));
    expect((await roleKeys(SEEDED.secretary)).filter((k) => k.startsWith('lawsuitPayments.'))).toEqual([]);
    expect((await roleKeys(SEEDED.lawyer)).filter((k) => k === 'lawsuitPayments.delete')).toEqual([]);
    const flags = await db.selectFrom('roles').select(['name', 'lawyers']).orderBy('id').execute();
    expect(flags.map((r) => [r.name, Boolean(r.lawyers)])).toEqual([
      [SEEDED.administrator, false],
      [SEEDED.lawyer, true],
      [SEEDED.secretary, false],
    ]);
  });
});
