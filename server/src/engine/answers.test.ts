import { defineEntity, type Entity, type Fields } from '@mizan/contracts';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { rememberingZlib, unchanging } from '../http/headers';
import { createUserWith } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { parseVersions, readStamp, stampOf, versionsColumn } from '../db/counts';
import { StampedCache } from '../db/stampedCache';
import { serveEntities } from './testEntities';

/**
 * Whole list answers kept while the write versions of everything they are read from hold: the
 * rows, the links of `refs` fields and the titles of referenced rows. Writes are made around the
 * engine (plain SQL) as well as through it: the triggers see every statement.
 */
const engineFolders = defineEntity({
  name: 'engineFolders',
  path: '/admin/engine-tests/folders',
  remote: 'settings',
  menu: false,
  fields: {
    name: { type: 'string', required: true, max: 100, search: true, sort: true },
    typeId: { type: 'ref', entity: 'lawsuitTypes', filter: true },
    branchIds: { type: 'refs', entity: 'branches' },
  },
});
const FOLDERS = engineFolders as Entity<Fields>;
const URL = '/api/admin/engine-tests/folders';

describe.each(dialects())('list answers kept between requests on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let typeId: number;
  let branchId: number;

  const reads = () => jest.spyOn(t.app.entities.get(FOLDERS.name).repo, 'page');
  const list = async (query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `${URL}${query}`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return { body: res.body, data: res.json().data as { items: Record<string, unknown>[]; total: number } };
  };
  const now = () => new Date().toISOString();
  /** A settings row written around the engine; its id. */
  const insertNamed = async (table: string, name: string) =>
    Number(
      (
        await t.app.db
          .insertInto(table)
          .values({ name, status: true, created_at: now(), updated_at: now() })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { entities: [FOLDERS] } });
    await serveEntities(t, [FOLDERS]);
    admin = await t.login();
    typeId = await insertNamed('lawsuit_types', 'إيجارات');
    branchId = await insertNamed('branches', 'فرع الدقي');
    for (const name of ['ملف أ', 'ملف ب'])
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: URL,
            headers: admin.headers,
            payload: { name, typeId, branchIds: [branchId] },
          })
        ).statusCode,
      ).toBe(201);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  it('answers the same query with the same bytes without reading the rows again', async () => {
    const page = reads();
    const first = await list('?sort=name:asc');
    expect(first.data.items.map((r) => r.name)).toEqual(['ملف أ', 'ملف ب']);
    expect(first.data.items[0]).toMatchObject({ type: { id: typeId, name: 'إيجارات' } });
    const again = await list('?sort=name:asc');
    expect(again.body).toBe(first.body);
    expect(page).toHaveBeenCalledTimes(1);
    // Another page, sort or filter is another answer.
    await list('?sort=name:desc');
    await list(`?typeId=${typeId}&sort=name:asc`);
    expect(page).toHaveBeenCalledTimes(3);
  });

  it('sends a kept answer compressed as the browser asks, the same bytes each time', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: URL,
        headers: admin.headers,
        payload: { name: `ملف طويل ${i} ${'ن'.repeat(60)}`, typeId },
      });
      expect(res.statusCode).toBe(201);
      ids.push(res.json().data.id as number);
    }
    const plain = await list('?pageSize=50');
    const get = () =>
      t.app.inject({
        method: 'GET',
        url: `${URL}?pageSize=50`,
        headers: { ...admin.headers, 'accept-encoding': 'br, gzip' },
      });
    const [first, second] = [await get(), await get()];
    expect(first.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(first.rawPayload).toString()).toBe(plain.body);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    // Through the API: the maintained total follows.
    for (const id of ids)
      expect(
        (await t.app.inject({ method: 'DELETE', url: `${URL}/${id}`, headers: admin.headers })).statusCode,
      ).toBe(200);
  });

  it('reads once for requests of one answer arriving together', async () => {
    const page = reads();
    const answers = await Promise.all(Array.from({ length: 5 }, () => list('?sort=name:asc&pageSize=7')));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(page).toHaveBeenCalledTimes(1);
  });

  it('reads again after a write of its rows, through the API or around it', async () => {
    await list('?sort=name:asc');
    const created = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: admin.headers,
      payload: { name: 'ملف ج', typeId },
    });
    expect(created.statusCode).toBe(201);
    expect((await list('?sort=name:asc')).data.items.map((r) => r.name)).toEqual(['ملف أ', 'ملف ب', 'ملف ج']);

    await t.app.db.updateTable(FOLDERS.table).set({ name: 'ملف ج ١' }).where('name', '=', 'ملف ج').execute();
    const { data } = await list('?sort=name:asc');
    expect(data.items.map((r) => r.name)).toEqual(['ملف أ', 'ملف ب', 'ملف ج ١']);
    expect(data.total).toBe(3);
  });

  it('reads again after a referenced row or a link changed', async () => {
    await list('?sort=name:asc');
    await t.app.db
      .updateTable('lawsuit_types')
      .set({ name: 'إيجارات قديمة' })
      .where('id', '=', typeId)
      .execute();
    const renamed = await list('?sort=name:asc');
    expect(renamed.data.items[0]).toMatchObject({ type: { id: typeId, name: 'إيجارات قديمة' } });

    const [firstRow] = renamed.data.items;
    await t.app.db
      .deleteFrom('engine_folders_branch_ids')
      .where('owner_id', '=', Number(firstRow!.id))
      .execute();
    const unlinked = await list('?sort=name:asc');
    expect(unlinked.data.items[0]).toMatchObject({ branchIds: [], branches: [] });
    expect(unlinked.data.items[1]).toMatchObject({ branchIds: [branchId] });
  });

  it("keeps each reader's answers apart when a hook declares it answers per user", async () => {
    const viewer = await createUserWith(t.app, admin.headers, ['engineFolders.view']);
    const other = await t.login(viewer.email, viewer.password);
    const get = async (session: Session) =>
      (await t.app.inject({ method: 'GET', url: `${URL}?sort=name:asc`, headers: session.headers })).json()
        .data.items as Record<string, unknown>[];
    // What each reader sees depends on them, and on the lawsuit types' rows.
    const stop = t.app.entities.hooks(FOLDERS.name, {
      reads: { entities: ['lawsuitTypes'], perUser: true },
      async expand(ctx, rows) {
        const types = await ctx.db.selectFrom('lawsuit_types').select('id').execute();
        return rows.map((row) => ({ ...row, reader: ctx.user?.id, types: types.length }));
      },
    });
    try {
      const page = reads();
      const [mine, theirs] = [await get(admin), await get(other)];
      expect(mine[0]).toMatchObject({ reader: admin.user.id });
      expect(theirs[0]).toMatchObject({ reader: other.user.id });
      await get(admin);
      await get(other);
      expect(page).toHaveBeenCalledTimes(2);

      await insertNamed('lawsuit_types', 'تجاري');
      expect((await get(other))[0]!.types).toBe((theirs[0]!.types as number) + 1);
      // A change of what an account may do is a change of what it is answered.
      await t.app.db.updateTable('roles').set({ updated_at: now() }).execute();
      await get(other);
      expect(page).toHaveBeenCalledTimes(4);
    } finally {
      stop();
    }
  });

  it('stamps the same from the versions read with the session as from their own statement', async () => {
    await insertNamed('branches', `فرع ${Date.now()}`);
    const { versions } = await t.app.db
      .selectNoFrom(versionsColumn(t.app.db).as('versions'))
      .executeTakeFirstOrThrow();
    const read = parseVersions(versions);
    expect(read.get('branches')?.total).toBeGreaterThan(0);
    for (const entities of [
      ['roles', 'employees', 'permissions'],
      [FOLDERS.name, 'lawsuitTypes', 'branches'],
    ])
      expect(stampOf(read, entities)).toEqual(await readStamp(t.app.db, entities));
    // An entity without a row: no stamp, as readStamp says.
    expect(stampOf(read, ['branches', 'nothing'])).toEqual(
      await readStamp(t.app.db, ['branches', 'nothing']),
    );
    expect(stampOf(read, ['branches', 'nothing']).stamp).toBeNull();
  });

  it('keeps nothing for a list a hook scopes or extends, nor without write versions', async () => {
    const stop = t.app.entities.hooks(FOLDERS.name, {
      scope: () => (eb, table) => eb(`${table}.name`, '!=', 'ملف ب'),
    });
    try {
      const page = reads();
      const scoped = await list('?sort=name:asc');
      expect(scoped.data.items.map((r) => r.name)).not.toContain('ملف ب');
      await list('?sort=name:asc');
      expect(page).toHaveBeenCalledTimes(2);
    } finally {
      stop();
    }
    // A table served without a write version (a stamp cannot be read): read every time.
    const page = reads();
    page.mockClear();
    await sql`delete from entity_counts where entity = ${'branches'}`.execute(t.app.db);
    await list('?sort=name:desc');
    await list('?sort=name:desc');
    expect(page).toHaveBeenCalledTimes(2);
  });
});

