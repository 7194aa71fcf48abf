import { createUserWith, entityUrl } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { MANAGEMENT_PERMISSIONS } from './lockout';

const VIEW = ['roles.view', 'employees.view'];
const SWITCHES = ['roles.status', 'roles.baned', 'employees.status', 'employees.baned', 'employees.delete'];

const LAST = 'no active employee would be left holding both';
const OWN_ACCOUNT = 'You cannot deactivate, ban or delete your own account; ask another administrator';
const OWN_ROLE = 'You cannot deactivate, ban or delete a role you hold; ask another administrator';

describe.each(dialects())('lock-out guards (%s)', (dialect) => {
  let t: TestApp;
  /** The seeded administrator (role Administrator, every permission). */
  let admin: Session;
  /** A second manager: the management permissions and the switches, through its own role. */
  let manager: Session;
  /** Staff who may switch accounts and roles off but not manage them. */
  let staff: Session;
  let ids: { admin: number; adminRole: number; manager: number; managerRole: number };

  const en = (session: Session) => ({ ...session.headers, 'accept-language': 'en' });
  const toggle = (session: Session, entity: string, key: 'status' | 'baned', id: number, value: boolean) =>
    t.app.inject({
      method: 'PATCH',
      url: `${entityUrl(entity)}/${key}/${id}`,
      headers: en(session),
      payload: { [key]: value },
    });
  const row = async (entity: string, id: number) =>
    (
      await t.app.inject({ method: 'GET', url: `${entityUrl(entity)}/${id}`, headers: manager.headers })
    ).json().data;
  const signedIn = async (session: Session) =>
    (await t.app.inject({ method: 'POST', url: '/api/auth/check', headers: session.headers })).statusCode;
  const refused = (res: { statusCode: number; json(): unknown }, message: string) => {
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'conflict', message: expect.stringContaining(message) });
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    const managerCreds = await createUserWith(t.app, admin.headers, [
      ...MANAGEMENT_PERMISSIONS,
      ...SWITCHES,
      ...VIEW,
    ]);
    manager = await t.login(managerCreds.email, managerCreds.password);
    const staffCreds = await createUserWith(t.app, admin.headers, [...SWITCHES, ...VIEW]);
    staff = await t.login(staffCreds.email, staffCreds.password);
    const roleOf = (s: Session) => (s.user.Roles as { id: number }[])[0]!.id;
    ids = {
      admin: admin.user.id,
      adminRole: roleOf(admin),
      manager: manager.user.id,
      managerRole: roleOf(manager),
    };
  });
  afterAll(() => t.close());

  it('refuses switching off one’s own account (409), changing nothing', async () => {
    refused(await toggle(manager, 'employees', 'status', ids.manager, false), OWN_ACCOUNT);
    refused(await toggle(manager, 'employees', 'baned', ids.manager, true), OWN_ACCOUNT);
    refused(
      await t.app.inject({
        method: 'DELETE',
        url: `${entityUrl('employees')}/${ids.manager}`,
        headers: en(manager),
      }),
      OWN_ACCOUNT,
    );
    refused(await toggle(admin, 'employees', 'status', ids.admin, false), OWN_ACCOUNT);
    expect(await row('employees', ids.manager)).toMatchObject({ status: true, baned: false });
    expect(await signedIn(manager)).toBe(200);
  });

  it('refuses switching off a role one holds, in Arabic by default', async () => {
    refused(await toggle(manager, 'roles', 'status', ids.managerRole, false), OWN_ROLE);
    refused(await toggle(admin, 'roles', 'baned', ids.adminRole, true), OWN_ROLE);
    const arabic = await t.app.inject({
      method: 'PATCH',
      url: `${entityUrl('roles')}/status/${ids.adminRole}`,
      headers: admin.headers,
      payload: { status: false },
    });
    expect(arabic.statusCode).toBe(409);
    expect(arabic.json().message).toBe('لا يمكنك إيقاف أو حظر أو حذف دور تحمله أنت، اطلب ذلك من مدير آخر');
    expect(await row('roles', ids.adminRole)).toMatchObject({ status: true, baned: false });
    expect(await signedIn(admin)).toBe(200);
  });

  it('refuses taking account management away from the last employee who has it', async () => {
    // Another manager remains: the Administrator role may be switched off.
    expect((await toggle(manager, 'roles', 'status', ids.adminRole, false)).statusCode).toBe(200);
    expect(await signedIn(admin)).toBe(403);

    // Now the manager is the last one: banning or deactivating them or their role is refused.
    refused(await toggle(staff, 'employees', 'baned', ids.manager, true), LAST);
    refused(await toggle(staff, 'employees', 'status', ids.manager, false), LAST);
    refused(await toggle(staff, 'roles', 'baned', ids.managerRole, true), LAST);
    refused(await toggle(staff, 'roles', 'status', ids.managerRole, false), LAST);
    refused(
      await t.app.inject({
        method: 'DELETE',
        url: `${entityUrl('employees')}/${ids.manager}`,
        headers: en(staff),
      }),
      LAST,
    );
    // ...and so is taking a management permission from the last role that grants it.
    const role = await row('roles', ids.managerRole);
    const withoutRolesUpdate = role.permissions
      .filter((p: { key?: string; name?: string }) => (p.key ?? p.name) !== 'roles.update')
      .map((p: { id: number }) => p.id);
    expect(withoutRolesUpdate.length).toBe(role.permissions.length - 1);
    refused(
      await t.app.inject({
        method: 'PUT',
        url: entityUrl('roles'),
        headers: en(manager),
        payload: { id: ids.managerRole, name: role.name, permissionIds: withoutRolesUpdate },
      }),
      LAST,
    );
    expect(await row('employees', ids.manager)).toMatchObject({ status: true, baned: false });
    expect(await row('roles', ids.managerRole)).toMatchObject({ status: true, baned: false });
    expect(await signedIn(manager)).toBe(200);

    // Accounts without management may still be switched off, and anything switched back on.
    expect((await toggle(staff, 'employees', 'baned', ids.admin, true)).statusCode).toBe(200);
    expect((await toggle(manager, 'roles', 'status', ids.adminRole, true)).statusCode).toBe(200);
    refused(await toggle(staff, 'employees', 'baned', ids.manager, true), LAST);
    expect((await toggle(staff, 'employees', 'baned', ids.admin, false)).statusCode).toBe(200);
    // The administrator manages again, so the manager is no longer the last one.
    expect((await toggle(staff, 'employees', 'baned', ids.manager, true)).statusCode).toBe(200);
    expect(await signedIn(manager)).toBe(403);
  });
});
