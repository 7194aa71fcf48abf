import { getEntity, snakeCase, type Entity, type FieldDefinition, type Fields } from '@mizan/contracts';
import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Expression } from 'kysely';
import { exclusively, type Db, type Dialect, tableNames, tableColumns } from '../index';
import { SEARCH_COLUMN, addSearchColumn, createSearchIndex, hasSearch } from './searchColumn';
import { createFilterCountTriggers } from './filterCounts';
import { createWriteTriggers, hasVersionColumn } from './writeVersions';

/**
 * Table shapes derived from entity definitions. Released migrations call these with explicit
 * entity names, so they create the same tables however the registry grows later; a new entity's
 * tables are created at start by `createMissingEntityTables`.
 */

/** Field keys seen so far → column names (a few hundred: the definitions' keys). */
const columns = new Map<string, string>();

/**
 * Column name of a field: snake_case of its key (`continentId` → `continent_id`). Remembered:
 * every field of every row served asks for it (a lawsuit page, about five hundred times).
 */
export function columnName(field: string): string {
  let column = columns.get(field);
  if (column !== undefined) return column;
  column = snakeCase(field);
  // Bounded all the same, should a caller ever pass something other than a definition's key.
  if (columns.size < 10_000) columns.set(field, column);
  return column;
}

/** Join table of a `refs` field: `<table>_<field_snake>`, columns `owner_id` → row, `ref_id` → referenced row. */
export const joinTableName = (entity: Entity<Fields>, field: string): string =>
  `${entity.table}_${columnName(field)}`;

const raw = (type: string): Expression<unknown> => sql.raw(type);

/** The SQL type of a stored field (`refs` and `files` live in other tables). */
export function columnType(field: FieldDefinition, dialect: Dialect): Expression<unknown> | null {
  const pg = dialect === 'postgres';
  switch (field.type) {
    case 'string':
    case 'email':
    case 'phone':
    case 'url':
    case 'color':
      return raw(pg ? `varchar(${field.max ?? 255})` : 'text');
    case 'password':
      // Holds a hash, longer than the typed password.
      return raw(pg ? 'varchar(255)' : 'text');
    case 'text':
      return raw('text');
    case 'integer':
    case 'duration':
      return raw('integer');
    case 'money':
      // Minor units (contracts money.ts): 64-bit integers on both (SQLite's INTEGER is 64-bit).
      return raw(pg ? 'bigint' : 'integer');
    case 'number':
      return raw(pg ? 'double precision' : 'real');
    case 'boolean':
      return raw(pg ? 'boolean' : 'integer');
    case 'date':
      return raw(pg ? 'date' : 'text');
    case 'datetime':
      return raw(pg ? 'timestamptz' : 'text');
    case 'enum':
      return raw(pg ? `varchar(${Math.max(50, ...field.values.map((v) => v.length))})` : 'text');
    case 'ref':
      return raw('integer');
    case 'refs':
    case 'files':
      return null;
  }
}

/** The SQL type of `created_at`-style columns. */
export const instantType = (dialect: Dialect): Expression<unknown> =>
  raw(dialect === 'postgres' ? 'timestamptz' : 'text');

/** Adds `id` as an auto-increment primary key on either dialect. */
export function idColumn<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

function booleanDefault(value: boolean, dialect: Dialect) {
  return (c: ColumnDefinitionBuilder) =>
    c.notNull().defaultTo(dialect === 'postgres' ? sql.raw(String(value)) : sql.raw(value ? '1' : '0'));
}

function sortColumn(entity: Entity<Fields>): string | null {
  const [field] = entity.defaultSort.split(':');
  if (!field || field === 'createdAt' || field === 'id') return null;
  return columnName(field);
}

/**
 * Columns a list may be sorted or filtered by (`sortableFields`, `filterableFields`) that need an
 * index of their own: the default order's, `updated_at`, `status`, `baned`, and every `sort: true`,
 * `filter: true`, enum or boolean field (`id` and `created_at` are indexed already, and so are
 * unique fields and references). `(column, id)`: a filtered list in id order, or sorted by the
 * column, reads the index in order.
 */
