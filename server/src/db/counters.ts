import { sql } from 'kysely';
import type { Db, Dialect } from './index';
import type { Trx } from '../engine/context';

/** The table of numbers handed out in turn (`number_counters`: series, year, last). */
export const NUMBER_COUNTERS = 'number_counters';

/**
 * Takes the next `count` numbers of `series` in `year` inside the writing transaction and answers
 * the last of them (the batch is `last - count + 1` … `last`). One upsert: the first number of a
 * year makes its row. The row stays locked until the transaction ends on PostgreSQL (concurrent
 * writers take their turn there; SQLite has one writer), so take numbers as late in the
 * transaction as the write allows. A transaction that fails gives its numbers back.
 */
export async function takeNumbers(trx: Trx | Db, series: string, year: number, count = 1): Promise<number> {
  const { rows } = await sql<{
    last: number | string;
  }>`insert into ${sql.table(NUMBER_COUNTERS)} (series, year, last) values (${series}, ${year}, ${count})
    on conflict (series, year) do update set last = ${sql.table(NUMBER_COUNTERS)}.last + excluded.last
    returning last`.execute(trx);
  return Number(rows[0]!.last);
}

/**
 * Makes sure the next number of `series` in `year` comes after `taken` (a number typed by hand,
 * or the largest one found in the table): the counter rises to it and never goes down.
 */
export async function raiseCounter(
  trx: Trx | Db,
  dialect: Dialect,
  series: string,
  year: number,
  taken: number,
): Promise<void> {
  const larger = dialect === 'postgres' ? sql.raw('greatest') : sql.raw('max');
  await sql`insert into ${sql.table(NUMBER_COUNTERS)} (series, year, last) values (${series}, ${year}, ${taken})
    on conflict (series, year) do update set last = ${larger}(${sql.table(NUMBER_COUNTERS)}.last, excluded.last)`.execute(
    trx,
  );
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
