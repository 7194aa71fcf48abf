import { sql } from 'kysely';
import type { Db, Dialect } from '../db';

/** One table as a backup records it: its columns in order and its primary key. */
export interface TableLayout {
  name: string;
  columns: { name: string; type: string }[];
  primaryKey: string[];
}

/**
 * Tables a backup leaves out. The migrator's own tables (the manifest lists the migrations
 * applied instead), SQLite's internal ones, and the tables triggers keep from the others (totals,
 * write versions, filter totals): a restore makes them again from the rows it loads. The list of
 * backups too: its archives are not in a backup, so a restored office starts with none listed.
 */
const LEFT_OUT = new Set([
  'kysely_migration',
  'kysely_migration_lock',
  'entity_counts',
  'entity_filter_counts',
  'backups',
]);

/** The names of the ordinary tables of the database (no views, no SQLite virtual or shadow tables). */
export async function tableNames(db: Db, dialect: Dialect): Promise<string[]> {
  if (dialect === 'sqlite') {
    // `table_list` tells plain tables from FTS5 virtual tables and their shadow tables.
    const { rows } = await sql<{ name: string }>`
      select name from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite_%'
      order by name`.execute(db);
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  return rows.map((r) => r.name);
}

async function describe(db: Db, dialect: Dialect, table: string): Promise<TableLayout> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ name: string; type: string; pk: number }>`
      select name, type, pk from pragma_table_info(${table}) order by cid`.execute(db);
    return {
      name: table,
      columns: rows.map((r) => ({ name: r.name, type: r.type.toLowerCase() })),
      primaryKey: rows
        .filter((r) => r.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((r) => r.name),
    };
  }
  const { rows: columns } = await sql<{ name: string; type: string }>`
    select column_name as name, data_type as type from information_schema.columns
    where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(db);
  const { rows: key } = await sql<{ name: string }>`
    select a.attname as name from pg_index i
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
    where i.indrelid = ${sql.lit(`"${table}"`)}::regclass and i.indisprimary
    order by array_position(i.indkey, a.attnum)`.execute(db);
  return { name: table, columns, primaryKey: key.map((r) => r.name) };
}

/** Parent tables of each table (foreign keys), self-references left out. */
async function parents(
  db: Db,
  dialect: Dialect,
  tables: readonly string[],
): Promise<Map<string, Set<string>>> {
  const found = new Map<string, Set<string>>(tables.map((t) => [t, new Set<string>()]));
  if (dialect === 'sqlite') {
    for (const table of tables) {
      const { rows } = await sql<{
        table: string;
      }>`select "table" from pragma_foreign_key_list(${table})`.execute(db);
      for (const r of rows) if (r.table !== table) found.get(table)!.add(r.table);
    }
  } else {
    const { rows } = await sql<{ child: string; parent: string }>`
      select c.relname as child, p.relname as parent from pg_constraint k
      join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
      join pg_namespace n on n.oid = c.relnamespace
      where k.contype = 'f' and n.nspname = current_schema()`.execute(db);
    for (const r of rows) if (r.child !== r.parent) found.get(r.child)?.add(r.parent);
  }
  return found;
}

/**
 * Every table a backup holds, parents before the tables that refer to them, so that loading them
 * in this order satisfies every foreign key (rows of a self-referring table go in key order).
 */
export async function readLayout(db: Db, dialect: Dialect): Promise<TableLayout[]> {
  const names = (await tableNames(db, dialect)).filter((n) => !LEFT_OUT.has(n));
  const graph = await parents(db, dialect, names);
  const ordered: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: string, path: string[]) => {
    if (state.get(table) === 'done') return;
    if (state.get(table) === 'visiting')
      throw new Error(`foreign keys form a cycle: ${[...path, table].join(' → ')}`);
    state.set(table, 'visiting');
    for (const parent of [...(graph.get(table) ?? [])].sort())
      if (graph.has(parent)) visit(parent, [...path, table]);
    state.set(table, 'done');
    ordered.push(table);
  };
  for (const name of names) visit(name, []);
  const layouts: TableLayout[] = [];
  for (const name of ordered) {
    const layout = await describe(db, dialect, name);
    if (layout.primaryKey.length === 0)
      throw new Error(`table ${name} has no primary key: it cannot be read in pages`);
    layouts.push(layout);
  }
  return layouts;
}

/** The migrations recorded in the database, by their recorded names. */
export async function appliedMigrations(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('kysely_migration').select('name').orderBy('name').execute();
  return rows.map((r) => String(r.name));
}
