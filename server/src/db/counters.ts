import { sql, type RawBuilder } from 'kysely';
import { preparedOnPostgres, type Db, type Dialect } from './index';
import type { Trx } from '../engine/context';

/** The table of numbers handed out in turn (`number_counters`: series, year, last). */
export const NUMBER_COUNTERS = 'number_counters';

/**
 * Takes the next `count` numbers of `series` in `year` inside the writing transaction, ascending.
 *
 * SQLite: one upsert of the year's row in `number_counters` (the batch is consecutive; SQLite has
 * one writer). A transaction that fails gives its numbers back.
 *
 * PostgreSQL: from the year's sequence (`mizan_take_numbers`, migration 011), which holds no lock
 * to commit, so concurrent creates do not wait for each other's commit for their numbers. A
 * transaction that fails leaves a gap; numbers taken together may be interleaved with another
 * writer's.
 */
export async function takeNumbers(
  trx: Trx | Db,
  dialect: Dialect,
  series: string,
  year: number,
  count = 1,
): Promise<number[]> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{
      n: number | string;
    }>`select mizan_take_numbers(${series}, ${year}, ${count}) as n`.execute(trx);
    return rows.map((r) => Number(r.n)).sort((a, b) => a - b);
  }
  const { rows } = await sql<{
    last: number | string;
  }>`insert into ${sql.table(NUMBER_COUNTERS)} (series, year, last) values (${series}, ${year}, ${count})
    on conflict (series, year) do update set last = ${sql.table(NUMBER_COUNTERS)}.last + excluded.last
    returning last`.execute(trx);
  const last = Number(rows[0]!.last);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

/**
 * `takeNumbers` on PostgreSQL with a test of each number taken (`test(n)`: a boolean expression
 * of the number, such as whether a row already holds it), in one statement: the numbers,
 * ascending, and whether any passed the test. SQLite: `takeNumbers`, then `test` is left to the
 * caller (`tested: null`).
 */
export async function takeNumbersTested(
  trx: Trx | Db,
  dialect: Dialect,
  series: string,
  year: number,
  count: number,
  test: (n: RawBuilder<number>) => RawBuilder<boolean>,
): Promise<{ numbers: number[]; tested: boolean | null }> {
  if (dialect !== 'postgres')
    return { numbers: await takeNumbers(trx, dialect, series, year, count), tested: null };
  const query = sql<{
    n: number | string;
    passed: boolean;
  }>`select n, ${test(sql<number>`n`)} as passed
    from mizan_take_numbers(${series}, ${year}, ${count}) as n`.compile(trx);
  preparedOnPostgres(query.sql);
  const { rows } = await trx.executeQuery(query);
  return {
    numbers: rows.map((r) => Number(r.n)).sort((a, b) => a - b),
    tested: rows.some((r) => r.passed),
  };
}

/**
 * Makes sure the next number of `series` in `year` comes after `taken` (a number typed by hand,
 * or the largest one found in the table): the counter rises to it and never goes down. On
 * PostgreSQL concurrent takes are held off until the transaction ends, and a sequence below
 * `taken` is raised (`mizan_raise_counter`).
 */
export async function raiseCounter(
  trx: Trx | Db,
  dialect: Dialect,
  series: string,
  year: number,
  taken: number,
): Promise<void> {
  if (dialect === 'postgres') {
    await sql`select mizan_raise_counter(${series}, ${year}, ${taken})`.execute(trx);
    return;
  }
  await sql`insert into ${sql.table(NUMBER_COUNTERS)} (series, year, last) values (${series}, ${year}, ${taken})
    on conflict (series, year) do update set last = max(${sql.table(NUMBER_COUNTERS)}.last, excluded.last)`.execute(
    trx,
  );
}

/**
 * Sets the counter of `series` in `year` to `last`, up or down: the next number taken is
 * `last + 1` (after loading rows the counter did not see; tests).
 */
export async function setCounter(
  db: Trx | Db,
  dialect: Dialect,
  series: string,
  year: number,
  last: number,
): Promise<void> {
  if (dialect === 'postgres') {
    await sql`select setval(mizan_number_sequence(${series}, ${year}), ${last})`.execute(db);
    return;
  }
  await sql`insert into ${sql.table(NUMBER_COUNTERS)} (series, year, last) values (${series}, ${year}, ${last})
    on conflict (series, year) do update set last = excluded.last`.execute(db);
}

/**
 * The PostgreSQL functions of the counters' sequences, one per series and year, made on first use
 * and started after the year's `number_counters` row when there is one (a migration step):
 *
 * - `mizan_number_sequence(series, year)`: the sequence, made when missing (a concurrent writer
 *   making it too waits for the first and then uses its sequence);
 * - `mizan_take_numbers(series, year, count)`: `count` numbers, no lock held to commit;
 * - `mizan_raise_counter(series, year, taken)`: raises the sequence to `taken` when it is below.
 *   `nextval` holds a lock on the sequence until its transaction ends that `alter sequence`
 *   waits for and blocks: under it no number is being taken, and the raise cannot undercut one.
 *   It waits even when the sequence is past `taken`: a create that took `taken` and has not
 *   stored it yet then stores it first, and the typed one is refused as taken, never the
 *   generated one.
 */
export async function createCounterSequences(db: Db, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`create or replace function mizan_number_sequence(p_series text, p_year integer) returns regclass
    language plpgsql as $$
    declare
      name text := 'number_counter_' || p_year || '_' || md5(p_series);
      found regclass := to_regclass(quote_ident(name));
    begin
      if found is not null then return found; end if;
      begin
        execute format('create sequence %I minvalue 0', name);
        perform setval(quote_ident(name)::regclass, coalesce(
          (select last from number_counters where series = p_series and year = p_year), 0));
      exception when duplicate_table or unique_violation then
        null;
      end;
      return quote_ident(name)::regclass;
    end $$`.execute(db);
  await sql`create or replace function mizan_take_numbers(p_series text, p_year integer, p_count integer)
    returns setof bigint language plpgsql as $$
    declare
      seq regclass := mizan_number_sequence(p_series, p_year);
    begin
      return query select nextval(seq) from generate_series(1, p_count);
    end $$`.execute(db);
  await sql`create or replace function mizan_raise_counter(p_series text, p_year integer, p_taken bigint)
    returns void language plpgsql as $$
    declare
      seq regclass := mizan_number_sequence(p_series, p_year);
      last bigint;
    begin
      execute format('alter sequence %s no cycle', seq);
      execute format('select last_value from %s', seq) into last;
      if last < p_taken then perform setval(seq, p_taken); end if;
    end $$`.execute(db);
}

/** Creates `number_counters` (a kernel migration step). */
export async function createNumberCounters(db: Db): Promise<void> {
  await db.schema
    .createTable(NUMBER_COUNTERS)
    .ifNotExists()
    .addColumn('series', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('last', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint(`${NUMBER_COUNTERS}_pk`, ['series', 'year'])
    .execute();
}
