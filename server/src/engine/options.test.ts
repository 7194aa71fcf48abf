import {
  API_BASE,
  SEEDED_ROLES,
  OPTIONS_ROUTES,
  pathOf,
  permissionKey,
  registry,
  type OptionsResult,
} from '@mizan/contracts';
import { createRow, createUserWith, TEST_PASSWORD } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

/** Every reference field of the registry, as `[entity, field]`. */
const REFERENCES = registry.flatMap((entity) =>
  Object.entries(entity.fields).flatMap(([field, definition]) =>
    definition.type === 'ref' || definition.type === 'refs' ? [[entity.name, field] as const] : [],
  ),
);
const HOLDERS = [...new Set(REFERENCES.map(([entity]) => entity))];

/**
 * Reference pickers: every `ref`/`refs` field offers its rows to whoever may view, create or
 * update the entity holding it, without reading the referenced entity; lawyer fields offer lawyers.
 */
describe.each(dialects())('reference options on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const get = (session: Session, entity: string, field: string, query = '') =>
    t.app.inject({
      method: 'GET',
      url: `${API_BASE}${pathOf(OPTIONS_ROUTES.list.path, { entity, field })}${query}`,
      headers: session.headers,
    });
  const items = async (session: Session, entity: string, field: string, query = '') => {
    const res = await get(session, entity, field, query);
    expect(res.statusCode).toBe(200);
    return (res.json().data as OptionsResult).items;
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
  });
  afterAll(() => t.close());

  it('answers every reference field of the registry to a writer or reader of its entity, and only to them', async () => {
    // Half the holding entities written (create or update, in turn), the other half only read.
    const writes = HOLDERS.filter((_, i) => i % 2 === 0);
    const reads = HOLDERS.filter((_, i) => i % 2 === 1);
    const writer = await createUserWith(
      t.app,
      admin.headers,
      writes.map((entity, i) => permissionKey(entity, i % 4 === 0 ? 'create' : 'update')),
    );
    const reader = await createUserWith(
      t.app,
      admin.headers,
      reads.map((entity) => permissionKey(entity, 'view')),
    );
    const asWriter = await t.login(writer.email, writer.password);
    const asReader = await t.login(reader.email, reader.password);
    expect(REFERENCES.length).toBeGreaterThan(30);
    for (const [entity, field] of REFERENCES) {
      const allowed = writes.includes(entity) ? asWriter : asReader;
      const refused = writes.includes(entity) ? asReader : asWriter;
      const ok = await get(allowed, entity, field);
      expect([entity, field, ok.statusCode]).toEqual([entity, field, 200]);
      expect(Array.isArray(ok.json().data.items)).toBe(true);
      const no = await get(refused, entity, field);
      expect([entity, field, no.statusCode]).toEqual([entity, field, 403]);
      expect(no.json().message).toMatch(/[\u0600-\u06FF]/);
    }
  });

  it('offers only lawyers to lawyer fields, anyone to a task, and the labels of chosen values whatever they are', async () => {
    const lawyerRole = await createRow(t.app, admin.headers, 'roles', { name: 'محامون كبار', lawyers: true });
    const deskRole = await createRow(t.app, admin.headers, 'roles', { name: 'الاستقبال', lawyers: false });
    const employee = (name: string, roleId: number, jobTitle: string) =>
      createRow(t.app, admin.headers, 'employees', {
        name,
        jobTitle,
        email: `${jobTitle.replace(/\W/g, '')}${roleId}@mizan.test`,
        username: `u${roleId}${jobTitle.length}`,
        password: TEST_PASSWORD,
        roleIds: [roleId],
      });
    const lawyer = await employee('أحمد الشريف', lawyerRole.id, 'partner');
    const desk = await employee('أحمد الموظف', deskRole.id, 'reception');
    // A secretary may register lawsuits and tasks but not read employees.
    const user = await createUserWith(t.app, admin.headers, [
      permissionKey('lawsuits', 'create'),
      permissionKey('tasks', 'create'),
    ]);
    const session = await t.login(user.email, user.password);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `${API_BASE}/employees/employees`,
          headers: session.headers,
        })
      ).statusCode,
    ).toBe(403);

    const lawyers = await items(session, 'lawsuits', 'lawyerIds', `?q=${encodeURIComponent('احمد')}`);
    expect(lawyers.map((o) => o.id)).toEqual([lawyer.id]);
    expect(lawyers[0]).toEqual({
      id: lawyer.id,
      title: 'أحمد الشريف',
      detail: `partner · ${String(lawyer.email)}`,
    });
    const assignees = await items(session, 'tasks', 'assigneeIds', `?q=${encodeURIComponent('أحمد')}`);
    expect(assignees.map((o) => o.id).sort()).toEqual([lawyer.id, desk.id].sort());
    // Only the fields' own rows: no email, password or role of the employee beyond the detail line.
    expect(Object.keys(assignees[0]!).sort()).toEqual(['detail', 'id', 'title']);
    // A value already chosen keeps its label even when the field would not offer it now.
    const chosen = await items(session, 'lawsuits', 'lawyerIds', `?ids=${desk.id},${lawyer.id}`);
    expect(chosen).toEqual(
      [
        { id: lawyer.id, title: 'أحمد الشريف', detail: `partner · ${String(lawyer.email)}` },
        { id: desk.id, title: 'أحمد الموظف', detail: `reception · ${String(desk.email)}` },
      ].sort((a, b) => a.id - b.id),
    );

    // The seeded lawyer role is a lawyers' role; the administrator, not holding one, is not offered.
    const seededLawyer = SEEDED_ROLES.find((r) => r.key === 'lawyer')!;
    const roles = (
      await t.app.inject({
        method: 'GET',
        url: `${API_BASE}/employees/roles?lawyers=true&pageSize=100`,
        headers: admin.headers,
      })
    ).json().data.items as { name: string }[];
    expect(roles.map((r) => r.name)).toContain(seededLawyer.name);
    expect(roles.map((r) => r.name)).not.toContain(SEEDED_ROLES[0]!.name);
    // Hearings are not this user's to write or read: their lawyer picker is refused.
    expect((await get(session, 'sessions', 'lawyerId')).statusCode).toBe(403);
  });

  it("narrows by the referenced list's filters: the circuits of one court", async () => {
    const court = await createRow(t.app, admin.headers, 'courts');
    const other = await createRow(t.app, admin.headers, 'courts');
    const mine = await createRow(t.app, admin.headers, 'circuits', { courtId: court.id });
    await createRow(t.app, admin.headers, 'circuits', { courtId: other.id });
    const found = await items(admin, 'lawsuits', 'circuitId', `?courtId=${court.id}`);
    expect(found.map((o) => o.id)).toEqual([mine.id]);
    const bad = await get(admin, 'lawsuits', 'circuitId', '?courtId=abc');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['courtId']);
  });

  it('answers 404 for an unknown entity, field or a field that is no reference, 422 for bad ids, 401 signed out', async () => {
    expect((await get(admin, 'nothing', 'lawyerIds')).statusCode).toBe(404);
    expect((await get(admin, 'lawsuits', 'nothing')).statusCode).toBe(404);
    expect((await get(admin, 'lawsuits', 'subject')).statusCode).toBe(404);
    const bad = await get(admin, 'lawsuits', 'lawyerIds', '?ids=1,x');
    expect(bad.statusCode).toBe(422);
    const out = await t.app.inject({
      method: 'GET',
      url: `${API_BASE}${pathOf(OPTIONS_ROUTES.list.path, { entity: 'lawsuits', field: 'lawyerIds' })}`,
    });
    expect(out.statusCode).toBe(401);
  });
});
