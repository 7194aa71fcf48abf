import { foldArabic, type Entity, type Fields } from '@mizan/contracts';
import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../db';
import {
  SEARCH_COLUMN,
  hasSearch,
  searchFields,
  searchIndexTable,
  searchText,
} from '../db/migrations/searchColumn';

export { SEARCH_COLUMN, hasSearch, searchFields, searchText } from '../db/migrations/searchColumn';

/**
 * Arabic-folded `q` search for every definition with `search: true` fields. Each such table holds
 * a column `search_text`: the folded values (`foldArabic`) of the row's search fields, one per
 * line, written by the engine in the same statement as the row (`searchColumns`). `q` is folded
 * the same way and split into tokens; a token matches a row when it is a substring of that text.
 *
 * The substring match is served by a trigram index: on SQLite an FTS5 table (`tokenize='trigram'`,
 * external content over the row table, kept in sync by triggers in the same transaction), on
 * PostgreSQL a `pg_trgm` GIN index on the column (without the extension, no index: a scan, still
 * correct). Tokens shorter than three characters cannot use a trigram index and are matched with
 * `LIKE` on the column.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are generated from the registry (see Db)
type AnyExpressionBuilder = ExpressionBuilder<any, any>;

/** Shortest token a trigram index can serve; shorter ones are matched with `LIKE`. */
const TRIGRAM = 3;

/** At most this many tokens of `q` are used (the list query caps `q` at 200 characters anyway). */
const MAX_TOKENS = 12;

/**
 * The search column to write with a row: `{ search_text }` for an insert (`before` omitted), or for
 * an update whose `values` touch a search field (`before` is the row as stored, API shape);
 * otherwise `{}` (no search fields, or none changed).
 *
 * @example await repo.insert(trx, { ...columns, ...searchColumns(entity, values) });
 */
export function searchColumns(
  entity: Entity<Fields>,
  values: Record<string, unknown>,
  before?: Record<string, unknown>,
): Record<string, string> {
  const keys = searchFields(entity);
  if (!keys.length) return {};
  if (!before) return { [SEARCH_COLUMN]: searchText(entity, values) };
  if (!keys.some((key) => values[key] !== undefined)) return {};
  const merged: Record<string, unknown> = { ...before };
  for (const key of keys) if (values[key] !== undefined) merged[key] = values[key];
  return { [SEARCH_COLUMN]: searchText(entity, merged) };
}

/**
 * The tokens of a query: folded (`foldArabic`), split on whitespace, duplicates dropped.
 *
 * @example searchTokens('  أحمد   إبراهيم ٢٩ ') // ['احمد', 'ابراهيم', '29']
 */
