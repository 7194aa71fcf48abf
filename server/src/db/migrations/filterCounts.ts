import { snakeCase, type Entity, type Fields } from '@mizan/contracts';
import { sql, type RawBuilder } from 'kysely';
import { type Db, type Dialect, tableNames } from '../index';

/**
 * Kept filter totals (`EntityDefinition.counts`): for each declared group of fields, one row per
 * combination of values found in the table (`courtId,state` → `=12␟=active`) with the number of
 * rows holding it. Row triggers raise and lower them in every writing transaction, whoever writes
 * (the engine, a module's own query), so a list filtered by exactly a group's fields reads its
 * exact total instead of counting the matching rows. A bulk load with the triggers set aside (the
 * bench's generator) is made right by `recountFilterCounts` afterwards.
 */

export const FILTER_COUNTS_TABLE = 'entity_filter_counts';

/** Between a key's parts: the unit separator, in no id and no enum value. */
const SEPARATOR = '\u001f';

/** A group's name in the table: its fields in declared order, comma-joined. */
export const groupName = (group: readonly string[]): string => group.join(',');

/**
 * The key of a combination of values, as the triggers write it: per value, '' for null or `=` and
 * its text (the text of an integer, an enum value), joined by the unit separator.
 *
 * @example filterCountKey([12, 'active']) // '=12\u001f=active'
 */
export function filterCountKey(values: readonly unknown[]): string {
  return values.map((v) => (v === null || v === undefined ? '' : `=${String(v)}`)).join(SEPARATOR);
}

/** Whether the table exists (migration 008 has run). */
export async function hasFilterCounts(db: Db): Promise<boolean> {
  return (await tableNames(db)).has(FILTER_COUNTS_TABLE);
}

