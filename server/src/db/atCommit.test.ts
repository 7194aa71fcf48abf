import { CompiledQuery } from 'kysely';
import { dialects, freshDatabase } from '../test/harness';
import { statementsOf } from '../test/statements';
import { gatherAtCommit, renumbered, withWritesAtCommit, type CommitWrite } from './atCommit';
import { createDatabase, type Database } from './index';

describe('renumbered placeholders', () => {
  it('moves every $n up, leaving quoted names and strings alone', () => {
    expect(renumbered(`update "a$1" set "n" = $1 || '$2' || 'it''s $3' where "id" = $2`, 4)).toBe(
      `update "a$1" set "n" = $5 || '$2' || 'it''s $3' where "id" = $6`,
    );
    expect(renumbered('select $1', 0)).toBe('select $1');
  });
});

describe.each(dialects())('writes gathered for the commit on %s', (dialect) => {
  let drop: () => Promise<void>;
  let database: Database;
  beforeAll(async () => {
    const fresh = await freshDatabase(dialect, 'mizan-at-commit-');
    drop = fresh.drop;
    database = createDatabase(fresh.url);
    await database.db.schema
      .createTable('totals')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('n', 'integer', (c) => c.notNull())
      .execute();
    await database.db.schema
      .createTable('notes')
      .addColumn('body', 'text', (c) => c.notNull())
      .execute();
  });
  afterAll(async () => {
    await database?.destroy();
    await drop?.();
  });
  beforeEach(async () => {
    await database.db.deleteFrom('totals').execute();
    await database.db.deleteFrom('notes').execute();
    await database.db
      .insertInto('totals')
      .values([
        { name: 'a', n: 0 },
        { name: 'b', n: 0 },
      ])
      .execute();
  });

  /** Changes to `totals`, summed per name (a row changed twice in one statement would lose one). */
  const TOTALS: CommitWrite<Map<string, number>> = {
    rank: 1,
    start: () => new Map(),
    statements: (db, changes) => [
      [...changes].map(([name, delta]) =>
        db
          .updateTable('totals')
          .set((eb) => ({ n: eb('n', '+', delta) }))
          .where('name', '=', name)
          .compile(),
      ),
    ],
  };
  const NOTES: CommitWrite<string[]> = {
    rank: 0,
    start: () => [],
    statements: (db, bodies) => [
      [
        db
          .insertInto('notes')
          .values(bodies.map((body) => ({ body })))
          .compile(),
      ],
      // A later phase sees what the first wrote.
      [CompiledQuery.raw(`update notes set body = body || '.'`)],
    ],
  };
  const change = (db: Parameters<typeof gatherAtCommit>[0], name: string, delta: number) =>
    gatherAtCommit(db, TOTALS, (m) => m.set(name, (m.get(name) ?? 0) + delta));
  const note = (db: Parameters<typeof gatherAtCommit>[0], body: string) =>
    gatherAtCommit(db, NOTES, (bodies) => bodies.push(body));

  const totals = async () =>
    Object.fromEntries(
      (await database.db.selectFrom('totals').selectAll().orderBy('name').execute()).map((r) => [
        r.name,
        Number(r.n),
      ]),
    );

  it('sums the changes, writes them at the end in rank order and phases, in one statement per phase on PostgreSQL', async () => {
    const statements = await statementsOf(() =>
      database.db.transaction().execute((trx) =>
        withWritesAtCommit(trx, async () => {
          expect(change(trx, 'a', 2)).toBe(true);
          expect(note(trx, 'أولى')).toBe(true);
          change(trx, 'a', 3);
          change(trx, 'b', -1);
          note(trx, 'ثانية');
          // Nothing is written before the end.
          expect(await trx.selectFrom('notes').selectAll().execute()).toEqual([]);
          // A nested gathering joins the outer one.
          await withWritesAtCommit(trx, async () => change(trx, 'b', 5));
        }),
      ),
    );
    expect(await totals()).toEqual({ a: 5, b: 4 });
    const bodies = (await database.db.selectFrom('notes').select('body').execute()).map((r) => r.body);
    expect(bodies.sort()).toEqual(['أولى.', 'ثانية.']);
    const writes = statements.filter((s) => /insert into|update/.test(s));
    if (dialect === 'postgres') {
      expect(writes).toHaveLength(2);
      expect(writes[0]).toMatch(
        /^with w0 as \(insert into "notes".*w1 as \(update "totals".*w2 as \(update "totals"/,
      );
    } else expect(writes).toHaveLength(4);
  });

  it('writes nothing when the transaction fails, and at once outside a gathering transaction', async () => {
    await expect(
      database.db.transaction().execute((trx) =>
        withWritesAtCommit(trx, async () => {
          change(trx, 'a', 7);
          throw new Error('refused');
        }),
      ),
    ).rejects.toThrow('refused');
    expect(await totals()).toEqual({ a: 0, b: 0 });
    await database.db.transaction().execute(async (trx) => {
      expect(change(trx, 'a', 1)).toBe(false);
    });
    expect(await totals()).toEqual({ a: 0, b: 0 });
  });
});
