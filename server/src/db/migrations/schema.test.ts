import {
  getEntity,
  registry,
  filterableFields,
  sortableFields,
  type Entity,
  type FieldDefinition,
  type Fields,
} from '@mizan/contracts';
import { sql } from 'kysely';
import { MIGRATION_GROUPS } from '../../app';
import { dialects, freshDatabase } from '../../test/harness';
import { createDatabase, type Database, type Db, type Dialect } from '../index';
import { runMigrations } from '../migrate';
import { addEntityFields, columnName, createMissingEntityTables, joinTableName } from './index';
import { SEARCH_COLUMN, hasSearch, searchIndexTable } from './searchColumn';

/**
 * The migrated schema against the definitions, on both databases: a definition changed without
 * its migration (a new field, a new refs list, a new sortable column) fails here rather than at
 * the first write.
 */

const entities = registry as readonly Entity<Fields>[];

/** Column types each field type may have, as Kysely's introspection names them. */
function expectedTypes(field: FieldDefinition, dialect: Dialect): string[] {
  const pg = dialect === 'postgres';
  switch (field.type) {
    case 'integer':
    case 'ref':
      return pg ? ['int4', 'int8'] : ['integer'];
    case 'number':
      return pg ? ['float8', 'numeric'] : ['real'];
    case 'money':
      return pg ? ['int8'] : ['integer'];
    case 'duration':
      return pg ? ['int4', 'int8'] : ['integer'];
    case 'boolean':
      return pg ? ['bool'] : ['integer'];
    case 'date':
      return pg ? ['date'] : ['text'];
    case 'datetime':
      return pg ? ['timestamptz'] : ['text'];
    case 'text':
      return ['text'];
    default:
      return pg ? ['varchar', 'text'] : ['text'];
  }
}

/** Index name → its columns in order, for one table. */
async function indexesOf(db: Db, dialect: Dialect, table: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (dialect === 'postgres') {
    const { rows } = await sql<{ name: string; column: string }>`
      select i.relname as name, a.attname as column
      from pg_index x
      join pg_class t on t.oid = x.indrelid
      join pg_class i on i.oid = x.indexrelid
      join lateral unnest(x.indkey) with ordinality as k(attnum, pos) on true
      join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
      where t.relname = ${table}
      order by i.relname, k.pos`.execute(db);
    for (const r of rows) out.set(r.name, [...(out.get(r.name) ?? []), r.column]);
    return out;
  }
  const { rows: list } = await sql<{ name: string }>`select name from pragma_index_list(${table})`.execute(
    db,
  );
  for (const { name } of list) {
    const { rows } = await sql<{
      name: string;
    }>`select name from pragma_index_info(${name}) order by seqno`.execute(db);
    out.set(
      name,
      rows.map((r) => r.name),
    );
  }
  return out;
}

