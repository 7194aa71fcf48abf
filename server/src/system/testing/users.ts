import { hashPassword } from '../../auth/password';
import type { Session, TestApp } from '../../test/harness';

let serial = 0;

/**
 * Creates an employee whose only role holds `permissions`, and signs them in. Written through the
 * engine's services (so roles and links are as the API would store them), then given a real
 * password hash, so the test does not depend on the people module's hooks.
 */
export async function signInWith(t: TestApp, permissions: string[]): Promise<Session> {
  const n = ++serial;
  const actor = { user: null };
  const rows = permissions.length
    ? await t.app.db.selectFrom('permissions').select(['id', 'key']).where('key', 'in', permissions).execute()
    : [];
  if (rows.length !== permissions.length)
    throw new Error(`Unknown permission among ${permissions.join(', ')}`);
  const role = await t.app.entities
    .get('roles')
    .create(actor, { name: `Test role ${n} ${Date.now()}`, permissionIds: rows.map((r) => Number(r.id)) });
  const password = 'Limited-pass-2026';
  const email = `limited${n}.${Date.now()}@mizan.test`;
  const employee = await t.app.entities.get('employees').create(actor, {
    name: `Limited ${n}`,
    email,
    username: `limited${n}x${Date.now()}`,
    password,
    roleIds: [role.id],
  });
  await t.app.db
    .updateTable('employees')
    .set({ password: await hashPassword(password), password_change_required: false })
    .where('id', '=', employee.id)
    .execute();
  return t.login(email, password);
}
