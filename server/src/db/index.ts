import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SelectQueryNode,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
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
 * The turns on one database file of every app of this process, in arrival order. better-sqlite3
 * is synchronous: while one app holds a write transaction open across awaits, another app of the
 * same process writing to the same file waits on SQLite's busy timeout inside its synchronous
 * call, so the first never gets the event loop back to commit, and the second fails with
 * "database is locked" (two instances started in one process, as the tests start them, polling
 * the scheduler together). Taking the file's turn first makes the second wait asynchronously
 * instead. One app alone takes its turn at once.
 */
class FileTurns {
  private holder: object | null = null;
  private readonly queue: { owner: object; enter: () => void }[] = [];

  async take(owner: object): Promise<void> {
    if (!this.holder) {
      this.holder = owner;
      return;
    }
    await new Promise<void>((enter) => this.queue.push({ owner, enter }));
  }

  /** Whether the next turn is another owner's than `owner`. */
  nextIsOther(owner: object): boolean {
    return this.queue.length > 0 && this.queue[0]!.owner !== owner;
  }

  leave(): void {
    const next = this.queue.shift();
    this.holder = next?.owner ?? null;
    next?.enter();
  }
}

const fileTurns = new Map<string, FileTurns>();

/** One use of the connection, from its turn to its release (see `FileQueueDriver`). */
interface Lease extends DatabaseConnection {
  /** Inside a write transaction begun on this lease. */
  writing: boolean;
  /** The turn was handed on already (a write waiting for its batch's commit). */
  released: boolean;
}

/** The most writes one commit holds (see `FileQueueDriver`). */
const GROUP_COMMIT_MAX = 64;

/**
 * SQLite's driver with the file's turns, and group commit. Each write transaction runs in a
 * savepoint of one open SQLite transaction, and that transaction commits once the writes that came
 * while it was open are done: at the event loop's next turn (`setImmediate`), or at once after
 * `GROUP_COMMIT_MAX` writes. A commit costs about as much as the rest of a small write (the pages
 * it changed go to the write-ahead log), and writes committed together write the pages they share
 * (a table's last leaf, its indexes', the kept totals) once. Under load many writes share a
 * commit; a write alone waits one turn of the event loop for its own.
 *
 * Nothing is answered before it is stored: each write's `commitTransaction` resolves when the
 * transaction holding it commits, and fails when that commit fails. A write that fails is rolled
 * back to its savepoint alone. A SELECT outside a transaction runs in the open transaction (it sees
 * the writes about to be committed); any other statement outside one commits it first. Another
 * app of this process on the same file never gets its turn while a transaction is open.
 */
class FileQueueDriver extends SqliteDriver {
  private batch: { waiting: { resolve: () => void; reject: (error: unknown) => void }[] } | null = null;
  private commitScheduled = false;
  private connection: DatabaseConnection | null = null;

