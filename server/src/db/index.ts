import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from 'kysely';
import pg from 'pg';

/**
 * The engine's tables are generated from the registry at run time, so the query builder is
 * untyped here; modules with fixed tables (auth, system) view it through their own table types.
 */
export type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tables are generated from the registry

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Db;
  dialect: Dialect;
  destroy(): Promise<void>;
  /** PostgreSQL: the pool's connections and the queries waiting for one (metrics). */
  poolStats?: () => { total: number; idle: number; waiting: number };
}

/**
 * better-sqlite3 refuses booleans and Dates as parameters; PostgreSQL takes both. Converting them
 * here lets every module write `status: true` or a Date on either dialect.
 */
function sqliteParam(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value;
}

/** Prepared statements kept per connection, by SQL text (a list request runs about twenty). */
const STATEMENT_CACHE_SIZE = 1000;

function wrapSqlite(database: BetterSqlite3.Database): SqliteDatabase {
  // Preparing costs about as much as running a small indexed query; the same texts come back on
  // every request. Least recently used first out. SQLite prepares a kept statement again by itself
  // after a schema change. Only `all` and `run` reuse one: nothing here streams (`iterate` would
  // hold its statement busy), and an `iterate` gets a statement of its own.
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepared = (text: string) => {
    let statement = statements.get(text);
    if (statement) statements.delete(text);
    else {
      statement = database.prepare(text);
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
    }
    statements.set(text, statement);
    return statement;
  };
  return {
    close: () => database.close(),
    prepare(text: string): SqliteStatement {
      const statement = prepared(text);
      const params = (parameters: ReadonlyArray<unknown>) => parameters.map(sqliteParam);
      return {
        reader: statement.reader,
        all: (parameters) => statement.all(...params(parameters)),
        run: (parameters) => statement.run(...params(parameters)),
        iterate: (parameters) => database.prepare(text).iterate(...params(parameters)),
      };
    },
  };
}

/**
 * One queue per database file for every app of this process. better-sqlite3 is synchronous: while
 * one app holds a write transaction open across awaits, another app of the same process writing
 * to the same file waits on SQLite's busy timeout inside its synchronous call, so the first never
 * gets the event loop back to commit, and the second fails with "database is locked" (two
 * instances started in one process, as the tests start them, polling the scheduler together).
 * Taking the file's turn before the driver's connection makes the second wait asynchronously
 * instead. One app alone takes its turn at once.
 */
const fileTurns = new Map<string, Promise<void>>();

class FileQueueDriver extends SqliteDriver {
  private leave: (() => void) | null = null;

  constructor(
    config: SqliteDialectConfig,
    private readonly file: string,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const previous = fileTurns.get(this.file) ?? Promise.resolve();
    let leave!: () => void;
    const mine = new Promise<void>((resolve) => (leave = resolve));
    fileTurns.set(
      this.file,
      previous.then(() => mine),
    );
    await previous;
    this.leave = leave;
    return super.acquireConnection();
  }

  override async releaseConnection(): Promise<void> {
    await super.releaseConnection();
    const leave = this.leave;
    this.leave = null;
    leave?.();
  }
}

class FileQueueDialect extends SqliteDialect {
  constructor(
    private readonly config: SqliteDialectConfig,
    private readonly file: string,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new FileQueueDriver(this.config, this.file);
  }
}

function openSqlite(url: string): Database {
  const file = url.replace(/^sqlite:(\/\/)?/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new BetterSqlite3(file);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  // Several processes (a second server, a CLI) may open the file: wait instead of failing at once.
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  // An in-memory database is each app's own: no queue to share.
  const turn = file === ':memory:' ? `:memory:${Math.random()}` : path.resolve(file);
  const db = new Kysely({ dialect: new FileQueueDialect({ database: wrapSqlite(database) }, turn) });
  return { db, dialect: 'sqlite', destroy: () => db.destroy() };
}

const PG_TYPES = { DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184, INT8: 20, NUMERIC: 1700 } as const;

/**
 * Values come back as SQLite gives them: dates as `YYYY-MM-DD`, instants as ISO strings, counts as
 * numbers, so serialisation is one code path for both dialects.
 */
function pgTypes(): pg.CustomTypesConfig {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      switch (oid) {
        case PG_TYPES.DATE:
          return (value: string) => value;
        case PG_TYPES.TIMESTAMP:
          return (value: string) => new Date(`${value.replace(' ', 'T')}Z`).toISOString();
        case PG_TYPES.TIMESTAMPTZ:
          return (value: string) => new Date(value).toISOString();
        case PG_TYPES.INT8:
        case PG_TYPES.NUMERIC:
          return (value: string) => Number(value);
        default:
          return pg.types.getTypeParser(oid, format);
      }
    },
  } as pg.CustomTypesConfig;
}

const compiledQueries = new WeakMap<object, Map<string, CompiledQuery>>();

/**
 * `build`'s statement compiled once per database handle (or transaction) and `key`, for the
 * statements a request runs every time: building one with Kysely costs about as much as running
 * it. At most a thousand keys per handle: they name statements, not values.
 */
export function compiledOnce<R>(db: object, key: string, build: () => CompiledQuery<R>): CompiledQuery<R> {
  let kept = compiledQueries.get(db);
  if (!kept) compiledQueries.set(db, (kept = new Map()));
  let compiled = kept.get(key) as CompiledQuery<R> | undefined;
  if (!compiled) {
    if (kept.size >= 1000) kept.clear();
    kept.set(key, (compiled = build()));
  }
  return compiled;
}

