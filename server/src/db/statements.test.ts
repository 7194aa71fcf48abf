import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createDatabase, type Database } from './index';

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