/** Creates the table (a migration's step); the triggers come per entity. */
export async function createFilterCountsTable(db: Db): Promise<void> {
  await db.schema
    .createTable(FILTER_COUNTS_TABLE)
    .ifNotExists()
    .addColumn('entity', 'varchar(100)', (c) => c.notNull())
    .addColumn('fields', 'varchar(200)', (c) => c.notNull())
    .addColumn('values_key', 'varchar(400)', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint(`${FILTER_COUNTS_TABLE}_pk`, ['entity', 'fields', 'values_key'])
    .execute();
}

/**
 * The key of `row` (`new` or `old` in a trigger, or null for the table's own columns) over
 * `columns`, as `filterCountKey` writes it. The PostgreSQL trigger builds its own (`PG_KEY_FUNCTION`).
 */
function keyOf(dialect: Dialect, row: string | null, columns: readonly string[]): RawBuilder<string> {
  const parts = columns.map((column) => {
    const ref = sql.ref(row ? `${row}.${column}` : column);
    return sql`coalesce('=' || cast(${ref} as text), '')`;
  });
  const separator = dialect === 'postgres' ? sql` || chr(31) || ` : sql` || char(31) || `;
  return sql`${sql.join(parts, separator)}`;
}

/** The PostgreSQL trigger function; its arguments: entity, group name, then the group's columns. */
const PG_FUNCTION = 'mizan_filter_counted';

/** A row's key over some of its columns (`to_jsonb` of the row, the columns' names), as `filterCountKey`. */
const PG_KEY_FUNCTION = 'mizan_filter_key';

async function createPgFunction(db: Db): Promise<void> {
  await sql`create or replace function ${sql.id(PG_KEY_FUNCTION)}(row_values jsonb, columns text[])
    returns text language sql immutable as $$
      select string_agg(coalesce('=' || (row_values ->> c), ''), chr(31) order by i)
      from unnest(columns) with ordinality as t(c, i)
    $$`.execute(db);
  // The old combination loses a row and the new one gains it; an update that changes neither
  // writes nothing.
  await sql`create or replace function ${sql.id(PG_FUNCTION)}() returns trigger language plpgsql as $$
    declare
      old_key text;
      new_key text;
    begin
      if tg_op <> 'INSERT' then
        old_key := ${sql.id(PG_KEY_FUNCTION)}(to_jsonb(old), tg_argv[2:]);
      end if;
      if tg_op <> 'DELETE' then
        new_key := ${sql.id(PG_KEY_FUNCTION)}(to_jsonb(new), tg_argv[2:]);
      end if;
      if old_key is not distinct from new_key then
        return null;
      end if;
      insert into entity_filter_counts (entity, fields, values_key, total)
        select tg_argv[0], tg_argv[1], change.key, change.delta
        from (values (old_key, -1), (new_key, 1)) as change (key, delta)
        where change.key is not null
        on conflict (entity, fields, values_key)
        do update set total = entity_filter_counts.total + excluded.total;
      return null;
    end $$`.execute(db);
}

const upsert = (entity: string, group: string, key: RawBuilder<string>, delta: 1 | -1) =>
  sql`insert into ${sql.table(FILTER_COUNTS_TABLE)} (entity, fields, values_key, total)
    values (${sql.lit(entity)}, ${sql.lit(group)}, ${key}, ${sql.lit(delta)})
    on conflict (entity, fields, values_key) do update set total = total + ${sql.lit(delta)};`;

/**
 * The triggers keeping `entity`'s declared filter totals (none without `counts`, or before
 * migration 008 created the table, which then installs them). Existing ones are replaced.
 */
export async function createFilterCountTriggers(
  db: Db,
  dialect: Dialect,
  entity: Entity<Fields>,
): Promise<void> {
  if (!entity.counts?.length || !(await hasFilterCounts(db))) return;
  if (dialect === 'postgres') await createPgFunction(db);
  for (const [index, group] of entity.counts.entries()) {
    const columns = group.map(snakeCase);
    const name = `${entity.table}_counted_${index}`;
    const fields = groupName(group);
    if (dialect === 'postgres') {
      await sql`drop trigger if exists ${sql.id(name)} on ${sql.table(entity.table)}`.execute(db);
      // At commit (deferred): the combination's row stays locked for the commit only, not from the
      // write on; the trigger sees the row as it was written.
      await sql`create constraint trigger ${sql.id(name)}
        after insert or delete or update of ${sql.join(columns.map((c) => sql.id(c)))} on ${sql.table(entity.table)}
        deferrable initially deferred
        for each row execute function ${sql.id(PG_FUNCTION)}(${sql.join(
          [entity.name, fields, ...columns].map((a) => sql.lit(a)),
        )})`.execute(db);
      continue;
    }
    for (const suffix of ['ai', 'ad', 'au'])
      await sql`drop trigger if exists ${sql.id(`${name}_${suffix}`)}`.execute(db);
    await sql`create trigger ${sql.id(`${name}_ai`)} after insert on ${sql.table(entity.table)} begin
      ${upsert(entity.name, fields, keyOf(dialect, 'new', columns), 1)}
    end`.execute(db);
    await sql`create trigger ${sql.id(`${name}_ad`)} after delete on ${sql.table(entity.table)} begin
      ${upsert(entity.name, fields, keyOf(dialect, 'old', columns), -1)}
    end`.execute(db);
    await sql`create trigger ${sql.id(`${name}_au`)}
      after update of ${sql.join(columns.map((c) => sql.id(c)))} on ${sql.table(entity.table)}
      when ${keyOf(dialect, 'old', columns)} is not ${keyOf(dialect, 'new', columns)} begin
      ${upsert(entity.name, fields, keyOf(dialect, 'old', columns), -1)}
      ${upsert(entity.name, fields, keyOf(dialect, 'new', columns), 1)}
    end`.execute(db);
  }
}

/**
 * Counts `entity`'s declared filter totals again from its table (in the caller's transaction; on
 * PostgreSQL the table is locked against writes meanwhile, so no write's trigger lands between
 * the count and its rows).
 */
async function recountEntity(db: Db, dialect: Dialect, entity: Entity<Fields>): Promise<void> {
  if (dialect === 'postgres') await sql`lock table ${sql.table(entity.table)} in share mode`.execute(db);
  await sql`delete from ${sql.table(FILTER_COUNTS_TABLE)} where entity = ${entity.name}`.execute(db);
  for (const group of entity.counts ?? []) {
    const key = keyOf(dialect, null, group.map(snakeCase));
    await sql`insert into ${sql.table(FILTER_COUNTS_TABLE)} (entity, fields, values_key, total)
      select ${sql.lit(entity.name)}, ${sql.lit(groupName(group))}, ${key}, count(*)
      from ${sql.table(entity.table)}
      group by ${key}`.execute(db);
  }
}

/**
 * Every declared filter total counted again from the tables: after rows were written with the
 * triggers set aside (a bulk load, the bench's generator), and by migration 008 for the rows that
 * were there before it. One transaction per entity (the caller's, in a migration), so at most one
 * table is locked at a time: a writer holding another table while it waits for this one cannot
 * deadlock with the recount.
 */
export async function recountFilterCounts(
  db: Db,
  dialect: Dialect,
  entities: readonly Entity<Fields>[],
): Promise<void> {
  const tables = await tableNames(db);
  if (!tables.has(FILTER_COUNTS_TABLE)) return;
  for (const entity of entities) {
    if (!entity.counts?.length || !tables.has(entity.table)) continue;
    // A migration's step runs in the migration's transaction already.
    if (db.isTransaction) await recountEntity(db, dialect, entity);
    else await db.transaction().execute((trx) => recountEntity(trx, dialect, entity));
  }
}

/** A declared filter total: the rows holding `values` in the group's fields (0 when none). */
export async function readFilterCount(
  db: Db,
  entity: string,
  group: readonly string[],
  values: readonly unknown[],
): Promise<number> {
  const { rows } = await sql<{ total: number | string }>`select total from ${sql.table(FILTER_COUNTS_TABLE)}
    where entity = ${entity} and fields = ${groupName(group)} and values_key = ${filterCountKey(values)}`.execute(
    db,
  );
  return rows.length ? Number(rows[0]!.total) : 0;
}
