import { getEntity, lawsuits, registry, sessions, type Entity, type Fields } from '@mizan/contracts';
import { CompiledQuery, sql } from 'kysely';
import { createTestApp, dialects, freshDatabase, type Session, type TestApp } from '../../test/harness';
import { createDatabase, type Db, type Dialect } from '../index';
import { runMigrations } from '../migrate';
import { MIGRATION_GROUPS } from '../../app';
import { createMissingEntityTables, declaredIndexColumns } from './entityTables';
import { declaredIndexesMigration } from './005_declared_indexes';

/**
 * Composite indexes declared by definitions (`indexes`): created with a new table and by the
 * migration for a table that exists already, and chosen by the planner for the list queries they
 * were declared for (the calendar's month of one lawyer, a court's lawsuits in one state with
 * their total): the plans of the queries the engine actually runs for those requests.
 */

const indexName = (entity: Entity<Fields>, columns: string[]) => `${entity.table}_${columns.join('_')}_idx`;

async function indexNames(db: Db, dialect: Dialect, table: string): Promise<string[]> {
  const { rows } =
    dialect === 'postgres'
      ? await sql<{
          name: string;
        }>`select indexname as name from pg_indexes where tablename = ${table}`.execute(db)
      : await sql<{ name: string }>`select name from pragma_index_list(${table})`.execute(db);
  return rows.map((r) => r.name);
}

/** The plan of one compiled query, as text (SQLite `EXPLAIN QUERY PLAN`, PostgreSQL `EXPLAIN`). */
async function planOf(db: Db, dialect: Dialect, query: CompiledQuery): Promise<string> {
  if (dialect === 'sqlite') {
    const { rows } = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    return rows.map((r) => r.detail).join('\n');
  }
  // A test table holds a few rows, where a scan is always cheapest: ask which index it would use.
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const { rows } = await trx.executeQuery<Record<string, string>>(
      CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
    );
    return rows.map((r) => Object.values(r)[0]).join('\n');
  });
}

it('every declared index names columns of its table, id last', () => {
  expect(declaredIndexColumns(getEntity('sessions'))).toEqual([['lawyer_id', 'date', 'id']]);
  expect(declaredIndexColumns(getEntity('lawsuits'))).toEqual([['court_id', 'state', 'created_at', 'id']]);
  for (const entity of registry as readonly Entity<Fields>[])
    for (const columns of declaredIndexColumns(entity)) expect(columns.at(-1)).toBe('id');
});