export function searchTokens(q: string): string[] {
  const folded = foldArabic(q);
  if (!folded) return [];
  return [...new Set(folded.split(' '))].slice(0, MAX_TOKENS);
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
/** An FTS5 string: `"` doubled inside double quotes, so every other character is literal. */
const ftsPhrase = (token: string) => `"${token.replace(/"/g, '""')}"`;
const length = (token: string) => [...token].length;

/** The FTS5 query of trigram-long `tokens`: every one (`all`) or any of them. */
const ftsQuery = (tokens: readonly string[], mode: 'all' | 'any') =>
  tokens.map(ftsPhrase).join(mode === 'all' ? ' AND ' : ' OR ');

/**
 * The FTS5 query of a list's `q` on SQLite when the search index alone decides it (every token
 * long enough for trigrams: no `LIKE` beside it), for reading from that index directly; null
 * otherwise (PostgreSQL, a short token, no token, no search field).
 *
 * @example ftsQueryOf(lawsuits, 'sqlite', '2024 إيجار') // '"2024" AND "ايجار"'
 */
export function ftsQueryOf(entity: Entity<Fields>, dialect: Dialect, q: string): string | null {
  if (dialect !== 'sqlite' || !hasSearch(entity)) return null;
  const tokens = searchTokens(q);
  if (!tokens.length || tokens.some((t) => length(t) < TRIGRAM)) return null;
  return ftsQuery(tokens, 'all');
}

/**
 * The rowids of `entity`'s rows that the FTS5 query `match` finds in its search index (SQLite).
 *
 * @example sql`select count(*) from (${ftsMatches(lawsuits, '"2024"')})`
 */
export function ftsMatches(entity: Entity<Fields>, match: string): RawBuilder<unknown> {
  const fts = sql.table(searchIndexTable(entity));
  return sql`select rowid from ${fts} where ${fts} match ${match}`;
}

/**
 * The condition "row matches `q`" on `table` (the table's name or alias in the query), or null
 * when `q` has no token or the entity no search field. `all`: every token is in the row's folded
 * search text (a list's `q`); `any`: at least one is (token overlap, e.g. a conflict check).
 *
 * @example
 * db.selectFrom('customers').selectAll()
 *   .where((eb) => searchCondition(eb, customers, 'customers', dialect, 'احمد ابراهيم', 'all') ?? eb.lit(true))
 */
export function searchCondition(
  eb: AnyExpressionBuilder,
  entity: Entity<Fields>,
  table: string,
  dialect: Dialect,
  q: string,
  mode: 'all' | 'any',
): Expression<SqlBool> | null {
  if (!hasSearch(entity)) return null;
  return textCondition(eb, { table, fts: searchIndexTable(entity) }, dialect, q, mode);
}

/**
 * Whether a query of `q` on SQLite can be read from the FTS5 table (`textCondition`'s `joined`):
 * one token at least long enough for trigrams (shorter ones are matched with `LIKE` beside it).
 */
export function ftsDrives(dialect: Dialect, q: string): boolean {
  return dialect === 'sqlite' && searchTokens(q).some((t) => length(t) >= TRIGRAM);
}

/**
 * The condition "row matches `q`" on any table with a folded `search_text` column and its trigram
 * index (`createTrigramIndex`): `table` the table's name or alias in the query, `fts` its FTS5
 * table on SQLite. Null when `q` has no token. `joined`: the FTS5 table itself is in the query's
 * `from` (see `ftsDrives`), read in its own order (`order by rowid desc limit n` stops early),
 * instead of a subquery that lists every match first. `walk` (PostgreSQL): for a query that
 * walks the rows by their primary key and checks each one's text (`strpos`), the index left out.
 *
 * @example
 * db.selectFrom('file_text_pages').where((eb) => textCondition(eb, { table: 'file_text_pages', fts }, dialect, q, 'all')!)
 */
export function textCondition(
  eb: AnyExpressionBuilder,
  index: { table: string; fts: string; joined?: boolean; walk?: boolean },
  dialect: Dialect,
  q: string,
  mode: 'all' | 'any',
): Expression<SqlBool> | null {
  const tokens = searchTokens(q);
  if (!tokens.length) return null;
  const { table } = index;
  const column = sql.ref(`${table}.${SEARCH_COLUMN}`);
  const like = (token: string) => sql<SqlBool>`${column} like ${`%${escapeLike(token)}%`} escape '\\'`;
  const clauses: Expression<SqlBool>[] = [];
  if (dialect === 'sqlite') {
    const long = tokens.filter((t) => length(t) >= TRIGRAM);
    if (long.length) {
      const fts = sql.table(index.fts);
      clauses.push(
        index.joined
          ? sql<SqlBool>`${fts} match ${ftsQuery(long, mode)}`
          : sql<SqlBool>`${sql.ref(`${table}.id`)} in (select rowid from ${fts} where ${fts} match ${ftsQuery(long, mode)})`,
      );
    }
    clauses.push(...tokens.filter((t) => length(t) < TRIGRAM).map(like));
  } else if (index.walk) {
    // Not served by the trigram index, and cheaper per row than LIKE (a skip table, not byte by byte).
    clauses.push(...tokens.map((token) => sql<SqlBool>`strpos(${column}, ${token}) > 0`));
  } else {
    // pg_trgm's GIN index serves LIKE directly (short tokens too, by scanning it).
    clauses.push(...tokens.map(like));
  }
  return mode === 'all' ? eb.and(clauses) : eb.or(clauses);
}
