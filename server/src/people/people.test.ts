import type { AddressInfo } from 'node:net';
import FormData from 'form-data';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { SEEDED, headers, insertEmployee } from '../auth/testing/fixtures';

const EMPLOYEES = '/api/employees/employees';
const PROFILE = `${EMPLOYEES}/profile`;
const CHANGE = `${EMPLOYEES}/changePassword`;
const ADMIN_RESET = (id: number) => `${EMPLOYEES}/resetPassword/${id}`;

describe.each(dialects())('people (%s)', (dialect) => {
  let t: TestApp;
  let db: FastifyInstance['db'];
  let admin: Session;
  let lawyerRoleId: number;

  const signIn = async (email: string, password: string, fingerprint = `fp-${email}-${Math.random()}`) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'x-fingerprint-session': fingerprint, 'accept-language': 'en' },
      payload: { email, password },
    });
    if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
    const { token, passwordChangeRequired } = res.json().data;
    return {
      token,
      passwordChangeRequired: passwordChangeRequired as boolean,
      headers: {
        authorization: `Bearer ${token}`,
        'x-fingerprint-session': fingerprint,
        'accept-language': 'en',
      },
    };
  };
  const sessionWorks = async (h: Record<string, string>) =>
    (await t.app.inject({ method: 'POST', url: '/api/auth/check', headers: h })).statusCode === 200;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    db = t.app.db;
    admin = await t.login();
    admin.headers['accept-language'] = 'en';
    const role = await db
      .selectFrom('roles')
      .select('id')
      .where('name', '=', SEEDED.lawyer)
      .executeTakeFirstOrThrow();
    lawyerRoleId = Number(role.id);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    for (const limiter of Object.values(t.app.auth.limiters)) {
      (limiter as unknown as { windows: Map<string, unknown> }).windows.clear();
    }
  });

  const create = (body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: EMPLOYEES, headers: admin.headers, payload: body });

  it('hashes the password of a new employee, refuses a weak one, and forces a change at first sign-in', async () => {
    const weak = await create({
      name: 'Weak',
      email: 'weak@law.test',
      username: 'weak',
      password: '12345678',
    });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors.password[0]).toContain('weak');
    expect(
      await db.selectFrom('employees').select('id').where('username', '=', 'weak').executeTakeFirst(),
    ).toBeUndefined();

    const res = await create({
      name: 'Huda',
      email: 'huda@law.test',
      username: 'huda',
      password: 'First-pass-1',
      roleIds: [lawyerRoleId],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.password).toBeUndefined();
    const row = await db
      .selectFrom('employees')
      .selectAll()
      .where('username', '=', 'huda')
      .executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^\$argon2id\$/);

    const first = await signIn('huda', 'First-pass-1');
    expect(first.passwordChangeRequired).toBe(true);
    const blocked = await t.app.inject({
      method: 'GET',
      url: '/api/admin/settings/courts/courts',
      headers: first.headers,
    });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().message).toBe('You must change your password to continue');
  });

  it('changes the password: checks the current one, clears the forced change, keeps this session and ends the others', async () => {
    const other = await signIn('huda', 'First-pass-1');
    const current = await signIn('huda', 'First-pass-1');
    const change = (payload: Record<string, string>) =>
      t.app.inject({ method: 'PUT', url: CHANGE, headers: current.headers, payload });

    const wrong = await change({ currentPassword: 'Not-it-123', newPassword: 'Second-pass-2' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({ currentPassword: ['The current password is incorrect'] });
    const weak = await change({ currentPassword: 'First-pass-1', newPassword: 'short' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors.newPassword[0]).toBe('The password must be at least 8 characters');
    const same = await change({ currentPassword: 'First-pass-1', newPassword: 'First-pass-1' });
    expect(same.statusCode).toBe(422);
    const missing = await change({ currentPassword: 'First-pass-1' });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(['newPassword']);

    const done = await change({ currentPassword: 'First-pass-1', newPassword: 'Second-pass-2' });
    expect(done.statusCode).toBe(200);
    expect(done.json().data.message).toBe('Your password has been changed');
    expect(await sessionWorks(current.headers)).toBe(true);
    expect(await sessionWorks(other.headers)).toBe(false);
    const courts = await t.app.inject({
      method: 'GET',
      url: '/api/admin/settings/courts/courts',
      headers: current.headers,
    });
    expect(courts.statusCode).toBe(200);
    const next = await signIn('huda', 'Second-pass-2');
    expect(next.passwordChangeRequired).toBe(false);
    const audit = await db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'changePassword')
      .execute();
    expect(audit.length).toBeGreaterThan(0);
  });

  it('locks change-password after 5 wrong current passwords', async () => {
    const s = await signIn('huda', 'Second-pass-2');
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'PUT',
        url: CHANGE,
        headers: s.headers,
        payload: { currentPassword: `Wrong-${i}-pass`, newPassword: 'Third-pass-3' },
      });
      expect(res.statusCode).toBe(422);
    }
    const locked = await t.app.inject({
      method: 'PUT',
      url: CHANGE,
      headers: s.headers,
      payload: { currentPassword: 'Second-pass-2', newPassword: 'Third-pass-3' },
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
  });

  it('shows and updates the own profile; email and username stay unique; other fields are not touched', async () => {
    const s = await signIn('huda', 'Second-pass-2');
    const got = await t.app.inject({ method: 'GET', url: PROFILE, headers: s.headers });
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toMatchObject({
      username: 'huda',
      roleIds: [lawyerRoleId],
      roles: [{ id: lawyerRoleId, name: SEEDED.lawyer }],
      Roles: [{ name: SEEDED.lawyer }],
      passwordChangeRequired: false,
    });
    expect(got.json().data.password).toBeUndefined();

    const put = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: PROFILE, headers: s.headers, payload });
    const updated = await put({
      name: 'Huda Salem',
      phone: '+966500000001',
      jobTitle: 'Senior lawyer',
      roleIds: [1],
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({
      name: 'Huda Salem',
      phone: '+966500000001',
      jobTitle: 'Senior lawyer',
      email: 'huda@law.test',
      roleIds: [lawyerRoleId],
    });

    const takenEmail = await put({ email: 'admin@mizan.test' });
    expect(takenEmail.statusCode).toBe(409);
    expect(Object.keys(takenEmail.json().errors)).toEqual(['email']);
    const takenUsername = await put({ username: 'admin' });
    expect(takenUsername.statusCode).toBe(409);
    const badEmail = await put({ email: 'not-an-email' });
    expect(badEmail.statusCode).toBe(422);
    const blankName = await put({ name: '   ' });
    expect(blankName.statusCode).toBe(422);

    const renamed = await put({ email: 'huda.salem@law.test', username: 'hsalem' });
    expect(renamed.statusCode).toBe(200);
    await signIn('hsalem', 'Second-pass-2');
    await signIn('huda.salem@law.test', 'Second-pass-2');
  });

  it('bans an employee: every session ends at once and sign-in is refused', async () => {
    const id = await insertEmployee(db, { email: 'banme@law.test', username: 'banme', roles: ['Lawyer'] });
    const a = await signIn('banme', 'Secret-pass-1');
    const b = await signIn('banme', 'Secret-pass-1');
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${EMPLOYEES}/baned/${id}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.baned).toBe(true);
    expect(await sessionWorks(a.headers)).toBe(false);
    expect(await sessionWorks(b.headers)).toBe(false);
    const open = await db
      .selectFrom('sessions')
      .select('id')
      .where('employee_id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    expect(open).toHaveLength(0);
    await expect(signIn('banme', 'Secret-pass-1')).rejects.toThrow(/403/);
  });

  it('deactivates an employee: sessions end and sign-in is refused as inactive', async () => {
    const id = await insertEmployee(db, { email: 'idle@law.test', username: 'idle', roles: ['Lawyer'] });
    const s = await signIn('idle', 'Secret-pass-1');
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${EMPLOYEES}/status/${id}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe(false);
    expect(await sessionWorks(s.headers)).toBe(false);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: headers(),
      payload: { email: 'idle', password: 'Secret-pass-1' },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toBe('Your account is inactive, please contact the administrator');
  });

  it('bans a role: the sessions of everyone holding it end at once, others keep theirs', async () => {
    const roleRes = await t.app.inject({
      method: 'POST',
      url: '/api/employees/roles',
      headers: admin.headers,
      payload: { name: 'Interns', permissionIds: [] },
    });
    expect(roleRes.statusCode).toBe(201);
    const roleId = roleRes.json().data.id as number;
    const holderId = await insertEmployee(db, { email: 'intern@law.test', username: 'intern' });
    await db.insertInto('employees_role_ids').values({ owner_id: holderId, ref_id: roleId }).execute();
    await insertEmployee(db, { email: 'bystander@law.test', username: 'bystander', roles: ['Lawyer'] });
    const holder = await signIn('intern', 'Secret-pass-1');
    const bystander = await signIn('bystander', 'Secret-pass-1');

    const ban = await t.app.inject({
      method: 'PATCH',
      url: `/api/employees/roles/baned/${roleId}`,
      headers: admin.headers,
    });
    expect(ban.statusCode).toBe(200);
    expect(await sessionWorks(holder.headers)).toBe(false);
    expect(await sessionWorks(bystander.headers)).toBe(true);
    const revoked = await db
      .selectFrom('sessions')
      .select('revoked_at')
      .where('employee_id', '=', holderId)
      .execute();
    expect(revoked.every((r) => r.revoked_at !== null)).toBe(true);

    await t.app.inject({
      method: 'PATCH',
      url: `/api/employees/roles/baned/${roleId}`,
      headers: admin.headers,
    });
    const off = await t.app.inject({
      method: 'PATCH',
      url: `/api/employees/roles/status/${roleId}`,
      headers: admin.headers,
    });
    expect(off.json().data.status).toBe(false);
    await expect(signIn('intern', 'Secret-pass-1')).rejects.toThrow(/403/);
  });

  it('closes the WebSocket of a banned employee with 4403', async () => {
    const id = await insertEmployee(db, { email: 'ws@law.test', username: 'wsuser', roles: ['Lawyer'] });
    const s = await signIn('wsuser', 'Secret-pass-1', 'fp-ws');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const socket = new WebSocket(
      `ws://127.0.0.1:${port}/api/ws?Authorization=${s.token}&x-fingerprint-session=fp-ws&x-fingerprint=dev`,
    );
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${EMPLOYEES}/baned/${id}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(await closed).toBe(4403);
  });

  it('closes the WebSocket of a session at sign-out', async () => {
    await insertEmployee(db, { email: 'bye@law.test', username: 'byeuser', roles: ['Lawyer'] });
    const s = await signIn('byeuser', 'Secret-pass-1', 'fp-bye');
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const socket = new WebSocket(
      `ws://127.0.0.1:${port}/api/ws?Authorization=${s.token}&x-fingerprint-session=fp-bye&x-fingerprint=dev`,
    );
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: s.headers });
    expect(res.statusCode).toBe(200);
    expect(await closed).toBe(4403);
  });

  it('lets an administrator set a temporary password: sessions end, a change is forced', async () => {
    const id = await insertEmployee(db, {
      email: 'forgetful@law.test',
      username: 'forgetful',
      roles: ['Lawyer'],
    });
    const s = await signIn('forgetful', 'Secret-pass-1');
    const lawyer = await signIn('forgetful', 'Secret-pass-1');

    const denied = await t.app.inject({
      method: 'PUT',
      url: ADMIN_RESET(id),
      headers: lawyer.headers,
      payload: { password: 'Temp-pass-99' },
    });
    expect(denied.statusCode).toBe(403);
    const weak = await t.app.inject({
      method: 'PUT',
      url: ADMIN_RESET(id),
      headers: admin.headers,
      payload: { password: 'abc' },
    });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors.password).toHaveLength(1);
    const missing = await t.app.inject({
      method: 'PUT',
      url: ADMIN_RESET(999999),
      headers: admin.headers,
      payload: { password: 'Temp-pass-99' },
    });
    expect(missing.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'PUT',
      url: ADMIN_RESET(0).replace('/0', '/x'),
      headers: admin.headers,
      payload: { password: 'Temp-pass-99' },
    });
    expect(bad.statusCode).toBe(404);

    const done = await t.app.inject({
      method: 'PUT',
      url: ADMIN_RESET(id),
      headers: admin.headers,
      payload: { password: 'Temp-pass-99' },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().data.message).toContain('temporary password');
    expect(await sessionWorks(s.headers)).toBe(false);
    const next = await signIn('forgetful', 'Temp-pass-99');
    expect(next.passwordChangeRequired).toBe(true);
    await expect(signIn('forgetful', 'Secret-pass-1')).rejects.toThrow(/401/);
  });

  it('asks for a signed-in user on the profile and password routes', async () => {
    for (const [method, url] of [
      ['GET', PROFILE],
      ['PUT', PROFILE],
      ['PUT', CHANGE],
      ['PUT', ADMIN_RESET(1)],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: headers(),
        payload: method === 'GET' ? undefined : {},
      });
      expect(res.statusCode).toBe(401);
    }
  });

  it('accepts a multipart create with a file, and the file can be deleted', async () => {
    const form = new FormData();
    form.append('name', 'Multi Part');
    form.append('email', 'multi@law.test');
    form.append('username', 'multipart');
    form.append('password', 'Multi-pass-1');
    form.append('roleIds', String(lawyerRoleId));
    form.append('files', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n'), {
      filename: 'contract.pdf',
      contentType: 'application/pdf',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: EMPLOYEES,
      headers: { ...admin.headers, ...form.getHeaders() },
      payload: form.getBuffer(),
    });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.files).toHaveLength(1);
    expect(data.roleIds).toEqual([lawyerRoleId]);
    const s = await signIn('multipart', 'Multi-pass-1');
    expect(s.passwordChangeRequired).toBe(true);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${EMPLOYEES}/delete/file/${data.id}/${data.files[0].id}`,
      headers: admin.headers,
    });
    expect(del.statusCode).toBe(200);
    expect(del.json().data.files).toHaveLength(0);
  });

  it('updates an employee by multipart and never changes the password through the generic update', async () => {
    const id = await insertEmployee(db, { email: 'mp@law.test', username: 'mpuser', roles: ['Lawyer'] });
    const form = new FormData();
    form.append('id', String(id));
    form.append('name', 'Updated By Form');
    form.append('email', 'mp@law.test');
    form.append('username', 'mpuser');
    form.append('password', 'Sneaky-pass-1');
    form.append('files', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), {
      filename: 'photo.png',
      contentType: 'image/png',
    });
    const res = await t.app.inject({
      method: 'PUT',
      url: EMPLOYEES,
      headers: { ...admin.headers, ...form.getHeaders() },
      payload: form.getBuffer(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Updated By Form', roleIds: [lawyerRoleId] });
    expect(res.json().data.files).toHaveLength(1);
    await signIn('mpuser', 'Secret-pass-1');
    await expect(signIn('mpuser', 'Sneaky-pass-1')).rejects.toThrow(/401/);
  });

  it('deletes an employee together with their sessions, keeping the login history', async () => {
    const id = await insertEmployee(db, { email: 'gone@law.test', username: 'gone', roles: ['Lawyer'] });
    const s = await signIn('gone', 'Secret-pass-1');
    const res = await t.app.inject({ method: 'DELETE', url: `${EMPLOYEES}/${id}`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(await sessionWorks(s.headers)).toBe(false);
    expect(await db.selectFrom('sessions').select('id').where('employee_id', '=', id).execute()).toHaveLength(
      0,
    );
    const history = await db
      .selectFrom('login_history')
      .select('employee_id')
      .where('identifier', '=', 'gone')
      .execute();
    expect(history).toEqual([{ employee_id: null }]);
  });
});
