import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createDatabase, preparedOnPostgres, type Database } from './index';

// SQLite keeps prepared statements per connection (db/index.ts); the answers must be those of a
// fresh statement every time.
describe('SQLite prepared statements kept between queries', () => {
  let dir: string;
  let database: Database;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-statements-'));
    database = createDatabase(`sqlite:${path.join(dir, 'db.sqlite')}`);
  });
  afterEach(async () => {
    await database.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers a repeated query with the current rows and columns, also after the table changes', async () => {
    const { db } = database;
    await db.schema
      .createTable('notes')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .execute();
    await db.insertInto('notes').values({ id: 1 }).execute();
    const all = () => sql<Record<string, unknown>>`select * from notes order by id`.execute(db);
    expect((await all()).rows).toEqual([{ id: 1 }]);

    await db.insertInto('notes').values({ id: 2 }).execute();
    await sql`alter table notes add column body text`.execute(db);
    await db.updateTable('notes').set({ body: 'ب' }).where('id', '=', 2).execute();
    expect((await all()).rows).toEqual([
      { id: 1, body: null },
      { id: 2, body: 'ب' },
    ]);
  });

  it('runs a repeated write again with new parameters, and keeps its reads and writes apart', async () => {
    const { db } = database;
    await db.schema
      .createTable('notes')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .execute();
    for (const id of [3, 4, 5]) {
      const result = await db.insertInto('notes').values({ id }).executeTakeFirst();
      expect(result.numInsertedOrUpdatedRows).toBe(1n);
    }
    const ids = await db.selectFrom('notes').select('id').orderBy('id').execute();
    expect(ids).toEqual([{ id: 3 }, { id: 4 }, { id: 5 }]);
  });

  it('still answers once more texts have run than it keeps', async () => {
    const { db } = database;
    await db.schema
      .createTable('notes')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .execute();
    await db.insertInto('notes').values({ id: 7 }).execute();
    // 1,200 distinct texts: the oldest leave the cache, the answers stay right.
    for (let n = 0; n < 1200; n++) {
      const { rows } = await sql<{ v: number }>`select id + ${sql.lit(n)} as v from notes`.execute(db);
      expect(rows).toEqual([{ v: 7 + n }]);
    }
    const { rows } = await sql<{ v: number }>`select id + ${sql.lit(0)} as v from notes`.execute(db);
    expect(rows).toEqual([{ v: 7 }]);
  });
});

// The statements every request runs are prepared once per PostgreSQL connection and run by name.
const pgUrl = process.env.MIZAN_TEST_PG_URL;
(pgUrl ? describe : describe.skip)('PostgreSQL statements run by name', () => {
  let database: Database;
  beforeAll(() => {
    database = createDatabase(pgUrl!);
  });
  afterAll(() => database.destroy());

  it('prepares a marked statement once per connection and answers each run with its parameters', async () => {
    const { db } = database;
    const query = (n: number) =>
      sql<{ v: number }>`select ${n}::int + 1 as v, ${'x'}::text as tag`.compile(db);
    preparedOnPostgres(query(0).sql);
    await db.connection().execute(async (connection) => {
      const prepared = async () =>
        (
          await sql<{
            statement: string;
          }>`select statement from pg_prepared_statements where statement = ${query(0).sql}`.execute(
            connection,
          )
        ).rows.length;
      expect(await prepared()).toBe(0);
      expect((await connection.executeQuery(query(1))).rows).toEqual([{ v: 2, tag: 'x' }]);
      expect(await prepared()).toBe(1);
      expect((await connection.executeQuery(query(41))).rows).toEqual([{ v: 42, tag: 'x' }]);
      expect(await prepared()).toBe(1);
      // An unmarked statement is not kept.
      await sql`select ${3}::int as w`.execute(connection);
      const kept = await sql<{ n: number }>`select count(*) as n from pg_prepared_statements`.execute(
        connection,
      );
      expect(Number(kept.rows[0]!.n)).toBe(1);
    });
  });

  it('keeps answering with named columns after a column is added to the table (a migration elsewhere)', async () => {
    const { db } = database;
    await db.connection().execute(async (connection) => {
      await sql`create temp table notes (id int primary key, body text)`.execute(connection);
      await sql`insert into notes values (1, 'أول')`.execute(connection);
      const query = (id: number) =>
        connection.selectFrom('notes').select(['id', 'body']).where('id', '=', id).compile();
      preparedOnPostgres(query(0).sql);
      expect((await connection.executeQuery(query(1))).rows).toEqual([{ id: 1, body: 'أول' }]);
      await sql`alter table notes add column extra int`.execute(connection);
      expect((await connection.executeQuery(query(1))).rows).toEqual([{ id: 1, body: 'أول' }]);
    });
  });
});
