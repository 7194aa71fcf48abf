import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createDatabase, type Database } from './index';

// SQLite's writes share commits (db/index.ts, FileQueueDriver): what each caller is told must
// still be true of the file, as another connection reads it, the moment it is told.
describe('SQLite group commit', () => {
  let dir: string;
  let file: string;
  let database: Database;
  let other: BetterSqlite3.Database;
  const stored = (id: number) => Boolean(other.prepare('select 1 from notes where id = ?').get(id));

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-group-commit-'));
    file = path.join(dir, 'db.sqlite');
    database = createDatabase(`sqlite:${file}`);
    await database.db.schema
      .createTable('notes')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('body', 'text', (c) => c.notNull())
      .execute();
    other = new BetterSqlite3(file, { readonly: true });
  });
  afterEach(async () => {
    other.close();
    await database.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A write transaction of two statements, with an await between them, as a request's are. */
  const write = (id: number, body: string | null) =>
    database.db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id, body: 'مسودة' }).execute();
      await new Promise((resolve) => setImmediate(resolve));
      await trx.updateTable('notes').set({ body }).where('id', '=', id).execute();
    });

  it('answers each write only once another connection sees it; a failed write rolls back alone', async () => {
    const seenWhenAnswered: boolean[] = [];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        // Write 17 breaks the NOT NULL rule in its second statement.
        write(i + 1, i === 16 ? null : `ملاحظة ${i + 1}`).then(() => {
          seenWhenAnswered.push(stored(i + 1));
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(
      outcomes.map((_, i) => (i === 16 ? 'rejected' : 'fulfilled')),
    );
    expect(seenWhenAnswered).toEqual(Array.from({ length: 39 }, () => true));
    expect(stored(17)).toBe(false);
    expect(other.prepare('select count(*) as n from notes').get()).toEqual({ n: 39 });
  });

  it('stores a write outside a transaction before answering it, while writes in transactions wait for their commit', async () => {
    const inTransactions = Array.from({ length: 5 }, (_, i) => write(i + 1, 'أ'));
    await database.db.insertInto('notes').values({ id: 100, body: 'ب' }).execute();
    expect(stored(100)).toBe(true);
    await Promise.all(inTransactions);
    for (let id = 1; id <= 5; id++) expect(stored(id)).toBe(true);
  });
});