describe.each(dialects())('declared composite indexes on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    // Lawsuits spread over a few courts and both states, with the planner's statistics: on a
    // nearly empty table the court's own index costs the same as any.
    const now = '2026-01-01T00:00:00.000Z';
    for (let i = 1; i <= 5; i += 1)
      await t.app.db
        .insertInto('courts')
        .values({ name: `محكمة ${i}`, court_type: 'general', created_at: now, updated_at: now })
        .execute();
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 5000)
      insert into lawsuits (file_number, court_id, state, created_at, updated_at)
      select 'T/' || i, 1 + i % 5, case when i % 3 = 0 then 'completed' else 'active' end, ${now}, ${now}
      from n`.execute(t.app.db);
    for (let i = 1; i <= 5; i += 1)
      await t.app.db
        .insertInto('employees')
        .values({
          name: `محام ${i}`,
          email: `lawyer${i}@mizan.test`,
          username: `lawyer${i}`,
          password: 'not a hash',
          created_at: now,
          updated_at: now,
        })
        .execute();
    // Ten years of hearings of six lawyers (the administrator and these five).
    const day =
      dialect === 'postgres'
        ? sql`date '2016-01-01' + (i % 3650)`
        : sql`date('2016-01-01', '+' || (i % 3650) || ' days')`;
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 20000)
      insert into lawsuit_sessions (lawsuit_id, date, lawyer_id, created_at, updated_at)
      select 1 + i % 5000, ${day}, 1 + i % 6, ${now}, ${now} from n`.execute(t.app.db);
    // Statistics as a live database has them (on PostgreSQL also the visibility map that lets a
    // count read the index alone).
    await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(t.app.db);
  });
  afterAll(() => t?.close());

  /** The SQL the engine runs for one request (reads of the app's own database, in order). */
  async function queriesOf(url: string): Promise<CompiledQuery[]> {
    const executor = t.app.db.getExecutor();
    const spy = jest.spyOn(executor, 'executeQuery');
    try {
      const res = await t.app.inject({ method: 'GET', url, headers: admin.headers });
      expect(res.statusCode).toBe(200);
      return spy.mock.calls.map(([query]) => query as CompiledQuery);
    } finally {
      spy.mockRestore();
    }
  }

  it('creates them with the table', async () => {
    for (const entity of [getEntity('sessions'), getEntity('lawsuits')]) {
      const names = await indexNames(t.app.db, dialect, entity.table);
      for (const columns of declaredIndexColumns(entity)) expect(names).toContain(indexName(entity, columns));
    }
  });

  it("uses (lawyer_id, date, id) for a lawyer's month of hearings, page and total", async () => {
    const queries = await queriesOf(
      `/api${sessions.path}?lawyerId=1&from=2026-03-01&to=2026-03-31&pageSize=100&page=2`,
    );
    const reads = queries.filter(
      (q) => /from "lawsuit_sessions" where/.test(q.sql) && /lawyer_id/.test(q.sql),
    );
    // The page and its exact total.
    expect(reads).toHaveLength(2);
    for (const query of reads) {
      const plan = await planOf(t.app.db, dialect, query);
      expect(plan).toContain('lawsuit_sessions_lawyer_id_date_id_idx');
      // The page comes in index order: no sort of the month's hearings.
      if (dialect === 'sqlite') expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });

  it("uses (court_id, state, created_at, id) for a court's lawsuits in one state, and reads its kept total", async () => {
    const queries = await queriesOf(`/api${lawsuits.path}?courtId=1&state=active&pageSize=20`);
    const reads = queries.filter((q) => /from "lawsuits" where/.test(q.sql) && /court_id/.test(q.sql));
    // The page; its exact total is not counted but read from the kept filter totals (`counts`).
    expect(reads).toHaveLength(1);
    expect(queries.filter((q) => /from "entity_filter_counts"/.test(q.sql))).toHaveLength(1);
    for (const query of reads) {
      const plan = await planOf(t.app.db, dialect, query);
      expect(plan).toContain('lawsuits_court_id_state_created_at_id_idx');
      if (dialect === 'sqlite') expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });
});

describe.each(dialects())('the declared-indexes migration on %s', (dialect) => {
  it('adds the indexes to a table created before they were declared, and keeps existing ones', async () => {
    const fresh = await freshDatabase(dialect, 'mizan-indexes-');
    const database = createDatabase(fresh.url);
    try {
      await runMigrations(database.db, dialect, MIGRATION_GROUPS);
      await createMissingEntityTables(
        database.db,
        dialect,
        registry.map((e) => e.name),
      );
      // The legal tables as a database of the release before has them: without these indexes.
      for (const name of ['lawsuits', 'sessions']) {
        const entity = getEntity(name);
        const index = indexName(entity, declaredIndexColumns(entity)[0]!);
        await database.db.schema.dropIndex(index).execute();
        expect(await indexNames(database.db, dialect, entity.table)).not.toContain(index);
      }
      await declaredIndexesMigration.up(database.db, dialect);
      await declaredIndexesMigration.up(database.db, dialect);
      for (const name of ['lawsuits', 'sessions']) {
        const entity = getEntity(name);
        expect(await indexNames(database.db, dialect, entity.table)).toContain(
          indexName(entity, declaredIndexColumns(entity)[0]!),
        );
      }
    } finally {
      await database.destroy();
      await fresh.drop();
    }
  });
});
