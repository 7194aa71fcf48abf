import { sql } from 'kysely';
import { type Db, type Dialect, tableColumns } from '../index';

/**
 * Write versions: `entity_counts.version` of an entity goes up with every statement that writes
 * its table or one of its `refs` join tables, in the writing transaction (on PostgreSQL once, at
 * its commit), by triggers. Whatever writes (the engine, a module's own query, a seed), a reader that saw version `v` before reading
 * knows that anything it derived from the rows (a filtered total, where a page starts) still holds
 * while the version is `v` (engine/listCache.ts). The version survives restarts and is shared by
 * every instance on the database.
 */

/** The PostgreSQL trigger function: the entity's name is the trigger's argument. */
const PG_FUNCTION = 'mizan_entity_written';

/**
 * PostgreSQL raises the version at commit, once per transaction and entity: a deferred row
 * trigger, the first of the transaction's rows marking the entity written (a setting local to the
 * transaction) and the others seeing the mark. Raised earlier, the entity's `entity_counts` row
 * would stay locked from the write to the commit, and concurrent writers of the entity would wait
 * for each other's whole transactions; raised at commit, it is held for the commit only. Readers
 * see the version and the rows change together, as before.
 */
async function pgTrigger(db: Db, table: string, entity: string): Promise<void> {
  await sql`create or replace function ${sql.id(PG_FUNCTION)}() returns trigger language plpgsql as $$
    begin
      if current_setting('mizan_written.' || tg_argv[0], true) = 'y' then
        return null;
      end if;
      perform set_config('mizan_written.' || tg_argv[0], 'y', true);
      update entity_counts set version = version + 1 where entity = tg_argv[0];
      return null;
    end $$`.execute(db);
  await sql`drop trigger if exists ${sql.id(`${table}_written`)} on ${sql.table(table)}`.execute(db);
  await sql`create constraint trigger ${sql.id(`${table}_written`)} after insert or update or delete on ${sql.table(table)}
    deferrable initially deferred
    for each row execute function ${sql.id(PG_FUNCTION)}(${sql.lit(entity)})`.execute(db);
}

async function sqliteTriggers(db: Db, table: string, entity: string): Promise<void> {
  for (const [suffix, event] of [
    ['ai', 'insert'],
    ['au', 'update'],
    ['ad', 'delete'],
  ] as const)
    await sql`create trigger if not exists ${sql.id(`${table}_written_${suffix}`)} after ${sql.raw(event)} on ${sql.table(table)} begin
      update entity_counts set version = version + 1 where entity = ${sql.lit(entity)};
    end`.execute(db);
}

/**
 * The triggers that raise entity `name`'s write version on each of `tables` (its row table and
 * its join tables, see `entityTables.createEntityWriteTriggers`).
 */
export async function createWriteTriggers(
  db: Db,
  dialect: Dialect,
  name: string,
  tables: readonly string[],
): Promise<void> {
  for (const table of tables)
    if (dialect === 'postgres') await pgTrigger(db, table, name);
    else await sqliteTriggers(db, table, name);
}

/** Whether `entity_counts.version` exists (migration 006 has run). */
export async function hasVersionColumn(db: Db): Promise<boolean> {
  return Boolean((await tableColumns(db, 'entity_counts'))?.has('version'));
}

/** Adds `entity_counts.version` (a migration's step); the triggers come per table. */
export async function addVersionColumn(db: Db): Promise<void> {
  if (await hasVersionColumn(db)) return;
  await db.schema
    .alterTable('entity_counts')
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