export function sortIndexColumns(entity: Entity<Fields>): string[] {
  const columns = new Set<string>();
  const byDefault = sortColumn(entity);
  if (byDefault) columns.add(byDefault);
  columns.add('updated_at');
  if (entity.status) columns.add('status');
  if (entity.baned) columns.add('baned');
  for (const [key, field] of Object.entries(entity.fields)) {
    if (field.unique || field.type === 'ref' || field.type === 'refs' || field.type === 'files') continue;
    if (field.sort || field.filter || field.type === 'enum' || field.type === 'boolean')
      columns.add(columnName(key));
  }
  return [...columns];
}

/** The name of a column's `(column, id)` index. */
export const sortIndexName = (table: string, column: string): string => `${table}_${column}_id_idx`;

/** `(column, id)` indexes for every sortable column (see `sortIndexColumns`); existing ones are kept. */
export async function createSortIndexes(db: Db, entity: Entity<Fields>): Promise<void> {
  for (const column of sortIndexColumns(entity))
    await db.schema
      .createIndex(sortIndexName(entity.table, column))
      .ifNotExists()
      .on(entity.table)
      .columns([column, 'id'])
      .execute();
}

/** The column of a name a composite index may hold: a field's, or a system column's. */
const indexColumn = (key: string): string => (key === 'status' ? 'status' : columnName(key));

/** The columns of each composite index the definition declares, `id` last (see `EntityDefinition.indexes`). */
export function declaredIndexColumns(entity: Entity<Fields>): string[][] {
  return (entity.indexes ?? []).map((group) => [...group.map(indexColumn), 'id']);
}

/**
 * The definition's composite indexes (`indexes`), `<table>_<columns>_idx`; existing ones are kept,
 * so a migration can run it over a table created before an index was declared.
 */
export async function createDeclaredIndexes(db: Db, entity: Entity<Fields>): Promise<void> {
  for (const columns of declaredIndexColumns(entity))
    await db.schema
      .createIndex(`${entity.table}_${columns.join('_')}_idx`)
      .ifNotExists()
      .on(entity.table)
      .columns(columns)
      .execute();
}

/** One entity's tables from its definition (migrations name entities: see `createEntityTables`). */
export async function createEntityTable(db: Db, dialect: Dialect, entity: Entity<Fields>): Promise<void> {
  let table = idColumn(db.schema.createTable(entity.table), dialect);
  for (const [key, field] of Object.entries(entity.fields)) {
    const type = columnType(field, dialect);
    if (!type) continue;
    table = table.addColumn(columnName(key), type, (c) => {
      let column = field.required ? c.notNull() : c;
      if (field.type === 'ref') column = column.references(`${getEntity(field.entity).table}.id`);
      return column;
    });
  }
  if (entity.status)
    table = table.addColumn(
      'status',
      raw(dialect === 'postgres' ? 'boolean' : 'integer'),
      booleanDefault(true, dialect),
    );
  if (entity.baned)
    table = table.addColumn(
      'baned',
      raw(dialect === 'postgres' ? 'boolean' : 'integer'),
      booleanDefault(false, dialect),
    );
  table = table
    .addColumn('created_at', instantType(dialect), (c) => c.notNull())
    .addColumn('updated_at', instantType(dialect), (c) => c.notNull());
  // The folded text of the search fields, written by the engine (see searchColumn.ts).
  if (hasSearch(entity)) table = table.addColumn(SEARCH_COLUMN, 'text');
  await table.execute();
  if (hasSearch(entity)) await createSearchIndex(db, dialect, entity);

  // The default list order, `(created_at, id)`, served by an index for keyset pagination.
  await db.schema
    .createIndex(`${entity.table}_created_at_id_idx`)
    .on(entity.table)
    .columns(['created_at', 'id'])
    .execute();
  await createSortIndexes(db, entity);
  await createDeclaredIndexes(db, entity);

  for (const [key, field] of Object.entries(entity.fields)) {
    const column = columnName(key);
    if (field.unique) {
      await db.schema
        .createIndex(`${entity.table}_${column}_unique`)
        .on(entity.table)
        .column(column)
        .unique()
        .execute();
    } else if (field.type === 'ref') {
      await db.schema.createIndex(`${entity.table}_${column}_idx`).on(entity.table).column(column).execute();
    }
  }
  for (const group of entity.uniqueTogether ?? []) {
    const columns = group.map((f) => columnName(f));
    await db.schema
      .createIndex(`${entity.table}_${columns.join('_')}_unique`)
      .on(entity.table)
      .columns(columns)
      .unique()
      .execute();
  }

  for (const [key, field] of Object.entries(entity.fields)) {
    if (field.type !== 'refs') continue;
    const joinTable = joinTableName(entity, key);
    const target = getEntity(field.entity).table;
    await db.schema
      .createTable(joinTable)
      .addColumn('owner_id', 'integer', (c) =>
        c.notNull().references(`${entity.table}.id`).onDelete('cascade'),
      )
      .addColumn('ref_id', 'integer', (c) => c.notNull().references(`${target}.id`))
      .addPrimaryKeyConstraint(`${joinTable}_pk`, ['owner_id', 'ref_id'])
      .execute();
    await db.schema.createIndex(`${joinTable}_ref_id_idx`).on(joinTable).column('ref_id').execute();
  }

  await db.insertInto('entity_counts').values({ entity: entity.name, total: 0 }).execute();
  await createEntityWriteTriggers(db, dialect, entity);
  await createFilterCountTriggers(db, dialect, entity);
}