  constructor(
    config: SqliteDialectConfig,
    private readonly turns: FileTurns,
    private readonly inTransaction: () => boolean,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.turns.take(this);
    const connection = (this.connection ??= await super.acquireConnection());
    const lease: Lease = {
      writing: false,
      released: false,
      executeQuery: async (query) => {
        if (!lease.writing && this.batch && !SelectQueryNode.is(query.query)) await this.commitBatch();
        return connection.executeQuery(query);
      },
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
    return lease;
  }

  private raw(text: string) {
    return this.connection!.executeQuery(CompiledQuery.raw(text));
  }

  override async beginTransaction(lease: DatabaseConnection): Promise<void> {
    if (!this.batch) {
      await this.raw('begin');
      this.batch = { waiting: [] };
    }
    await this.raw('savepoint mizan_write');
    (lease as Lease).writing = true;
  }

  override async commitTransaction(lease: DatabaseConnection): Promise<void> {
    await this.raw('release mizan_write');
    (lease as Lease).writing = false;
    const batch = this.batch!;
    if (batch.waiting.length + 1 >= GROUP_COMMIT_MAX) return this.commitBatch();
    const committed = new Promise<void>((resolve, reject) => batch.waiting.push({ resolve, reject }));
    (lease as Lease).released = true;
    await this.leave();
    return committed;
  }

  override async rollbackTransaction(lease: DatabaseConnection): Promise<void> {
    (lease as Lease).writing = false;
    if (this.inTransaction()) {
      await this.raw('rollback to mizan_write');
      await this.raw('release mizan_write');
      return;
    }
    // SQLite rolled the whole transaction back itself (an I/O error, a full disk): the writes
    // waiting for its commit are gone with it.
    const batch = this.batch;
    this.batch = null;
    const error = new Error('SQLite rolled back the transaction this write was to be committed in');
    for (const write of batch?.waiting ?? []) write.reject(error);
  }

  /** Commits the open transaction (the caller holds the turn) and answers the writes waiting for it. */
  private async commitBatch(): Promise<void> {
    const batch = this.batch;
    if (!batch) return;
    this.batch = null;
    try {
      await this.raw('commit');
    } catch (error) {
      if (this.inTransaction()) await this.raw('rollback');
      for (const write of batch.waiting) write.reject(error);
      throw error;
    }
    for (const write of batch.waiting) write.resolve();
  }

  /**
   * Hands the turn on. An open transaction commits at the event loop's next turn, with whatever
   * writes joined it meanwhile; at once when another app of this process waits for the file.
   */
  private async leave(): Promise<void> {
    try {
      if (this.batch && this.turns.nextIsOther(this)) await this.commitBatch();
    } finally {
      this.turns.leave();
    }
    if (this.batch && !this.commitScheduled) {
      this.commitScheduled = true;
      setImmediate(() => void this.commitWhenFree());
    }
  }

  private async commitWhenFree(): Promise<void> {
    await this.turns.take(this);
    this.commitScheduled = false;
    // A failed commit has failed the writes it held; nothing more to tell here.
    await this.commitBatch().catch(() => undefined);
    this.turns.leave();
  }

  // Kysely passes the connection it released (SqliteDriver's own declaration takes none).
  override async releaseConnection(lease?: DatabaseConnection): Promise<void> {
    if ((lease as Lease | undefined)?.released) return;
    await this.leave();
  }

  override async destroy(): Promise<void> {
    if (this.batch) await this.commitWhenFree();
    await super.destroy();
  }
}

/** Several connections as far as Kysely knows: the turns and group commit are the driver's own. */
class FileQueueAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

class FileQueueDialect extends SqliteDialect {
  constructor(
    private readonly config: SqliteDialectConfig,
    private readonly file: string,
    private readonly inTransaction: () => boolean,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    let turns = fileTurns.get(this.file);
    if (!turns) fileTurns.set(this.file, (turns = new FileTurns()));
    return new FileQueueDriver(this.config, turns, this.inTransaction);
  }

  override createAdapter(): SqliteAdapter {
    return new FileQueueAdapter();
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
  const db = new Kysely({
    dialect: new FileQueueDialect({ database: wrapSqlite(database) }, turn, () => database.inTransaction),
  });
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
 * Texts named at most: each is parsed and kept once on every connection of the pool. Texts come
 * from code (their values are parameters), a few per kind of write; past this, a new text runs
 * unnamed.
 */
const MAX_PREPARED = 200;

/**
 * Has PostgreSQL parse and plan the statement `text` (a compiled query's SQL) once per connection
 * and run it by name afterwards, for the statements every request or write runs (the session's,
 * a create's): parsing and planning one again each time costs the database more than running it.
 * Only for statements whose best plan does not depend on their values (a look-up by key, an
 * insert): a named statement may be run with a generic plan, so never a list's. And never one
 * answering `*`: a plan's result is fixed, and a column added by another instance's migration
 * would make it fail. SQLite's statements are all kept prepared anyway (`wrapSqlite`).
 */
export function preparedOnPostgres(text: string): void {
  if (!preparedTexts.has(text) && preparedTexts.size < MAX_PREPARED)
    preparedTexts.set(text, `mizan_${preparedTexts.size + 1}`);
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

/** Whether `db` (a database, transaction or any query builder's executor) runs on PostgreSQL. */
export const onPostgres = (db: Pick<Db, 'getExecutor'>): boolean =>
  db.getExecutor().adapter instanceof PostgresAdapter;

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
