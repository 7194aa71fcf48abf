import { API_BASE, AUDIT_ROUTES, AUTH_ROUTES, LOG_ROUTES, SYSTEM_SETTINGS_ROUTES } from '@mizan/contracts';
import { createUserWith } from '../test/fixtures';
import { createTestApp, type Session, type TestApp } from '../test/harness';

// Every non-CRUD route is declared with `defineRoute`: one parse (422), one permission check and
// one OpenAPI entry built from the contracts' schemas.
describe('defineRoute', () => {
  let t: TestApp;
  let admin: Session;

  beforeAll(async () => {
    t = await createTestApp({ dialect: 'sqlite' });
    admin = await t.login();
  });
  afterAll(() => t.close());

  it('answers 422 with each field named by its label in the request language, and 400 for a non-object', async () => {
    const en = await t.app.inject({
      method: 'POST',
      url: API_BASE + AUTH_ROUTES.verifyResetCode.path,
      headers: { 'accept-language': 'en' },
      payload: { email: 'a@b.c', code: '12' },
    });
    expect(en.statusCode).toBe(422);
    expect(Object.keys(en.json().errors)).toEqual(['code']);
    expect(en.json().errors.code[0]).not.toMatch(/validation\.|auth\.labels/);

    const query = await t.app.inject({
      method: 'GET',
      url: `${API_BASE}${AUDIT_ROUTES.list.path}?pageSize=500&page=x`,
      headers: { ...admin.headers, 'accept-language': 'ar' },
    });
    expect(query.statusCode).toBe(422);
    expect(Object.keys(query.json().errors).sort()).toEqual(['page', 'pageSize']);

    const array = await t.app.inject({
      method: 'POST',
      url: API_BASE + AUTH_ROUTES.login.path,
      headers: { 'content-type': 'application/json' },
      payload: '[1]',
    });
    expect(array.statusCode).toBe(400);
  });

  it('checks the permission before parsing: 401 without a session, 403 without the key', async () => {
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `${API_BASE}${AUDIT_ROUTES.list.path}?pageSize=500`,
    });
    expect(anonymous.statusCode).toBe(401);
    const user = await createUserWith(t.app, admin.headers, ['courts.view']);
    const session = await t.login(user.email, user.password);
    const forbidden = await t.app.inject({
      method: 'GET',
      url: `${API_BASE}${LOG_ROUTES.latest.path}/dates`,
      headers: session.headers,
    });
    expect(forbidden.statusCode).toBe(403);
  });

  it('documents the routes with their schemas, security and answers', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { name: string }[];
            security?: unknown[];
            requestBody?: { content: Record<string, unknown> };
            responses: Record<string, unknown>;
          }
        >
      >;
    };
    const audit = doc.paths[API_BASE + AUDIT_ROUTES.list.path]!.get!;
    expect(audit.parameters!.map((p) => p.name)).toEqual(
      expect.arrayContaining(['page', 'pageSize', 'entity', 'from', 'to']),
    );
    expect(audit.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(audit.responses)).toEqual(expect.arrayContaining(['200', '4XX']));
    const login = doc.paths[API_BASE + AUTH_ROUTES.login.path]!.post!;
    expect(login.security).toBeUndefined();
    expect(Object.keys(login.requestBody!.content)).toEqual(['application/json']);
    const appearance = doc.paths[API_BASE + SYSTEM_SETTINGS_ROUTES.appearance.path]!.put!;
    expect(Object.keys(appearance.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(
      doc.paths[`${API_BASE}/admin/settings/courts/courts/import`]!.post!.parameters!.map((p) => p.name),
    ).toEqual(['dryRun']);
  });
});