/**
 * The write-version triggers (writeVersions.ts) of an entity's row table and join tables. Tables
 * created by migrations older than the version column (002 on a fresh database) get theirs from
 * migration 006, which adds the column first.
 */
export async function createEntityWriteTriggers(
  db: Db,
  dialect: Dialect,
  entity: Entity<Fields>,
): Promise<void> {
  if (!(await hasVersionColumn(db))) return;
  const joins = Object.entries(entity.fields)
    .filter(([, field]) => field.type === 'refs')
    .map(([key]) => joinTableName(entity, key));
  await createWriteTriggers(db, dialect, entity.name, [entity.table, ...joins]);
}

/**
 * Creates the tables of the named entities, in the order given (referenced entities first):
 * the row table, its indexes, the join tables of `refs` fields and its maintained count.
 */
export async function createEntityTables(db: Db, dialect: Dialect, names: readonly string[]): Promise<void> {
  for (const name of names) await createEntityTable(db, dialect, getEntity(name));
}

/** Advisory lock key held while missing entity tables are created (any constant of ours). */
const ENTITY_TABLES_LOCK = 7_160_512;

/**
 * Creates the tables of every named entity that has none yet, in the order given (the registry's:
 * referenced entities first), in one transaction, and returns their names. Run at start after the
 * migrations, so a new entity's tables come from its definition alone; what changes an existing
 * table (a field added later) stays an explicit migration (`addEntityFields`).
 *
 * @example
 * await createMissingEntityTables(db, dialect, registry.map((e) => e.name)); // ['customers'] once
 */
export async function createMissingEntityTables(
  db: Db,
  dialect: Dialect,
  names: readonly string[],
): Promise<string[]> {
  const missingIn = async (executor: Db) => {
    const existing = await tableNames(executor);
    return names.filter((name) => !existing.has(getEntity(name).table));
  };
  if (!(await missingIn(db)).length) return [];
  // Instances starting together on one PostgreSQL: one creates, the others then find the tables.
  return exclusively(db, dialect, ENTITY_TABLES_LOCK, async (trx) => {
    const missing = await missingIn(trx);
    await createEntityTables(trx, dialect, missing);
    return missing;
  });
}

/**
 * Adds columns for fields added to an existing entity's definition (a later migration's job).
 * Skips columns already present, and a table not created yet, so it also works on a database
 * whose table was created after the field was added to the definition.
 */
export async function addEntityFields(
  db: Db,
  dialect: Dialect,
  name: string,
  fields: readonly string[],
): Promise<void> {
  const entity = getEntity(name);
  const existing = await tableColumns(db, entity.table);
  // No table yet (a fresh database): it is created at start from the definition, field included.
  if (!existing) return;
  for (const key of fields) {
    const field = entity.fields[key];
    if (!field) throw new Error(`addEntityFields: ${name} has no field "${key}"`);
    const type = columnType(field, dialect);
    if (!type || existing.has(columnName(key))) continue;
    // A column added to a table that has rows cannot be NOT NULL without a default; the engine
    // still requires the value on every write.
    await db.schema
      .alterTable(entity.table)
      .addColumn(columnName(key), type, (c) =>
        field.type === 'ref' ? c.references(`${getEntity(field.entity).table}.id`) : c,
      )
      .execute();
  }
  // The first search field of a definition that had none: the table gets its folded column too.
  await addSearchColumn(db, dialect, entity);
}
