import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

const URL = '/api/admin/settings/sessions/types';

/** Saves and deletes of one row at the same instant, as two employees' screens send them. */
describe.each(dialects())('racing writes on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
  });
  afterAll(() => t.close());

  const create = async (name: string) => {
    const res = await t.app.inject({ method: 'POST', url: URL, headers: admin.headers, payload: { name } });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: number; updatedAt: string };
  };
  const total = async () =>
    (await t.app.inject({ method: 'GET', url: URL, headers: admin.headers })).json().data.total as number;

  it('answers a save racing a delete of its row 200 or 404, never 500; the count stays exact', async () => {
    const statuses = new Set<number>();
    const start = await total();
    for (let i = 0; i < 40; i++) {
      const row = await create(`race ${i}`);
      const [save, patch, remove, again] = await Promise.all([
        t.app.inject({
          method: 'PUT',
          url: URL,
          headers: admin.headers,
          payload: { id: row.id, name: `saved ${i}`, updatedAt: row.updatedAt },
        }),
        t.app.inject({
          method: 'PATCH',
          url: `${URL}/${row.id}`,
          headers: admin.headers,
          payload: { name: `p ${i}` },
        }),
        t.app.inject({ method: 'DELETE', url: `${URL}/${row.id}`, headers: admin.headers }),
        t.app.inject({ method: 'DELETE', url: `${URL}/${row.id}`, headers: admin.headers }),
      ]);
      for (const res of [save, patch, remove, again]) {
        statuses.add(res.statusCode);
        expect([200, 404, 409]).toContain(res.statusCode);
      }
      // Exactly one of the two deletes removed it.
      expect([remove.statusCode, again.statusCode].filter((s) => s === 200)).toHaveLength(1);
    }
    expect(await total()).toBe(start);
    expect(statuses.has(500)).toBe(false);
  });

  it('deletes at the version read, and refuses with 409 a delete of a row changed since', async () => {
    const row = await create('versioned');
    const saved = await t.app.inject({
      method: 'PATCH',
      url: `${URL}/${row.id}`,
      headers: { ...admin.headers, 'accept-language': 'en' },
      payload: { name: 'changed by a colleague', updatedAt: row.updatedAt },
    });
    expect(saved.statusCode).toBe(200);
    const stale = await t.app.inject({
      method: 'DELETE',
      url: `${URL}/${row.id}?updatedAt=${encodeURIComponent(row.updatedAt)}`,
      headers: { ...admin.headers, 'accept-language': 'en' },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'stale', current: { name: 'changed by a colleague' } });
    const bad = await t.app.inject({
      method: 'DELETE',
      url: `${URL}/${row.id}?updatedAt=yesterday`,
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(422);
    const current = saved.json().data as { updatedAt: string };
    const ok = await t.app.inject({
      method: 'DELETE',
      url: `${URL}/${row.id}?updatedAt=${encodeURIComponent(current.updatedAt)}`,
      headers: admin.headers,
    });
    expect(ok.statusCode).toBe(200);
  });
});
