import { foldArabic, joinCompoundNames, snakeCase, type Entity, type Fields } from '@mizan/contracts';
import { sql } from 'kysely';
import { type Db, type Dialect, tableColumns } from '../index';

/**
 * The folded search column of entity tables (the engine's `q`, see engine/search.ts): every table
 * whose definition has `search: true` fields holds `search_text`, the folded values
 * (`foldArabic`) of those fields, one per line, indexed for substring search by trigrams: on
 * SQLite an FTS5 table (`tokenize='trigram'`, external content over the row table, kept in step by
 * triggers in the writing transaction), on PostgreSQL a `pg_trgm` GIN index.
 */

/** The folded search column of every table whose definition has search fields. */
export const SEARCH_COLUMN = 'search_text';

/** Between the folded values of two fields: never inside one (folding collapses whitespace). */
const SEPARATOR = '\n';

/** The keys of an entity's searched fields: `search: true`, readable, stored in the row. */
export function searchFields(entity: Entity<Fields>): string[] {
  return Object.entries(entity.fields)
    .filter(([, f]) => f.search && !f.writeOnly && f.type !== 'refs' && f.type !== 'files')
    .map(([key]) => key);
}

/** Whether the entity's table has (or gets) the folded search column. */
export const hasSearch = (entity: Entity<Fields>): boolean => searchFields(entity).length > 0;

/** The FTS5 table of an entity on SQLite. */
export const searchIndexTable = (entity: Entity<Fields>): string => `${entity.table}_search_fts`;

/**
 * The folded search text of one row: its search fields' values folded, one per line (empty
 * values left out). `''` when none holds a value, so a folded row is never NULL.
 *
 * @example searchText(getEntity('countries'), { name: 'مِصْر', code: 'EG' }) // 'مصر\neg'
 */
export function searchText(entity: Entity<Fields>, values: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of searchFields(entity)) {
    const value = values[key];
    if (value === null || value === undefined || typeof value === 'object') continue;
    const folded = foldArabic(String(value));
    if (folded) parts.push(folded);
  }
  return parts.join(SEPARATOR);
}

/**
 * Whether PostgreSQL's `pg_trgm` is installed, creating it when it is not (inside a transaction,
 * behind a savepoint, so a refusal leaves the transaction usable). Without it the search still
 * works, unindexed: a warning says so and start-up goes on.
 */
export async function ensureTrigram(db: Db): Promise<boolean> {
  const installed = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (installed.rows.length) return true;
  const inTransaction = db.isTransaction;
  try {
    if (inTransaction) await sql`savepoint mizan_pg_trgm`.execute(db);
    await sql`create extension if not exists pg_trgm`.execute(db);
    if (inTransaction) await sql`release savepoint mizan_pg_trgm`.execute(db);
    return true;
  } catch (error) {
    if (inTransaction) await sql`rollback to savepoint mizan_pg_trgm`.execute(db);
    process.emitWarning(
      `pg_trgm cannot be created (${String((error as Error).message ?? error)}): ` +
        'list search works without its index, slower on long tables',
      'MizanSearchWarning',
    );
    return false;
  }
}

/**
 * The index of an entity's search column, which must exist. SQLite: the FTS5 trigram table over
 * the row table (rebuilt from the column) and the triggers that keep it in step with every insert,
 * update and delete; PostgreSQL: a `pg_trgm` GIN index (none when the extension is unavailable).
 */
export async function createSearchIndex(db: Db, dialect: Dialect, entity: Entity<Fields>): Promise<void> {
  await createUnfoldedIndex(db, entity);
  await createTrigramIndex(db, dialect, entity.table, searchIndexTable(entity));
}

/**
 * The trigram index of the folded column `search_text` of any table with an integer `id` (entity
 * tables, and others that hold folded text such as the pages of files' text): on SQLite the FTS5
 * table `fts` over it with its triggers, on PostgreSQL a `pg_trgm` GIN index.
 */
export async function createTrigramIndex(
  db: Db,
  dialect: Dialect,
  table: string,
  fts: string,
): Promise<void> {
  if (dialect === 'postgres') {
    if (!(await ensureTrigram(db))) return;
    await sql`create index if not exists ${sql.id(`${table}_search_text_trgm`)} on ${sql.table(table)} using gin (${sql.ref(SEARCH_COLUMN)} gin_trgm_ops)`.execute(
      db,
    );
    return;
  }
  const ftsTable = sql.table(fts);
  const column = sql.ref(SEARCH_COLUMN);
  const t = sql.table(table);
  const trigger = (suffix: string) => sql.id(`${table}_search_${suffix}`);
  // A table dropped and created again (a new definition) leaves no stale index behind.
  await sql`drop table if exists ${ftsTable}`.execute(db);
  await sql`create virtual table ${ftsTable} using fts5(${column}, content=${sql.lit(table)}, content_rowid='id', tokenize='trigram')`.execute(
    db,
  );
  await sql`create trigger if not exists ${trigger('ai')} after insert on ${t} begin
    insert into ${ftsTable}(rowid, ${column}) values (new.id, new.${column});
  end`.execute(db);
  await sql`create trigger if not exists ${trigger('ad')} after delete on ${t} begin
    insert into ${ftsTable}(${ftsTable}, rowid, ${column}) values ('delete', old.id, old.${column});
  end`.execute(db);
  await sql`create trigger if not exists ${trigger('au')} after update of ${column} on ${t} begin
    insert into ${ftsTable}(${ftsTable}, rowid, ${column}) values ('delete', old.id, old.${column});
    insert into ${ftsTable}(rowid, ${column}) values (new.id, new.${column});
  end`.execute(db);
  await sql`insert into ${ftsTable}(${ftsTable}) values ('rebuild')`.execute(db);
}

