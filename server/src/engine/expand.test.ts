import { defineEntity, type Entity, type Fields } from '@mizan/contracts';
import { sql } from 'kysely';
import { createTestApp, dialects, type TestApp } from '../test/harness';
import { parseVersions, versionsColumn } from '../db/counts';
import { EntityRepository } from './repository';
import { serveEntities } from './testEntities';

/**
 * A docket names lawsuit types in three ways (one type, a list of types, a list of types it was
 * filed under before) and a branch: the titles of both targets come from one statement, the links
 * of both lists from another, and a page naming more rows than one statement takes is read in
 * parts.
 */
const engineDockets = defineEntity({
  name: 'engineDockets',
  path: '/admin/engine-tests/dockets',
  remote: 'settings',
  menu: false,
  fields: {
    name: { type: 'string', required: true, max: 100 },
    typeId: { type: 'ref', entity: 'lawsuitTypes' },
    typeIds: { type: 'refs', entity: 'lawsuitTypes' },
    formerTypeIds: { type: 'refs', entity: 'lawsuitTypes' },
    branchId: { type: 'ref', entity: 'branches' },
  },
});
const DOCKETS = engineDockets as Entity<Fields>;

describe.each(dialects())('expanding references on %s', (dialect) => {
  let t: TestApp;
  let sut: EntityRepository;
  const types: { id: number; name: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { entities: [DOCKETS] } });
    await serveEntities(t, [DOCKETS]);
    sut = new EntityRepository(DOCKETS, dialect);
    // More types than one statement names (5,000 ids).
    const now = new Date().toISOString();
    for (let part = 0; part < 6; part++) {
      const rows = Array.from({ length: 1100 }, (_, i) => ({
        name: `نوع ${part * 1100 + i}`,
        status: true,
        created_at: now,
        updated_at: now,
      }));
      for (const row of await t.app.db
        .insertInto('lawsuit_types')
        .values(rows)
        .returning(['id', 'name'])
        .execute())
        types.push({ id: Number(row.id), name: String(row.name) });
    }
  });
  afterAll(() => t.close());

  const insertDocket = async (values: Record<string, unknown>, links: Record<string, number[]>) => {
    const now = new Date().toISOString();
    const { id } = await t.app.db
      .insertInto(DOCKETS.table)
      .values({ ...values, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [table, ids] of Object.entries(links))
      for (let i = 0; i < ids.length; i += 1000)
        await t.app.db
          .insertInto(table)
          .values(ids.slice(i, i + 1000).map((ref) => ({ owner_id: Number(id), ref_id: ref })))
          .execute();
    return Number(id);
  };

  it('names each field from its own links, several fields naming one target', async () => {
    const [a, b, c] = types;
    const now = new Date().toISOString();
    const branch = await t.app.db
      .insertInto('branches')
      .values({ name: 'فرع المعادي', status: true, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = await insertDocket(
      { name: 'ملف', type_id: a!.id, branch_id: Number(branch.id) },
      { engine_dockets_type_ids: [c!.id, b!.id], engine_dockets_former_type_ids: [a!.id] },
    );
    const other = await insertDocket({ name: 'بلا مراجع' }, {});
    const rows = await sut.findMany(t.app.db, [id, other]);
    const [row, empty] = await sut.expand(
      t.app.db,
      rows.sort((x, y) => Number(x.id) - Number(y.id)),
    );
    expect(row).toMatchObject({
      type: { id: a!.id, name: a!.name },
      typeIds: [b!.id, c!.id],
      types: [
        { id: b!.id, name: b!.name },
        { id: c!.id, name: c!.name },
      ],
      formerTypeIds: [a!.id],
      formerTypes: [{ id: a!.id, name: a!.name }],
      branch: { id: Number(branch.id), name: 'فرع المعادي' },
    });
    expect(empty).toMatchObject({ type: null, typeIds: [], formerTypeIds: [], branch: null });
  });

  it("keeps titles at their entity's write version, and reads them again once it moves", async () => {
    const [a, b] = types;
    const id = await insertDocket(
      { name: 'ملف محفوظ', type_id: a!.id },
      { engine_dockets_type_ids: [b!.id] },
    );
    const versions = async () => {
      const { rows } = await sql<{ v: string | null }>`select ${versionsColumn(t.app.db)} as v`.execute(
        t.app.db,
      );
      return parseVersions(rows[0]!.v);
    };
    const expanded = async () =>
      (await sut.expand(t.app.db, await sut.findMany(t.app.db, [id]), await versions()))[0]!;
    const before = a!.name;
    expect((await expanded()).type).toEqual({ id: a!.id, name: before });
    // Renamed behind the versions' back (the trigger's raise taken back): the kept title is
    // served, which shows it is kept.
    await t.app.db.updateTable('lawsuit_types').set({ name: 'اسم جديد' }).where('id', '=', a!.id).execute();
    await sql`update entity_counts set version = version - 1 where entity = 'lawsuitTypes'`.execute(t.app.db);
    expect((await expanded()).type).toEqual({ id: a!.id, name: before });
    // Any write of the types moves their version: every title is read again.
    await t.app.db.updateTable('lawsuit_types').set({ name: 'اسم أحدث' }).where('id', '=', b!.id).execute();
    a!.name = 'اسم جديد';
    b!.name = 'اسم أحدث';
    const fresh = await expanded();
    expect([fresh.type, fresh.types]).toEqual([
      { id: a!.id, name: 'اسم جديد' },
      [{ id: b!.id, name: 'اسم أحدث' }],
    ]);
  });

  it('names more referenced rows than one statement takes, every one of them', async () => {
    const all = types.map((c) => c.id);
    const id = await insertDocket(
      { name: 'كل الأنواع' },
      { engine_dockets_type_ids: all, engine_dockets_former_type_ids: all.slice(0, 10) },
    );
    const [row] = await sut.expand(t.app.db, await sut.findMany(t.app.db, [id]));
    expect(row!.typeIds).toEqual([...all].sort((x, y) => x - y));
    const names = new Map((row!.types as { id: number; name: string }[]).map((c) => [c.id, c.name]));
    expect(names.size).toBe(types.length);
    for (const type of types) expect(names.get(type.id)).toBe(type.name);
  });
});