/** Statement texts run by name on PostgreSQL, and their names (see `preparedOnPostgres`). */
const preparedTexts = new Map<string, string>();

/**
 * Has PostgreSQL parse and plan the statement `text` (a compiled query's SQL) once per connection
 * and run it by name afterwards, for the few statements every request runs (the session's):
 * parsing and planning one again each time costs the database more than running it. SQLite's
 * statements are all kept prepared anyway (`wrapSqlite`).
 */
export function preparedOnPostgres(text: string): void {
  if (!preparedTexts.has(text)) preparedTexts.set(text, `mizan_${preparedTexts.size + 1}`);
}

type Query = (...args: unknown[]) => unknown;

/** Kysely runs every statement as `query(text, values)`: those of `preparedTexts` go by name. */
function runPreparedByName(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  (client as unknown as { query: Query }).query = (...args: unknown[]) => {
    const [text, values] = args;
    const name = args.length === 2 && typeof text === 'string' ? preparedTexts.get(text) : undefined;
    return name ? query({ name, text, values }) : query(...args);
  };
}

function openPostgres(url: string, onError: (error: unknown) => void): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10, types: pgTypes() });
  // An idle connection closed by the server (restart, failover) must not crash the process: the
  // pool replaces it on the next query.
  pool.on('error', onError);
  pool.on('connect', runPreparedByName);
  const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    destroy: () => db.destroy(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/**
 * Opens the database named by `DATABASE_URL`: `sqlite:<file>` (WAL, foreign keys on) or
 * `postgres://...`.
 *
 * @example
 * const { db, dialect, destroy } = createDatabase('sqlite:./data/mizan.db');
 */
export function createDatabase(url: string, options: { onError?: (error: unknown) => void } = {}): Database {
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options.onError ?? (() => undefined));
  if (url.startsWith('sqlite:')) return openSqlite(url);
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${url}"`);
}

/** True when the database answers a trivial query. */
export async function databaseAnswers(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** SQLite answers 0/1 where PostgreSQL answers booleans. */
export function toBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}

/** The current instant as stored in every `*_at` column. */
export const now = (): string => new Date().toISOString();

/**
 * Brings SQLite's query-planner statistics up to date (`PRAGMA optimize`, analysing at most
 * `analysis_limit` rows per index, so a few milliseconds even at millions of rows). Without them
 * SQLite cannot tell a selective index from a poor one: at 1,000,000 lawsuits the dashboard's
 * date-range queries went through the three-value branch index and took seconds instead of
 * milliseconds. Run at start (after the migrations) and every few hours (app.ts), as SQLite
 * advises for long-lived connections. PostgreSQL's autovacuum
 * keeps its own statistics: nothing to do there.
 */
export async function refreshPlannerStatistics(db: Db, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  await sql`pragma analysis_limit = 1000`.execute(db);
  await sql`pragma optimize = 0x10002`.execute(db);
}

/**
 * Runs `run` in a transaction that one instance at a time holds: on PostgreSQL under the
 * transaction-scoped advisory lock `lock` (one key, or a class and a key), on SQLite under its own
 * single writer. Instances starting together on one database thus do a start-up step one after the
 * other, and each finds what the one before it did. Inside a transaction already (a migration's
 * step, which the migrator runs under its own lock) it runs there.
 */
export async function exclusively<T>(
  db: Db,
  dialect: Dialect,
  lock: number | readonly [number, number],
  run: (trx: Db) => Promise<T>,
): Promise<T> {
  if (db.isTransaction) return run(db);
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') {
      if (typeof lock === 'number') await sql`select pg_advisory_xact_lock(${lock})`.execute(trx);
      else await sql`select pg_advisory_xact_lock(${lock[0]}, ${lock[1]})`.execute(trx);
    }
    return run(trx);
  });
}

const onPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The names of the database's tables (and views). One light query: Kysely's `introspection`
 * reads every table's columns as well, about 3 ms on SQLite at 150 tables, and start-up asks
 * whether a table exists a few dozen times.
 */
export async function tableNames(db: Db): Promise<Set<string>> {
  const { rows } = await (
    onPostgres(db)
      ? sql<{ name: string }>`select c.relname as name from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v')`
      : sql<{ name: string }>`select name from sqlite_master where type in ('table', 'view')`
  ).execute(db);
  return new Set(rows.map((r) => r.name));
}

/** A table's columns by name (whether each may hold null), or `undefined` when there is no such table. */
export async function tableColumns(
  db: Db,
  table: string,
): Promise<Map<string, { nullable: boolean }> | undefined> {
  const { rows } = await (
    onPostgres(db)
      ? sql<{
          name: string;
          notNull: boolean;
        }>`select a.attname as name, a.attnotnull as "notNull" from pg_attribute a
        where a.attrelid = to_regclass(quote_ident(current_schema()) || '.' || quote_ident(${table}))
          and a.attnum > 0 and not a.attisdropped`
      : sql<{
          name: string;
          notNull: number;
        }>`select name, "notnull" as "notNull" from pragma_table_info(${table})`
  ).execute(db);
  if (!rows.length) return undefined;
  return new Map(rows.map((r) => [r.name, { nullable: !toBoolean(r.notNull) }]));
}