/**
 * The rows never folded (`search_text` NULL), as a partial index on `id`: empty while the engine
 * writes every row's text, so the fold at each start (`foldUnfoldedRows`) reads nothing instead of
 * scanning the whole table (about 1 s per million-row table).
 */
export async function createUnfoldedIndex(db: Db, entity: Entity<Fields>): Promise<void> {
  if (!hasSearch(entity)) return;
  await sql`create index if not exists ${sql.id(`${entity.table}_unfolded_idx`)} on ${sql.table(entity.table)} (id) where ${sql.ref(SEARCH_COLUMN)} is null`.execute(
    db,
  );
}

/** Rows folded per statement by `foldRows`. */
const FOLD_BATCH = 1000;

/**
 * Writes the folded search text of an entity's stored rows, in batches by id: every row, or with
 * `onlyUnfolded` those never folded (`search_text` NULL: rows written outside the engine, such as
 * the start-up seed). Returns how many rows were written. Run by the migration that adds the
 * column and at start; a migration that changes which fields are searched runs it too.
 */
export async function foldRows(
  db: Db,
  entity: Entity<Fields>,
  options: { onlyUnfolded?: boolean } = {},
): Promise<number> {
  const keys = searchFields(entity);
  if (!keys.length) return 0;
  // Column names as entityTables' `columnName` (imported from there it would be a cycle).
  const columns = keys.map((key) => snakeCase(key));
  let last = 0;
  let written = 0;
  for (;;) {
    let query = db
      .selectFrom(entity.table)
      .select(['id', ...columns])
      .where('id', '>', last)
      .orderBy('id')
      .limit(FOLD_BATCH);
    if (options.onlyUnfolded) query = query.where(SEARCH_COLUMN, 'is', null);
    const rows = await query.execute();
    if (!rows.length) return written;
    const values = rows.map((row) => {
      const text = searchText(entity, Object.fromEntries(keys.map((key, i) => [key, row[columns[i]!]])));
      return sql`(cast(${Number(row.id)} as integer), cast(${text} as text))`;
    });
    await sql`update ${sql.table(entity.table)} set ${sql.ref(SEARCH_COLUMN)} = v.column2
      from (values ${sql.join(values)}) as v
      where ${sql.ref(`${entity.table}.id`)} = v.column1`.execute(db);
    written += rows.length;
    last = Number(rows[rows.length - 1]!.id);
  }
}

/**
 * Gives an existing table of an entity with search fields its search column, folds its rows and
 * indexes them (a migration's step). Does nothing for a table that has the column already or has
 * no search field; returns whether it added the column.
 */
export async function addSearchColumn(db: Db, dialect: Dialect, entity: Entity<Fields>): Promise<boolean> {
  if (!hasSearch(entity)) return false;
  const columns = await tableColumns(db, entity.table);
  if (!columns || columns.has(SEARCH_COLUMN)) return false;
  await db.schema.alterTable(entity.table).addColumn(SEARCH_COLUMN, 'text').execute();
  // Folded before the index exists: one rebuild instead of a trigger per row.
  await foldRows(db, entity);
  await createSearchIndex(db, dialect, entity);
  return true;
}

/**
 * Folds the rows of `entities` never folded (rows written outside the engine, such as the start-up
 * seed's first administrator, roles and permissions). Run once the app is ready.
 */
export async function foldUnfoldedRows(db: Db, entities: readonly Entity<Fields>[]): Promise<number> {
  let written = 0;
  for (const entity of entities)
    if (hasSearch(entity)) written += await foldRows(db, entity, { onlyUnfolded: true });
  return written;
}

/** Folded text that holds a compound name written apart (`عبد الله`), as folding wrote it before joining them. */
const COMPOUND_APART = ['عبد ', 'ابو ', 'ابي ', 'ابا '];

/**
 * Refolds stored folded text that folding now writes differently: compound names joined
 * (`joinCompoundNames`), a pure function of the folded text, so the source values need not be
 * read again. Only rows whose text holds a compound written apart are read and written, in
 * batches by id; on SQLite the search index follows through its update trigger. Returns how many
 * rows changed.
 */
export async function joinStoredCompounds(db: Db, table: string, column = SEARCH_COLUMN): Promise<number> {
  let last = 0;
  let written = 0;
  for (;;) {
    const rows = await db
      .selectFrom(table)
      .select(['id', `${column} as text`])
      .where('id', '>', last)
      .where((eb) => eb.or(COMPOUND_APART.map((word) => eb(column, 'like', `%${word}%`))))
      .orderBy('id')
      .limit(FOLD_BATCH)
      .execute();
    if (!rows.length) return written;
    for (const row of rows as { id: number | string; text: string | null }[]) {
      const joined = row.text === null ? null : joinCompoundNames(row.text);
      if (joined === row.text) continue;
      await db
        .updateTable(table)
        .set({ [column]: joined })
        .where('id', '=', Number(row.id))
        .execute();
      written += 1;
    }
    last = Number(rows[rows.length - 1]!.id);
  }
}
