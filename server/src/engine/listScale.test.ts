import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getEntity, registry } from '@mizan/contracts';
import { sql } from 'kysely';
import { MIGRATION_GROUPS } from '../app';
import { InProcessBus } from '../bus';
import { createDatabase, type Database, type Dialect } from '../db';
import { runMigrations } from '../db/migrate';
import { SEARCH_COLUMN, createMissingEntityTables, recountFilterCounts } from '../db/migrations';
import { filterCountKey } from '../db/migrations/filterCounts';
import { DiskFileStore } from '../files/storage';
import { freshDatabase, splitDialects } from '../test/harness';
import { recountEntities } from '../db/counts';
import { BROAD_SEARCH, type ListParams } from './repository';
import { searchCondition, searchTokens } from './search';
import { EntityService } from './service';

/**
 * Lists at scale: filtered totals answered from the list cache stay exact through any
 * sequence of writes (checked against a full recount), pages that seek from a cached boundary are
 * the rows OFFSET gives, a reference field sorts by the referenced row's title, and the trigram
 * search (SQLite FTS5, PostgreSQL pg_trgm) finds exactly the rows the folded LIKE finds.
 */

type Row = Record<string, unknown> & { id: number };

/** A small deterministic generator (mulberry32): the same sequence on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'محكمة',
  'مَحْكَمة',
  'أحمد',
  'احمد',
  'إبراهيم',
  'الجيزة',
  'الجيزه',
  'مصطفى',
  'مسؤول',
  'طنطا',
  'علي',
  'عليّ',
  'شارع',
  '٢٩',
  '29',
  'Cairo',
  'النقض',
  'ﻻ',
];

describe.each(splitDialects())('lists at scale on %s', (dialect: Dialect) => {
  let database: Database;
  let drop: () => Promise<void>;
  let dataDir: string;
  let services: { courts: EntityService; governorates: EntityService; circuits: EntityService };
  const actor = { user: null };
  const rand = random(14);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const phrase = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  let seq = 0;

  const list = (service: EntityService, query: Record<string, unknown>) =>
    service.list({ pageSize: 100, ...query }) as Promise<{ items: Row[]; total: number }>;

  beforeAll(async () => {
    const fresh = await freshDatabase(dialect);
    drop = fresh.drop;
    database = createDatabase(fresh.url);
    await runMigrations(database.db, dialect, MIGRATION_GROUPS);
    await createMissingEntityTables(
      database.db,
      dialect,
      registry.map((e) => e.name),
    );
    await recountEntities(database.db);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-lists-'));
    const deps = { db: database.db, dialect, bus: new InProcessBus(), files: new DiskFileStore(dataDir) };
    services = {
      courts: new EntityService(getEntity('courts'), deps),
      governorates: new EntityService(getEntity('governorates'), deps),
      circuits: new EntityService(getEntity('circuits'), deps),
    };
    const continent = (await new EntityService(getEntity('continents'), deps).create(actor, {
      name: 'أفريقيا',
    })) as Row;
    const country = (await new EntityService(getEntity('countries'), deps).create(actor, {
      name: 'مصر',
      continentId: continent.id,
    })) as Row;
    // Names whose order differs from their ids' (a reference sorts by the title, not the id).
    for (const name of ['سوهاج', 'أسوان', 'القاهرة', 'بني سويف'])
      await services.governorates.create(actor, { name, countryId: country.id });
  });
  afterAll(async () => {
    await database.destroy();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const governorateIds = async () => (await list(services.governorates, {})).items.map((g) => g.id);
  const courtTypes = getEntity('courts').fields.courtType as { values: readonly string[] };

  it('keeps filtered totals exact through random creates, updates and deletes (against a full recount)', async () => {
    const governorates = await governorateIds();
    const filters = [
      {},
      { courtType: 'general' },
      { courtType: 'appeal' },
      { governorateId: governorates[0] },
      { governorateId: governorates[1], courtType: 'general' },
      { q: 'محكمه' },
      { q: 'احمد ابراهيم' },
    ];
    const recount = async (filter: Record<string, unknown>) => {
      let query = database.db.selectFrom('courts').select((eb) => eb.fn.countAll().as('n'));
      if (filter.courtType) query = query.where('court_type', '=', filter.courtType);
      if (filter.governorateId) query = query.where('governorate_id', '=', filter.governorateId);
      for (const token of filter.q ? searchTokens(String(filter.q)) : [])
        query = query.where(sql<boolean>`${sql.ref(SEARCH_COLUMN)} like ${`%${token}%`}`);
      return Number((await query.executeTakeFirstOrThrow()).n);
    };
    const ids: number[] = [];
    for (let step = 0; step < 120; step++) {
      const roll = rand();
      if (roll < 0.5 || ids.length < 3) {
        const row = (await services.courts.create(actor, {
          name: `${phrase(2)} ${++seq}`,
          courtType: pick(courtTypes.values),
          governorateId: rand() < 0.8 ? pick(governorates) : null,
          address: phrase(2),
        })) as Row;
        ids.push(row.id);
      } else if (roll < 0.8) {
        const id = pick(ids);
        await services.courts.patch(actor, id, {
          courtType: pick(courtTypes.values),
          ...(rand() < 0.5 ? { governorateId: pick(governorates) } : { address: phrase(2) }),
        });
      } else {
        const id = ids.splice(Math.floor(rand() * ids.length), 1)[0]!;
        await services.courts.remove(actor, id);
      }
      // Every few writes, each filter read twice: the second answer comes from the cache.
      if (step % 7 === 0)
        for (const filter of filters) {
          const expected = await recount(filter);
          expect({ step, filter, total: (await list(services.courts, filter)).total }).toEqual({
            step,
            filter,
            total: expected,
          });
          expect((await list(services.courts, filter)).total).toBe(expected);
        }
    }
    // A write outside the engine raises the version too (a trigger): the cached total is not served.
    const before = (await list(services.courts, { courtType: 'general' })).total;
    await database.db.updateTable('courts').set({ court_type: 'general' }).execute();
    const after = (await list(services.courts, { courtType: 'general' })).total;
    expect(after).toBe(await recount({ courtType: 'general' }));
    expect(after).toBeGreaterThan(before);

    // Courts keep their totals per governorate and type (`counts`): through every write above,
    // engine and plain SQL alike, the kept rows are a recount of the table.
    const kept = await database.db
      .selectFrom('entity_filter_counts')
      .select(['values_key', 'total'])
      .where('entity', '=', 'courts')
      .where('total', '<>', 0)
      .execute();
    const counted = await database.db
      .selectFrom('courts')
      .select(['governorate_id', 'court_type', (eb) => eb.fn.countAll().as('n')])
      .groupBy(['governorate_id', 'court_type'])
      .execute();
    const byKey = (rows: [string, number][]) => Object.fromEntries(rows.sort());
    expect(byKey(kept.map((r) => [String(r.values_key), Number(r.total)]))).toEqual(
      byKey(counted.map((r) => [filterCountKey([r.governorate_id, r.court_type]), Number(r.n)])),
    );
    expect(kept.length).toBeGreaterThan(3);
    // And a list filtered by exactly those two fields answers its total from them. (A write of a
    // court's phone raises the courts' version: the list's cached total is not served.)
    const touchCourts = () =>
      database.db
        .updateTable('courts')
        .set({ phone: `0100${++seq}` })
        .where('id', '=', ids[0]!)
        .execute();
    const [governorateId] = governorates;
    const key = filterCountKey([governorateId, 'general']);
    await database.db
      .updateTable('entity_filter_counts')
      .set({ total: 9_999 })
      .where('entity', '=', 'courts')
      .where('values_key', '=', key)
      .execute();
    await touchCourts();
    expect((await list(services.courts, { governorateId, courtType: 'general' })).total).toBe(9_999);
    await recountFilterCounts(database.db, dialect, [getEntity('courts')]);
    await touchCourts();
    expect((await list(services.courts, { governorateId, courtType: 'general' })).total).toBe(
      await recount({ governorateId, courtType: 'general' }),
    );
  });

  it('raises the write version of every entity table, created by a migration or at start', async () => {
    const { rows } =
      dialect === 'postgres'
        ? await sql<{ name: string }>`select tgname as name from pg_trigger where not tgisinternal`.execute(
            database.db,
          )
        : await sql<{ name: string }>`select name from sqlite_master where type = 'trigger'`.execute(
            database.db,
          );
    const triggers = new Set(rows.map((r) => r.name));
    const suffix = dialect === 'postgres' ? '_written' : '_written_ai';
    expect(registry.map((e) => e.table).filter((table) => !triggers.has(`${table}${suffix}`))).toEqual([]);
  });

  it('serves every page, sequential or jumped to, with the rows OFFSET gives', async () => {
    const courts = (await list(services.courts, {})).items.map((c) => c.id);
    for (let i = 0; i < 40; i++)
      await services.circuits.create(actor, {
        name: `${phrase(1)} ${++seq}`,
        number: i + 1,
        courtId: pick(courts),
      });
    const cases: [EntityService, Record<string, unknown>][] = [
      [services.courts, {}],
      [services.courts, { sort: 'courtType:asc' }],
      [services.courts, { sort: 'name:desc', courtType: 'general' }],
      [services.courts, { sort: 'updatedAt:asc' }],
      [services.circuits, { sort: 'courtId:asc' }],
      [services.circuits, { sort: 'courtId:desc' }],
    ];
    const offsetPage = (service: EntityService, query: Record<string, unknown>, page: number) => {
      const { sort, pageSize, page: _, ...filters } = query as ListParams & Record<string, unknown>;
      void _;
      return service.repo.page(database.db, { page, pageSize: Number(pageSize), sort, filters });
    };
    for (const [service, base] of cases) {
      const query = { ...base, pageSize: 7 };
      const { total } = await list(service, query);
      const last = Math.ceil(total / 7) + 1;
      // In order (each page seeks from the previous one's end), then jumps forth and back.
      const order = [...Array.from({ length: last }, (_, i) => i + 1), last - 1, 2, last, 3, 1, last - 2];
      for (const page of order) {
        const served = (await list(service, { ...query, page })).items.map((r) => r.id);
        const offset = (await offsetPage(service, query, page)).map((r) => Number(r.id));
        expect({ query, page, ids: served }).toEqual({ query, page, ids: offset });
      }
      // After a write the boundaries learnt before it are not used: the pages still match.
      await database.db
        .updateTable(service.entity.table)
        .set({ updated_at: new Date().toISOString() })
        .where('id', '=', (await list(service, query)).items[0]!.id)
        .execute();
      for (const page of [last, 2, 1]) {
        const served = (await list(service, { ...query, page })).items.map((r) => r.id);
        const offset = (await offsetPage(service, query, page)).map((r) => Number(r.id));
        expect({ query, page, ids: served }).toEqual({ query, page, ids: offset });
      }
    }
  });

  it("sorts by a reference field by the referenced row's title, then by id", async () => {
    const { items } = await list(services.courts, { sort: 'governorateId:asc', pageSize: 100 });
    const titles = new Map((await list(services.governorates, {})).items.map((g) => [g.id, String(g.name)]));
    const named = items.filter((c) => c.governorateId !== null);
    const keys = named.map((c) => [titles.get(Number(c.governorateId))!, c.id] as const);
    const sorted = [...keys].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    expect(keys).toEqual(sorted);
    // Not the ids' order: the first governorate created (سوهاج) sorts last.
    expect(new Set(keys.map((k) => k[0]))).toContain('سوهاج');
    expect(keys.at(-1)![0]).toBe('سوهاج');
  });

  it('reads a search matching many rows by walking the sort index, with the rows and total of sorting them', async () => {
    const governorates = await governorateIds();
    // A year every new court's name carries, as every file number of a year does.
    const year = '1987';
    await services.courts.createMany(
      actor,
      Array.from({ length: BROAD_SEARCH + 150 }, (_, i) => ({
        name: `${phrase(1)} لسنة ${year} رقم ${++seq}`,
        courtType: pick(courtTypes.values),
        governorateId: i % 5 ? pick(governorates) : null,
        address: phrase(2),
      })),
    );
    const ran: string[] = [];
    const recorded = new EntityService(getEntity('courts'), {
      db: database.db.withPlugin({
        transformQuery: (args) => (ran.push(JSON.stringify(args.node)), args.node),
        transformResult: async (args) => args.result,
      }),
      dialect,
      bus: new InProcessBus(),
      files: new DiskFileStore(dataDir),
    });
    // The rows as the folded LIKE finds and orders them (the other columns as the list sorts).
    const expected = async (column: string, direction: 'asc' | 'desc', offset: number, limit: number) => {
      const rows = await database.db
        .selectFrom('courts')
        .select('id')
        .where(sql<boolean>`${sql.ref(SEARCH_COLUMN)} like ${`%${year}%`}`)
        .orderBy(column, direction)
        .orderBy('id', direction)
        .offset(offset)
        .limit(limit)
        .execute();
      return rows.map((r) => Number(r.id));
    };
    // By the creation date (its `(created_at, id)` index), and by name (a unique field: its index
    // orders by the name alone, so the matches are sorted).
    const pages: [Record<string, unknown>, string, 'asc' | 'desc', number, boolean][] = [
      [{}, 'created_at', 'desc', 1, true],
      [{ page: 3 }, 'created_at', 'desc', 3, true],
      [{ sort: 'createdAt:asc', page: 22 }, 'created_at', 'asc', 22, true],
      [{ sort: 'name:asc', page: 2 }, 'name', 'asc', 2, false],
      [{ sort: 'name:desc', page: 22 }, 'name', 'desc', 22, false],
    ];
    for (const [query, column, direction, page, walks] of pages) {
      ran.length = 0;
      const answer = (await recorded.list({ pageSize: 100, q: year, ...query })) as {
        items: Row[];
        total: number;
      };
      expect({ query, total: answer.total }).toEqual({ query, total: BROAD_SEARCH + 150 });
      expect({ query, ids: answer.items.map((r) => r.id) }).toEqual({
        query,
        ids: await expected(column, direction, (page - 1) * 100, 100),
      });
      // SQLite walked the index; PostgreSQL has no such path (its planner chooses).
      expect({ query, walked: ran.some((node) => node.includes('indexed by')) }).toEqual({
        query,
        walked: walks && dialect === 'sqlite',
      });
    }
    // Narrowed by a filter: the matches are sorted as before.
    ran.length = 0;
    const narrowed = (await recorded.list({ pageSize: 100, q: year, governorateId: governorates[0] })) as {
      items: Row[];
      total: number;
    };
    expect(narrowed.total).toBeGreaterThan(0);
    expect(ran.some((node) => node.includes('indexed by'))).toBe(false);
  });

  it('finds with the trigram index exactly the rows the folded LIKE finds', async () => {
    const courts = getEntity('courts');
    const stored = await database.db.selectFrom('courts').select(['id', SEARCH_COLUMN]).execute();
    const texts = stored.map((r) => String(r[SEARCH_COLUMN]));
    const queries: string[] = [];
    for (let i = 0; i < 80; i++) {
      const text = pick(texts);
      const start = Math.floor(rand() * text.length);
      // Pieces of stored text (any length, across word and field boundaries), typed words and noise.
      queries.push(text.slice(start, start + 1 + Math.floor(rand() * 7)).trim() || 'ا');
      queries.push(`${pick(WORDS)} ${pick(WORDS).slice(0, 2)}`);
    }
    queries.push('zzzq', 'مح', 'ه', '"', 'a%b', '٢٩ شا');
    const likeIds = async (q: string) => {
      let query = database.db.selectFrom('courts').select('id').orderBy('id');
      for (const token of searchTokens(q))
        query = query.where(
          sql<boolean>`${dialect === 'postgres' ? sql`strpos(${sql.ref(SEARCH_COLUMN)}, ${token})` : sql`instr(${sql.ref(SEARCH_COLUMN)}, ${token})`} > 0`.$castTo<boolean>(),
        );
      return (await query.execute()).map((r) => Number(r.id));
    };
    const indexIds = async (q: string) =>
      database.db.transaction().execute(async (trx) => {
        // On PostgreSQL, the GIN index forced: a test table is small enough for a scan otherwise.
        if (dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
        const rows = await trx
          .selectFrom('courts')
          .select('id')
          .where((eb) => searchCondition(eb, courts, 'courts', dialect, q, 'all') ?? eb.lit(true))
          .orderBy('id')
          .execute();
        return rows.map((r) => Number(r.id));
      });
    let found = 0;
    for (const q of queries) {
      const expected = await likeIds(q);
      found += expected.length ? 1 : 0;
      expect({ q, ids: await indexIds(q) }).toEqual({ q, ids: expected });
    }
    // The corpus is one where most queries find something (the comparison is not of empty sets).
    expect(found).toBeGreaterThan(queries.length / 2);
  });
});