describe.each(dialects())('migrated schema against the definitions on %s', (dialect) => {
  let database: Database;
  let cleanup: () => Promise<void>;
  let tables: Map<string, Map<string, { dataType: string; isNullable: boolean }>>;

  // Only the migrations, on a fresh database: what any deployment starts from.
  beforeAll(async () => {
    const fresh = await freshDatabase(dialect, 'mizan-schema-');
    cleanup = fresh.drop;
    database = createDatabase(fresh.url);
    // As the app starts: the migrations, then the tables of entities no migration created.
    await runMigrations(database.db, dialect, MIGRATION_GROUPS);
    await createMissingEntityTables(
      database.db,
      dialect,
      entities.map((e) => e.name),
    );
    tables = new Map(
      (await database.db.introspection.getTables()).map((table) => [
        table.name,
        new Map(
          table.columns.map((c) => [
            c.name,
            { dataType: c.dataType.toLowerCase(), isNullable: c.isNullable },
          ]),
        ),
      ]),
    );
  });
  afterAll(async () => {
    await database?.destroy();
    await cleanup?.();
  });

  it.each(entities.map((e) => [e.name, e] as const))(
    '%s: every field has its column, with a compatible type',
    (_, entity) => {
      const columns = tables.get(entity.table);
      expect(columns).toBeDefined();
      const problems: string[] = [];
      const system = [
        'id',
        'created_at',
        'updated_at',
        ...(entity.status ? ['status'] : []),
        ...(entity.baned ? ['baned'] : []),
      ];
      for (const name of system) if (!columns!.has(name)) problems.push(`missing system column ${name}`);
      for (const [key, field] of Object.entries(entity.fields)) {
        if (field.type === 'refs' || field.type === 'files') continue;
        const column = columns!.get(columnName(key));
        if (!column) {
          problems.push(`${key}: no column ${columnName(key)}`);
          continue;
        }
        if (!expectedTypes(field, dialect).includes(column.dataType))
          problems.push(
            `${key}: column type ${column.dataType}, expected ${expectedTypes(field, dialect).join(' or ')}`,
          );
        // A required field is NOT NULL when its table was created with it.
        if (field.required && column.isNullable) problems.push(`${key}: nullable although required`);
      }
      expect(problems).toEqual([]);
    },
  );

  it.each(entities.map((e) => [e.name, e] as const))(
    '%s: every refs field has its join table',
    (_, entity) => {
      for (const [key, field] of Object.entries(entity.fields)) {
        if (field.type !== 'refs') continue;
        const join = tables.get(joinTableName(entity, key));
        expect({ field: key, columns: join ? [...join.keys()].sort() : null }).toEqual({
          field: key,
          columns: ['owner_id', 'ref_id'],
        });
        expect(getEntity(field.entity).table).toBeTruthy();
      }
    },
  );

  it.each(entities.map((e) => [e.name, e] as const))(
    '%s: indexes for every sortable, filterable, unique and reference column',
    async (_, entity) => {
      const indexes = [...(await indexesOf(database.db, dialect, entity.table)).values()].map((c) =>
        c.join(','),
      );
      const wanted = [
        'created_at,id',
        // Every column the list query accepts as `sort` or as a filter (`filterableFields`).
        ...[...new Set([...sortableFields(entity), ...filterableFields(entity)])]
          .filter((key) => key !== 'id' && key !== 'createdAt')
          .filter(
            (key) =>
              !entity.fields[key] ||
              (!entity.fields[key]!.unique && !['ref', 'refs'].includes(entity.fields[key]!.type)),
          )
          .map((key) => `${columnName(key)},id`),
        ...Object.entries(entity.fields)
          .filter(([, f]) => f.unique || f.type === 'ref')
          .map(([k]) => columnName(k)),
        ...(entity.uniqueTogether ?? []).map((group) => group.map(columnName).join(',')),
      ];
      expect(wanted.filter((w) => !indexes.includes(w))).toEqual([]);
    },
  );

  it.each(entities.map((e) => [e.name, e] as const))(
    '%s: a folded search column with its trigram index when the definition has search fields',
    async (_, entity) => {
      const column = tables.get(entity.table)!.get(SEARCH_COLUMN);
      if (!hasSearch(entity)) {
        expect(column).toBeUndefined();
        return;
      }
      expect(column?.dataType).toBe('text');
      if (dialect === 'postgres') {
        const { rows } = await sql<{ indexdef: string }>`
          select indexdef from pg_indexes where tablename = ${entity.table}`.execute(database.db);
        expect(
          rows.map((r) => r.indexdef).filter((d) => /gin \(search_text gin_trgm_ops\)/.test(d)),
        ).toHaveLength(1);
        return;
      }
      const { rows } = await sql<{ type: string; name: string; sql: string }>`
        select type, name, sql from sqlite_master
        where name = ${searchIndexTable(entity)} or (type = 'trigger' and tbl_name = ${entity.table})`.execute(
        database.db,
      );
      const fts = rows.find((r) => r.type === 'table');
      expect(fts?.sql).toMatch(/using fts5\(.*tokenize='trigram'/i);
      // Insert, update of the column and delete keep the index in step.
      expect(
        rows
          .filter((r) => r.type === 'trigger' && r.name.includes('_search_'))
          .map((r) => r.name)
          .sort(),
      ).toEqual(['ad', 'ai', 'au'].map((s) => `${entity.table}_search_${s}`));
    },
  );

  // Last: it drops a table to stand for an entity whose definition is new.
  it('creates the tables of an entity that has none yet from its definition, once, with its count', async () => {
    const names = entities.map((e) => e.name);
    expect(await createMissingEntityTables(database.db, dialect, names)).toEqual([]);
    // A definition added since the last start: its row table, join table and count are missing.
    await database.db.schema.dropTable('roles_permission_ids').execute();
    await database.db.schema.dropTable('employees_role_ids').execute();
    // The roles two-factor sign-in requires reference roles: a new entity has no such table yet.
    await database.db.schema.dropTable('two_factor_required_roles').execute();
    await database.db.schema.dropTable('roles').execute();
    await database.db.deleteFrom('entity_counts').where('entity', '=', 'roles').execute();
    // A later migration adding a field to it does nothing yet: the table comes with the field.
    await addEntityFields(database.db, dialect, 'roles', ['description']);
    expect(await createMissingEntityTables(database.db, dialect, names)).toEqual(['roles']);
    const after = new Set((await database.db.introspection.getTables()).map((t) => t.name));
    expect(after.has('roles') && after.has('roles_permission_ids')).toBe(true);
    const count = await database.db
      .selectFrom('entity_counts')
      .select('total')
      .where('entity', '=', 'roles')
      .executeTakeFirst();
    expect(Number(count?.total)).toBe(0);
    expect(await createMissingEntityTables(database.db, dialect, names)).toEqual([]);
  });
});