describe(StampedCache.name, () => {
  it('answers only at the stamp a value was kept with', () => {
    const cache = new StampedCache<string, string>({ maxEntries: 10 });
    cache.set('a', 'v1', 'first');
    expect(cache.get('a', 'v1')).toBe('first');
    expect(cache.get('a', 'v2')).toBeUndefined();
    // Gone once asked at another stamp.
    expect(cache.get('a', 'v1')).toBeUndefined();
  });

  it('drops the least recently used first, by number and by weight', () => {
    const cache = new StampedCache<string, string>({ maxEntries: 3, maxWeight: 10, weigh: (v) => v.length });
    cache.set('a', 's', 'aaa');
    cache.set('b', 's', 'bbb');
    cache.set('c', 's', 'ccc');
    expect(cache.get('a', 's')).toBe('aaa'); // a used last: b is the oldest now
    cache.set('d', 's', 'dd');
    expect(cache.get('b', 's')).toBeUndefined();
    expect(cache.size).toEqual({ entries: 3, weight: 8 });
    cache.set('e', 's', 'eeee'); // 4 entries: c, the oldest, goes (and the weight is 9)
    expect(cache.get('c', 's')).toBeUndefined();
    expect(cache.size).toEqual({ entries: 3, weight: 9 });
    cache.set('g', 's', 'gg'); // weight 11 > 10 and 4 entries: a, the oldest, goes
    expect([cache.get('a', 's'), cache.get('d', 's'), cache.get('e', 's')]).toEqual([
      undefined,
      'dd',
      'eeee',
    ]);
    expect(cache.size).toEqual({ entries: 3, weight: 8 });
    // A value heavier than the whole budget is not kept, and drops nothing.
    cache.set('f', 's', 'f'.repeat(11));
    expect(cache.get('f', 's')).toBeUndefined();
    expect(cache.size.entries).toBe(3);
  });
});

describe(rememberingZlib.name, () => {
  it('compresses an unchanging Buffer once per method, anything else every time', () => {
    const z = rememberingZlib();
    const body = unchanging(Buffer.from(JSON.stringify({ data: 'قضية '.repeat(1000) })));
    const br = z.brotliCompressSync(body);
    expect(z.brotliCompressSync(body)).toBe(br);
    expect(zlib.brotliDecompressSync(br).equals(body)).toBe(true);
    const gzip = z.gzipSync(body);
    expect(z.gzipSync(body)).toBe(gzip);
    expect(zlib.gunzipSync(gzip).equals(body)).toBe(true);
    const other = Buffer.from(body);
    expect(z.brotliCompressSync(other)).not.toBe(z.brotliCompressSync(other));
  });
});
