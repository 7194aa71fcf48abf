import {
  getEntity,
  referencesIn,
  registry,
  type Entity,
  type Fields,
  type Reference,
  type RefsField,
} from '@mizan/contracts';
import { sql, type Expression, type SqlBool, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import { preparedOnPostgres, tableColumns, type Db, type Dialect } from '../db';
import { columnName, joinTableName, readFilterCount, sortIndexName } from '../db/migrations';
import type { SavedUpload } from '../files/storage';
import type { Trx } from './context';
import type { Versions } from '../db/counts';
import { present } from '../http/values';
import { ListCache, type RowKey } from './listCache';
import type { ScopeWhere } from './hooks';
import { ftsMatches, ftsQueryOf, hasSearch, searchCondition, searchTokens } from './search';
import { toApiRow, toStoredFile, type ApiRow, type DbRow, type Expansions } from './serialize';

type Executor = Db | Trx;

/** The links of rows per `refs` field: owner id → referenced ids, ascending. */
export type Links = Map<string, Map<number, number[]>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are generated from the registry (see Db)
type AnyExpressionBuilder = ExpressionBuilder<any, any>;

/** A parsed list query (see `listQuerySchema`). */
export interface ListParams {
  page: number;
  pageSize: number;
  q?: string;
  sort?: string;
  filters: Record<string, unknown>;
  /** Extra conditions: `scope` hooks (which rows the reader may see) and declared list filters. */
  where?: readonly ScopeWhere[];
}

/** Key of a row's values for a group of unique fields; null when any part is empty (no constraint applies). */
export function uniqueKey(values: Record<string, unknown>, fields: readonly string[]): string | null {
  const parts = fields.map((f) => values[f]);
  if (!parts.every(present)) return null;
  return JSON.stringify(parts.map(String));
}

/** Every unique group of a definition: each `unique` field alone, then each `uniqueTogether` group. */
export function uniqueGroups(entity: Entity<Fields>): string[][] {
  return [
    ...Object.entries(entity.fields)
      .filter(([, f]) => f.unique)
      .map(([k]) => [k]),
    ...(entity.uniqueTogether ?? []).map((g) => [...g]),
  ];
}

/** References grouped by the entity holding them, in the order they come. */
function groupByEntity(refs: readonly Reference[]): { entity: Entity<Fields>; fields: Reference[] }[] {
  const groups = new Map<string, { entity: Entity<Fields>; fields: Reference[] }>();
  for (const ref of refs) {
    const group = groups.get(ref.entity.name) ?? { entity: ref.entity, fields: [] };
    group.fields.push(ref);
    groups.set(ref.entity.name, group);
  }
  return [...groups.values()];
}

/** Column of a searched page's rows carrying the number of matches (see `page`). */
const SEARCH_TOTAL = '__search_total';
/** Titles kept per referenced entity (see `expand`): a settings list's all, a client table's latest. */
const MAX_KEPT_TITLES = 20_000;
/** The common table of a search's matches (see `searchedPage`). */
const MATCHES = '__matches';
/** Its page, ordered and counted (see `searchedPage`). */
const PAGE = '__page';
/**
 * Matches from which a search on SQLite walks the sort column's index rather than sorting them
 * (`walkedSearch`). At a million lawsuits: a number with 5,053 matches read its page in 1.6 ms
 * walking against 79 ms sorting, one with 45 matches in 424 ms walking against 3.3 ms sorting.
 */
export const BROAD_SEARCH = 2000;
/** Alias of the referenced table a list sorted by a reference field joins, and its title's column. */
const SORT_REF = '__sort_ref';
const SORT_VALUE = '__sort_value';

/** A list's order (see `EntityRepository.sortOf`). */
interface ListOrder {
  direction: 'asc' | 'desc';
  /** The sorted field's column in the table (for a reference field, the id it holds). */
  column: string;
  /** The expression ordered by: the column, or the referenced row's title. */
  value: string;
  /** The referenced entity, when sorted by a reference field. */
  target?: Entity<Fields>;
}

/** System fields that are columns of their own. */
const SYSTEM_COLUMNS: Record<string, string> = {
  id: 'id',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  status: 'status',
  baned: 'baned',
};

/** Ids per statement (see `chunks`). */
const CHUNK = 5000;

/**
 * Splits a list of ids into parts small enough for one statement on either database (SQLite
 * allows 32,766 variables, PostgreSQL 65,535; a join-table row takes two).
 */
export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The rows of `select(target, ids)` for every target of `targets` (target → ids, ids unique): one
 * UNION ALL statement while all the ids fit one, else per target in parts (see `chunks`). Each
 * select answers the same columns, `target` among them.
 */
async function selectByTarget(
  db: Executor,
  targets: readonly (readonly [string, readonly number[]])[],
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are generated from the registry (see Db)
  select: (target: string, ids: readonly number[]) => SelectQueryBuilder<any, any, Record<string, unknown>>,
  byName = false,
): Promise<Record<string, unknown>[]> {
  const parts =
    targets.reduce((n, [, ids]) => n + ids.length, 0) <= CHUNK
      ? [targets.map(([target, ids]) => select(target, ids))]
      : targets.flatMap(([target, ids]) => chunks(ids).map((part) => [select(target, part)]));
  // A form's few references: look-ups by key, of a few shapes, run by name.
  const prepared = byName && targets.every(([, ids]) => ids.length <= PREPARED_IDS);
  const rows: Record<string, unknown>[] = [];
  for (const [first, ...rest] of parts.filter((part) => part.length)) {
    const query = rest.reduce((union, next) => union.unionAll(next), first!).compile();
    if (prepared) preparedOnPostgres(query.sql);
    rows.push(...(await db.executeQuery(query)).rows);
  }
  return rows;
}

/** Ids per target up to which `selectByTarget`'s statement is run by name (see `preparedOnPostgres`). */
const PREPARED_IDS = 8;

/** Titles of rows of other entities, as text: target entity → id → title. */
export type Titles = Map<string, Map<number, string>>;

/**
 * The titles of the rows `wanted` names (target → ids), as text and unscoped: one statement for
 * every target while the ids fit one (a form's references, a page's do); otherwise per target, in
 * parts. A row that does not exist is absent from its target's map. `byName`: a write's check of
 * its references, run by name on PostgreSQL while each target has a form's few ids (a page's
 * titles, of ever new shapes, are not).
 */
export async function titlesOf(
  db: Executor,
  wanted: ReadonlyMap<string, Iterable<number>>,
  byName = false,
): Promise<Titles> {
  const out: Titles = new Map([...wanted.keys()].map((target) => [target, new Map()]));
  const targets = [...wanted]
    .map(([target, ids]) => [target, [...new Set(ids)]] as const)
    .filter(([, ids]) => ids.length > 0);
  const rows = await selectByTarget(
    db,
    targets,
    (target, ids) => {
      const entity = getEntity(target);
      // As text: the two databases unite only columns of one type (a hearing's title is a date).
      const title = sql<string>`cast(${sql.ref(columnName(entity.titleField))} as text)`;
      return db
        .selectFrom(entity.table)
        .select([sql<string>`${sql.lit(target)}`.as('target'), 'id', title.as('title')])
        .where('id', 'in', [...ids]);
    },
    byName,
  );
  for (const r of rows) out.get(String(r.target))!.set(Number(r.id), String(r.title));
  return out;
}

/** The ids of `wanted` (target → ids) that `titles` (read for them) lacks, per target, each once. */
export function missingFrom(
  wanted: ReadonlyMap<string, Iterable<number>>,
  titles: Titles,
): Map<string, number[]> {
  const missing = new Map<string, number[]>();
  for (const [target, ids] of wanted) {
    const found = titles.get(target);
    const gone = [...new Set(ids)].filter((id) => !found?.has(id));
    if (gone.length) missing.set(target, gone);
  }
  return missing;
}

/** The ids among `ids` that entity `target` holds no row of (unscoped), each once. */
export async function missingIds(db: Executor, target: string, ids: readonly number[]): Promise<number[]> {
  const wanted = new Map([[target, ids]]);
  return missingFrom(wanted, await titlesOf(db, wanted)).get(target) ?? [];
}

/**
 * Queries of one entity's table, built from its definition: column names, joins of `refs`
 * fields, titles of referenced rows and attached files. No business rules here (see the service).
 */
export class EntityRepository {
  readonly table: string;
  private answered?: string[];

  constructor(
    readonly entity: Entity<Fields>,
    private readonly dialect: Dialect,
  ) {
    this.table = entity.table;
  }

  column(field: string): string {
    return SYSTEM_COLUMNS[field] ?? columnName(field);
  }

  /** Field values (camelCase) → column values for insert/update; refs and files are stored elsewhere. */
  toColumns(values: Record<string, unknown>): DbRow {
    const row: DbRow = {};
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) continue;
      const field = this.entity.fields[key];
      if (field && (field.type === 'refs' || field.type === 'files')) continue;
      if (!field && !(key === 'status' && this.entity.status) && !(key === 'baned' && this.entity.baned))
        continue;
      row[this.column(key)] = value;
    }
    return row;
  }

  /** One row, or undefined when it does not exist or lies outside `where` (the reader's scope). */
  async findRaw(db: Executor, id: number, where: readonly ScopeWhere[] = []): Promise<DbRow | undefined> {
    let query = db.selectFrom(this.table).selectAll(this.table).where(`${this.table}.id`, '=', id);
    if (where.length) query = query.where((eb) => eb.and(where.map((w) => w(eb, this.table))));
    return query.executeTakeFirst();
  }

  /** The rows of `ids` (and within `where`, a scope), in id order, a few hundred per query. */
  async findMany(db: Executor, ids: readonly number[], where: readonly ScopeWhere[] = []): Promise<DbRow[]> {
    const rows: DbRow[] = [];
    for (const part of chunks(ids, 500)) {
      let query = db.selectFrom(this.table).selectAll(this.table).where(`${this.table}.id`, 'in', part);
      if (where.length) query = query.where((eb) => eb.and(where.map((w) => w(eb, this.table))));
      rows.push(...(await query.execute()));
    }
    return rows.sort((a, b) => Number(a.id) - Number(b.id));
  }

  async insert(db: Executor, row: DbRow): Promise<number> {
    const inserted = await db.insertInto(this.table).values(row).returning('id').executeTakeFirstOrThrow();
    return Number(inserted.id);
  }

  /**
   * Inserts many rows with multi-row INSERTs; every row must carry the same columns. Returns the
   * stored rows (every column, as `findMany` reads them) in the order of `rows`.
   */
  async insertMany(db: Executor, rows: readonly DbRow[]): Promise<DbRow[]> {
    if (!rows.length) return [];
    const columns = Object.keys(rows[0]!).length;
    // Stay well under SQLite's and PostgreSQL's limits on parameters per statement.
    const batch = Math.max(1, Math.floor(20_000 / Math.max(1, columns)));
    const stored: DbRow[] = [];
    for (const part of chunks(rows, batch)) {
      const inserted: DbRow[] = await db.insertInto(this.table).values(part).returningAll().execute();
      // Ids are drawn in VALUES order within one statement; sorting makes that pairing explicit
      // whatever order RETURNING lists them in.
      stored.push(...inserted.sort((a, b) => Number(a.id) - Number(b.id)));
    }
    return stored;
  }

  /**
   * Inserts one row and its links (`links`: `refs` field → referenced ids): on PostgreSQL in one
   * statement (the links' inserts as parts of it, reading the new id from the row's), which saves
   * a create a round trip per linked field, and run by name (`preparedOnPostgres`): it answers the
   * columns the API shows (`answerColumns`), not `*`. Returns the stored row.
   */
  async insertOne(db: Executor, row: DbRow, links: ReadonlyMap<string, readonly number[]>): Promise<DbRow> {
    const linked = [...links].filter(([, ids]) => ids.length);
    if (this.dialect !== 'postgres') {
      const [stored] = await this.insertMany(db, [row]);
      for (const [field, ids] of linked)
        await this.insertLinks(db, field, [{ owner: Number(stored!.id), ids }]);
      return stored!;
    }
    const columns = this.answerColumns();
    let query = db.with('inserted', (q) => q.insertInto(this.table).values(row).returning(columns));
    for (const [i, [field, ids]] of linked.entries())
      query = query.with(`link_${i}`, (q) =>
        q
          .insertInto(joinTableName(this.entity, field))
          .columns(['owner_id', 'ref_id'])
          .expression(
            q
              .selectFrom('inserted')
              .select([
                'inserted.id',
                sql<number>`unnest(cast(${[...new Set(ids.map(Number))]} as bigint[]))`.as('ref'),
              ]),
          ),
      ) as unknown as typeof query;
    const compiled = query.selectFrom('inserted').select(columns).compile();
    preparedOnPostgres(compiled.sql);
    return (await db.executeQuery(compiled)).rows[0] as DbRow;
  }

  /** The columns of a stored row that its answer shows (`toApiRow`): no search text, nothing write-only. */
  private answerColumns(): string[] {
    if (this.answered) return this.answered;
    const columns = ['id', 'created_at', 'updated_at'];
    if (this.entity.status) columns.push('status');
    if (this.entity.baned) columns.push('baned');
    for (const [key, field] of Object.entries(this.entity.fields))
      if (!field.writeOnly && field.type !== 'refs' && field.type !== 'files') columns.push(columnName(key));
    return (this.answered = columns);
  }

  /**
   * Updates one row. With `expectedUpdatedAt`, only while the row still holds that stamp (a
   * concurrent writer that committed first makes this a no-op). Returns whether a row changed.
   */
  async update(db: Executor, id: number, row: DbRow, expectedUpdatedAt?: string): Promise<boolean> {
    let query = db.updateTable(this.table).set(row).where('id', '=', id);
    if (expectedUpdatedAt !== undefined) query = query.where('updated_at', '=', expectedUpdatedAt);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes the row and its links; false when no row `id` (at `expectedUpdatedAt`, when given) was there. */
  async delete(db: Executor, id: number, expectedUpdatedAt?: string): Promise<boolean> {
    // Links first (a caller that gets false rolls back, links included).
    for (const [key] of this.refsFields())
      await db.deleteFrom(joinTableName(this.entity, key)).where('owner_id', '=', id).execute();
    let query = db.deleteFrom(this.table).where('id', '=', id);
    if (expectedUpdatedAt !== undefined) query = query.where('updated_at', '=', expectedUpdatedAt);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  refsFields(): [string, RefsField][] {
    return Object.entries(this.entity.fields).filter((e): e is [string, RefsField] => e[1].type === 'refs');
  }

  /** Adds the links of many new rows at once. */
  async insertLinks(
    db: Executor,
    field: string,
    links: readonly { owner: number; ids: readonly number[] }[],
  ): Promise<void> {
    const rows = links.flatMap(({ owner, ids }) =>
      [...new Set(ids)].map((ref) => ({ owner_id: owner, ref_id: ref })),
    );
    for (const part of chunks(rows))
      await db.insertInto(joinTableName(this.entity, field)).values(part).execute();
  }

  async replaceLinks(db: Executor, ownerId: number, field: string, ids: readonly number[]): Promise<void> {
    await db.deleteFrom(joinTableName(this.entity, field)).where('owner_id', '=', ownerId).execute();
    await this.insertLinks(db, field, [{ owner: ownerId, ids }]);
  }

  /** `uniqueKey`s of one unique group that stored rows already hold, among those of `candidates`. */
  async existingKeys(
    db: Executor,
    fields: readonly string[],
    candidates: readonly Record<string, unknown>[],
  ): Promise<Set<string>> {
    const first = fields[0]!;
    const firstValues = [
      ...new Set(candidates.filter((v) => uniqueKey(v, fields) !== null).map((v) => v[first])),
    ];
    const columns = fields.map((f) => this.column(f));
    const found = new Set<string>();
    for (const part of chunks(firstValues, 500)) {
      const rows = await db
        .selectFrom(this.table)
        .select(columns)
        .where(this.column(first), 'in', part as never[])
        .execute();
      for (const row of rows) {
        const key = uniqueKey(Object.fromEntries(fields.map((f, i) => [f, row[columns[i]!]])), fields);
        if (key) found.add(key);
      }
    }
    return found;
  }

  /** Id of another row holding the same values in `fields`, if any. */
  async findDuplicate(
    db: Executor,
    values: Record<string, unknown>,
    fields: readonly string[],
    exceptId?: number,
  ): Promise<number | null> {
    let query = db.selectFrom(this.table).select('id');
    for (const key of fields) query = query.where(this.column(key), '=', values[key] as never);
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    const row = await query.limit(1).executeTakeFirst();
    return row ? Number(row.id) : null;
  }

  /**
   * What still points at row `id` of this entity: per entity of `entities` holding a `ref` column
   * or a `refs` join table that names it, how many of its rows do (each row counted once, however
   * many of its fields name it). Empty when nothing does. One query per holding entity.
   *
   * @example await repo.referencedBy(trx, 7) // [{ entity: 'procurations', count: 3 }]
   */
  async referencedBy(
    db: Executor,
    id: number,
    entities: readonly Entity<Fields>[] = registry as readonly Entity<Fields>[],
  ): Promise<{ entity: string; count: number }[]> {
    const out: { entity: string; count: number }[] = [];
    for (const { entity: other, fields } of groupByEntity(referencesIn(this.entity.name, entities))) {
      const row = await db
        .selectFrom(other.table)
        .select((eb) => eb.fn.countAll().as('n'))
        .where((eb) =>
          eb.or(
            fields.map(({ field, type }) => {
              if (type === 'ref') return eb(`${other.table}.${columnName(field)}`, '=', id);
              const links = joinTableName(other, field);
              return eb.exists(
                eb
                  .selectFrom(links)
                  .select(sql.lit(1).as('one'))
                  .whereRef(`${links}.owner_id`, '=', `${other.table}.id`)
                  .where(`${links}.ref_id`, '=', id),
              );
            }),
          ),
        )
        .executeTakeFirstOrThrow();
      const count = Number(row.n);
      if (count > 0) out.push({ entity: other.name, count });
    }
    return out;
  }

  private whereClauses(eb: AnyExpressionBuilder, params: ListParams): Expression<SqlBool>[] {
    const clauses: Expression<SqlBool>[] = [];
    for (const [key, value] of Object.entries(params.filters)) {
      if (value === undefined) continue;
      const field = this.entity.fields[key];
      if (field?.type === 'refs') {
        const table = joinTableName(this.entity, key);
        clauses.push(
          eb.exists(
            eb
              .selectFrom(table)
              .select(sql.lit(1).as('one'))
              .whereRef(`${table}.owner_id`, '=', `${this.table}.id`)
              .where(`${table}.ref_id`, '=', value as number),
          ),
        );
      } else {
        clauses.push(eb(`${this.table}.${this.column(key)}`, '=', value));
      }
    }
    for (const where of params.where ?? []) clauses.push(where(eb, this.table));
    // Every token of `q`, folded, in the row's folded search text (see search.ts).
    const search = params.q
      ? searchCondition(eb, this.entity, this.table, this.dialect, params.q, 'all')
      : null;
    if (search) clauses.push(search);
    return clauses;
  }

  /** Whether the list query narrows the rows (then the total is counted, not read from `entity_counts`). */
  isFiltered(params: ListParams): boolean {
    return (
      Object.values(params.filters).some((v) => v !== undefined) ||
      this.isSearched(params) ||
      Boolean(params.where?.length)
    );
  }

  /**
   * The number of rows of a list query. With a `stamp` (see `ListCache`), a total counted before
   * at the same stamp is answered without counting again.
   */
  async count(db: Executor, params: ListParams, stamp: string | null = null): Promise<number> {
    const key = stamp === null ? null : this.whereKey(db, params);
    const cached = key === null ? undefined : this.cache.total(key, stamp!);
    if (cached !== undefined) return cached;
    const total = await this.countNow(db, params);
    if (key !== null) this.cache.setTotal(key, stamp!, total);
    return total;
  }

  private async countNow(db: Executor, params: ListParams): Promise<number> {
    // A searched page counted its matches already (see `page`): the index is not asked twice.
    const counted = await this.searchTotals.get(params);
    if (counted !== undefined && counted !== null) return counted;
    const kept = this.keptCount(params);
    if (kept) return readFilterCount(db, this.entity.name, kept.group, kept.values);
    const row = await db
      .selectFrom(this.table)
      .select((eb) => eb.fn.countAll().as('total'))
      .where((eb) => eb.and(this.whereClauses(eb, params)))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /**
   * The declared filter total (`counts`, db/migrations/filterCounts.ts) that is this list query's
   * total: its equality filters are exactly a group's fields, with nothing else narrowing it.
   */
  private keptCount(params: ListParams): { group: readonly string[]; values: unknown[] } | null {
    if (!this.entity.counts?.length || params.where?.length || this.isSearched(params)) return null;
    const keys = Object.keys(params.filters).filter((key) => params.filters[key] !== undefined);
    const group = this.entity.counts.find(
      (fields) => fields.length === keys.length && fields.every((key) => params.filters[key] !== undefined),
    );
    return group ? { group, values: group.map((key) => params.filters[key]) } : null;
  }

  /**
   * The entities whose rows a list query's answer depends on, for its `ListCache` stamp: this one
   * and the target of a reference it is sorted by; undefined (every entity) when conditions of
   * hooks narrow it (a scope may read other tables).
   */
  dependsOn(params: ListParams): string[] | undefined {
    if (params.where?.length) return undefined;
    const target = this.sortOf(params).target;
    return target ? [this.entity.name, target.name] : [this.entity.name];
  }

  /** The list query's conditions as compiled SQL and parameters: its `ListCache` key. */
  private whereKey(db: Executor, params: ListParams): string {
    const compiled = db
      .selectFrom(this.table)
      .select(`${this.table}.id`)
      .where((eb) => eb.and(this.whereClauses(eb, params)))
      .compile();
    return `${compiled.sql}\n${JSON.stringify(compiled.parameters)}`;
  }

  /**
   * How a list is ordered: by a column of the table, or for a reference field by the referenced
   * row's title (a join), then by id in the same direction.
   */
  private sortOf(params: ListParams): ListOrder {
    const [field, direction] = (params.sort ?? this.entity.defaultSort).split(':') as [
      string,
      'asc' | 'desc',
    ];
    const definition = this.entity.fields[field];
    if (definition?.type !== 'ref')
      return { direction, column: this.column(field), value: `${this.table}.${this.column(field)}` };
    const target = getEntity(definition.entity) as Entity<Fields>;
    return {
      direction,
      column: this.column(field),
      target,
      value: `${SORT_REF}.${columnName(target.titleField)}`,
    };
  }

  /**
   * Whether pages of this order can seek from a boundary: every sort value is non-NULL (a row
   * value comparison skips NULLs, which the two databases also order differently).
   */
  private async seekable(db: Executor, order: ListOrder): Promise<boolean> {
    const own = await this.notNullColumns(db, this.table);
    if (!own.has(order.column)) return false;
    if (!order.target) return true;
    return (await this.notNullColumns(db, order.target.table)).has(columnName(order.target.titleField));
  }

  private notNullColumns(db: Executor, table: string): Promise<Set<string>> {
    let columns = this.notNull.get(table);
    if (!columns) {
      columns = tableColumns(db, table).then(
        (found) => new Set([...(found ?? [])].filter(([, c]) => !c.nullable).map(([name]) => name)),
      );
      this.notNull.set(table, columns);
    }
    return columns;
  }

  /**
   * One page in `(sort value, id)` order, the order the `(column, id)` indexes serve. With a
   * `stamp` (see `ListCache`), a page starts from the nearest known boundary before it (a seek on
   * the row value `(sort value, id)`) rather than at OFFSET over every earlier row; the rows are
   * the same.
   */
  async page(db: Executor, params: ListParams, stamp: string | null = null): Promise<DbRow[]> {
    const order = this.sortOf(params);
    const { direction } = order;
    const where = (eb: AnyExpressionBuilder) => eb.and(this.whereClauses(eb, params));
    const orderBy = <Q extends { orderBy: (column: string, direction: 'asc' | 'desc') => Q }>(query: Q): Q =>
      query.orderBy(order.value, direction).orderBy(`${this.table}.id`, direction);
    if (this.isSearched(params)) return this.searchedPage(db, params, where);
    const offset = (params.page - 1) * params.pageSize;
    const key = stamp !== null && (await this.seekable(db, order)) ? this.pageKey(db, params) : null;
    const from = key === null ? undefined : this.cache.boundary(key, stamp!, offset);
    // One row more, the one before the page, when the page does not start at a known boundary:
    // its key is the boundary of this page for the next request.
    const before = key !== null && offset > (from?.at ?? 0) ? 1 : 0;
    let query = db
      .selectFrom(this.table)
      .selectAll(this.table)
      .where(where)
      .limit(params.pageSize + before)
      .offset(offset - (from?.at ?? 0) - before);
    if (order.target)
      query = query
        .leftJoin(`${order.target.table} as ${SORT_REF}`, `${SORT_REF}.id`, `${this.table}.${order.column}`)
        .select(sql.ref(order.value).as(SORT_VALUE));
    if (from)
      query = query.where((eb) =>
        eb(
          eb.refTuple(order.value, `${this.table}.id`),
          direction === 'asc' ? '>' : '<',
          eb.tuple(...from.key),
        ),
      );
    const rows: DbRow[] = await orderBy(query).execute();
    const keyOf = (row: DbRow): RowKey => [
      order.target ? row[SORT_VALUE] : row[order.column],
      Number(row.id),
    ];
    if (key !== null) {
      if (before && rows.length) this.cache.setBoundary(key, stamp!, offset, keyOf(rows.shift()!));
      if (rows.length) this.cache.setBoundary(key, stamp!, offset + rows.length, keyOf(rows.at(-1)!));
    }
    for (const row of rows) delete row[SORT_VALUE];
    return rows;
  }

  /** The `ListCache` key of a list query's pages: its conditions and order. */
  private pageKey(db: Executor, params: ListParams): string {
    return `${this.whereKey(db, params)}\n${params.sort ?? this.entity.defaultSort}`;
  }

  /**
   * A searched page; its total, read by the same work, is kept for the `count` of the same list
   * query (called alongside, see `countNow`), so the search index is read once.
   */
  private searchedPage(
    db: Executor,
    params: ListParams,
    where: (eb: AnyExpressionBuilder) => Expression<SqlBool>,
  ): Promise<DbRow[]> {
    const read = this.readSearch(db, params, where);
    this.searchTotals.set(
      params,
      read.then(
        (r) => r.total,
        () => null,
      ),
    );
    return read.then((r) => r.rows);
  }

  private async readSearch(
    db: Executor,
    params: ListParams,
    where: (eb: AnyExpressionBuilder) => Expression<SqlBool>,
  ): Promise<{ rows: DbRow[]; total: number | null }> {
    const order = this.sortOf(params);
    const { direction } = order;
    const offset = (params.page - 1) * params.pageSize;
    // Where the page may be read by walking the sort index instead (`walkedSearch`), the matches
    // sorted here stop one past `BROAD_SEARCH`: more than that, and they are not sorted at all.
    const walkable = await this.walkableSearch(db, params, order);
    // A search sorts every match anyway: that one pass also counts them. Only the ids are sorted;
    // the page's rows are joined to them afterwards, in the same statement. The matches are a
    // table of their own (MATERIALIZED), read through the search index: asked for the order and
    // the limit in one query, PostgreSQL may walk the sort column's index instead and test every
    // row against the pattern, as if the count did not need every match anyway (816 ms for a
    // three-digit number over a million lawsuits, against 25 ms).
    const rows: DbRow[] = await db
      .with(
        (cte) => cte(MATCHES).materialized(),
        (creator) => {
          let matches = creator
            .selectFrom(this.table)
            .select([`${this.table}.id as id`, sql.ref(order.value).as(SORT_VALUE)])
            .where(where);
          if (order.target)
            matches = matches.leftJoin(
              `${order.target.table} as ${SORT_REF}`,
              `${SORT_REF}.id`,
              `${this.table}.${order.column}`,
            );
          return walkable === null ? matches : matches.limit(BROAD_SEARCH + 1);
        },
      )
      .with(PAGE, (creator) =>
        creator
          .selectFrom(MATCHES)
          .select([`${MATCHES}.id as id`, SORT_VALUE, sql<number>`count(*) over ()`.as(SEARCH_TOTAL)])
          .orderBy(`${MATCHES}.${SORT_VALUE}`, direction)
          .orderBy(`${MATCHES}.id`, direction)
          .limit(params.pageSize)
          .offset(offset),
      )
      .selectFrom(PAGE)
      .innerJoin(this.table, `${this.table}.id`, `${PAGE}.id`)
      .selectAll(this.table)
      .select(`${PAGE}.${SEARCH_TOTAL}`)
      .orderBy(`${PAGE}.${SORT_VALUE}`, direction)
      .orderBy(`${PAGE}.id`, direction)
      .execute();
    const seen = rows.length ? Number(rows[0]![SEARCH_TOTAL]) : null;
    for (const row of rows) delete row[SEARCH_TOTAL];
    // More matches than were sorted, or a page past those sorted: the search index decides.
    if (walkable !== null && (seen === null ? offset > 0 : seen > BROAD_SEARCH))
      return this.walkedSearch(db, params, order, walkable, rows);
    return { rows, total: seen };
  }

  /**
   * The FTS5 query of a search on SQLite whose page may be read by walking the sort column's
   * index (`walkedSearch`): the search is the whole condition and the order a column of the
   * table with its `(column, id)` index. Null otherwise.
   */
  private async walkableSearch(db: Executor, params: ListParams, order: ListOrder): Promise<string | null> {
    if (order.target || params.where?.length || Object.values(params.filters).some((v) => v !== undefined))
      return null;
    const match = ftsQueryOf(this.entity, this.dialect, params.q!);
    if (match === null) return null;
    return (await this.indexNames(db)).has(sortIndexName(this.table, order.column)) ? match : null;
  }

  /**
   * A search on SQLite that matches many rows (a year: every file number of that year holds it,
   * 100,000 of a million lawsuits), read the other way round: the matches counted in the search
   * index itself, and the page read by walking the sort column's index and keeping the rows that
   * match, a few dozen index entries per row of the page. Sorting every match instead reads each
   * one's row first: 370-450 ms for a year over a million lawsuits, during which SQLite answers
   * nobody else. With `BROAD_SEARCH` matches or fewer (a page past them), `sorted` is the page.
   */
  private async walkedSearch(
    db: Executor,
    params: ListParams,
    order: ListOrder,
    match: string,
    sorted: DbRow[],
  ): Promise<{ rows: DbRow[]; total: number }> {
    const matches = ftsMatches(this.entity, match);
    const counted = await sql<{ n: number }>`select count(*) as n from (${matches})`.execute(db);
    const total = Number(counted.rows[0]!.n);
    if (total <= BROAD_SEARCH) return { rows: sorted, total };
    const direction = sql.raw(order.direction === 'asc' ? 'asc' : 'desc');
    const index = sql.id(sortIndexName(this.table, order.column));
    const { rows } = await sql<DbRow>`select * from ${sql.table(this.table)} indexed by ${index}
      where id in (${matches})
      order by ${sql.ref(order.column)} ${direction}, id ${direction}
      limit ${params.pageSize} offset ${(params.page - 1) * params.pageSize}`.execute(db);
    return { rows, total };
  }

  private indexNames(db: Executor): Promise<Set<string>> {
    this.indexes ??= sql<{
      name: string;
    }>`select name from sqlite_master where type = 'index' and tbl_name = ${this.table}`
      .execute(db)
      .then(({ rows }) => new Set(rows.map((r) => r.name)));
    return this.indexes;
  }

  private indexes?: Promise<Set<string>>;

  private readonly cache = new ListCache();

  /** Titles of referenced rows by target entity, read at its write `version` (see `expand`). */
  private readonly keptTitles = new Map<string, { version: string; titles: Map<number, string> }>();
  private readonly notNull = new Map<string, Promise<Set<string>>>();

  /** Totals of searched pages, for the `count` of the same list query (see `page`). */
  private readonly searchTotals = new WeakMap<ListParams, Promise<number | null>>();

  private isSearched(params: ListParams): boolean {
    return Boolean(params.q && hasSearch(this.entity) && searchTokens(params.q).length);
  }

  async attachFiles(
    db: Executor,
    ownerId: number,
    uploads: readonly SavedUpload[],
    createdBy: number | null,
  ): Promise<void> {
    if (!uploads.length) return;
    const createdAt = new Date().toISOString();
    await db
      .insertInto('files')
      .values(
        uploads.map((u) => ({
          entity: this.entity.name,
          owner_id: ownerId,
          field: u.field,
          stored_name: u.storedName,
          original_name: u.originalName,
          mime_type: u.mimeType,
          size: u.size,
          created_by: createdBy,
          created_at: createdAt,
        })),
      )
      .execute();
  }

  async fileCount(db: Executor, ownerId: number, field: string): Promise<number> {
    const row = await db
      .selectFrom('files')
      .select((eb) => eb.fn.countAll().as('total'))
      .where('entity', '=', this.entity.name)
      .where('owner_id', '=', ownerId)
      .where('field', '=', field)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  async findFile(db: Executor, ownerId: number, fileId: number): Promise<DbRow | undefined> {
    return db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', fileId)
      .where('entity', '=', this.entity.name)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
  }

  /** The row of this entity that file `fileId` is attached to, or null (no such file, or another entity's). */
  async fileOwner(db: Executor, fileId: number): Promise<number | null> {
    const row = await db
      .selectFrom('files')
      .select('owner_id')
      .where('id', '=', fileId)
      .where('entity', '=', this.entity.name)
      .executeTakeFirst();
    return row ? Number(row.owner_id) : null;
  }

  /** Removes the file rows of one owner (or one file) and returns their stored names. */
  async detachFiles(db: Executor, ownerId: number, fileId?: number): Promise<string[]> {
    let query = db
      .selectFrom('files')
      .select('stored_name')
      .where('entity', '=', this.entity.name)
      .where('owner_id', '=', ownerId);
    if (fileId !== undefined) query = query.where('id', '=', fileId);
    const rows = await query.execute();
    let del = db.deleteFrom('files').where('entity', '=', this.entity.name).where('owner_id', '=', ownerId);
    if (fileId !== undefined) del = del.where('id', '=', fileId);
    await del.execute();
    return rows.map((r) => String(r.stored_name));
  }

  /**
   * Loads what the API shape needs beside the rows: titles of references, links, files. Whatever
   * the number of reference fields, the links of every `refs` field are one statement and the
   * titles of every referenced row another (a lawsuit page names nine tables: one statement each
   * was half of a list request's queries). With `versions` (every entity's write version, read
   * before `rows` were), titles read before at the same version of their entity are not read again
   * (`keptTitles`); never within a writing transaction, whose rows may still be rolled back.
   * `known`: what the caller has just written or read, not read again: the rows' links (every
   * `refs` field, ids ascending and once each) and titles of the rows they reference.
   */
  async expand(
    db: Executor,
    rows: readonly DbRow[],
    versions?: Versions,
    known: { links?: Links; titles?: Titles } = {},
  ): Promise<ApiRow[]> {
    const ex: Expansions = { titles: new Map(), links: new Map(), files: new Map() };
    if (!rows.length) return [];
    const ids = rows.map((r) => Number(r.id));
    const fields = Object.entries(this.entity.fields);
    const links =
      known.links ??
      (await this.links(
        db,
        fields.filter(([, field]) => field.type === 'refs').map(([key]) => key),
        ids,
      ));
    /** Referenced ids per field, to be named. */
    const named = new Map<string, { target: string; ids: Set<number> }>();
    for (const [key, field] of fields) {
      if (field.type === 'ref') {
        const refIds = rows
          .map((r) => r[columnName(key)])
          .filter((v) => v !== null && v !== undefined)
          .map(Number);
        named.set(key, { target: field.entity, ids: new Set(refIds) });
      } else if (field.type === 'refs') {
        const byOwner = links.get(key) ?? new Map<number, number[]>();
        ex.links.set(key, byOwner);
        named.set(key, { target: field.entity, ids: new Set([...byOwner.values()].flat()) });
      } else if (field.type === 'files') {
        const files = await db
          .selectFrom('files')
          .selectAll()
          .where('entity', '=', this.entity.name)
          .where('field', '=', key)
          .where('owner_id', 'in', ids)
          .orderBy('id')
          .execute();
        const byOwner = new Map<number, ReturnType<typeof toStoredFile>[]>();
        for (const file of files) {
          const owner = Number(file.owner_id);
          byOwner.set(owner, [...(byOwner.get(owner) ?? []), toStoredFile(file)]);
        }
        ex.files.set(key, byOwner);
      }
    }
    const wanted = new Map<string, Set<number>>();
    for (const { target, ids: refIds } of named.values())
      wanted.set(target, new Set([...(wanted.get(target) ?? []), ...refIds]));
    const titles = await this.titles(db, wanted, versions, known.titles);
    for (const [key, { target }] of named) ex.titles.set(key, titles.get(target) ?? new Map());
    return rows.map((row) => toApiRow(this.entity, row, ex));
  }

  /** Per `refs` field: owner id → referenced ids in ascending order, for the owners `ids`. */
  private async links(db: Executor, keys: readonly string[], ids: readonly number[]): Promise<Links> {
    const out = new Map<string, Map<number, number[]>>(keys.map((key) => [key, new Map()]));
    if (!keys.length) return out;
    // Each field names every owner: the parts keep one statement within `CHUNK` ids.
    for (const part of chunks(ids, Math.max(1, Math.floor(CHUNK / keys.length)))) {
      const [first, ...rest] = keys.map((key) =>
        db
          .selectFrom(joinTableName(this.entity, key))
          .select([sql<string>`${sql.lit(key)}`.as('field'), 'owner_id', 'ref_id'])
          .where('owner_id', 'in', part),
      );
      for (const link of await rest.reduce((query, next) => query.unionAll(next), first!).execute()) {
        const byOwner = out.get(String(link.field))!;
        const owner = Number(link.owner_id);
        let refs = byOwner.get(owner);
        if (!refs) byOwner.set(owner, (refs = []));
        refs.push(Number(link.ref_id));
      }
    }
    for (const byOwner of out.values()) for (const refs of byOwner.values()) refs.sort((a, b) => a - b);
    return out;
  }

  /**
   * The titles of referenced rows, per target entity (`wanted`: target → ids), as text (see
   * `titlesOf`). `known`: titles the caller has just read, not read again.
   */
  private async titles(
    db: Executor,
    wanted: ReadonlyMap<string, ReadonlySet<number>>,
    versions?: Versions,
    known?: Titles,
  ): Promise<Titles> {
    const out: Titles = new Map([...wanted.keys()].map((t) => [t, new Map()]));
    // Titles kept at the version read for this request, or just read by the caller: only the
    // others are read.
    const kept = new Map<string, Map<number, string>>();
    const toRead = new Map<string, Set<number>>();
    for (const [target, ids] of wanted) {
      const version = versions?.get(target)?.version;
      let entry = version === undefined ? undefined : this.keptTitles.get(target);
      if (version !== undefined && entry?.version !== version)
        this.keptTitles.set(target, (entry = { version, titles: new Map() }));
      if (entry) kept.set(target, entry.titles);
      const found = out.get(target)!;
      const missing = new Set<number>();
      for (const id of ids) {
        const title = known?.get(target)?.get(id) ?? entry?.titles.get(id);
        if (title === undefined) missing.add(id);
        else found.set(id, title);
      }
      if (missing.size) toRead.set(target, missing);
    }
    for (const [target, titles] of await titlesOf(db, toRead)) {
      const keep = kept.get(target);
      for (const [id, title] of titles) {
        out.get(target)!.set(id, title);
        if (keep && keep.size < MAX_KEPT_TITLES) keep.set(id, title);
      }
    }
    return out;
  }
}
