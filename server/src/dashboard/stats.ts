import { lawsuits, sessions, tasks } from '@mizan/contracts';
import { sql, type RawBuilder } from 'kysely';
import { exclusively, type Db, type Dialect, tableNames } from '../db';
import { gatherAtCommit, writeNow, type CommitWrite } from '../db/atCommit';
import { columnName, createDeclaredIndexes, joinTableName, type Migration } from '../db/migrations';
import type { Trx } from '../engine/context';
import type { ApiRow } from '../engine/serialize';
import { present } from '../http/values';
import { paidSql } from '../finance/lawsuitFees';

/**
 * The dashboard's maintained aggregates: one table of sums, so that the figures are read from a few
 * hundred rows instead of the lawsuits and hearings themselves. A row is one combination of a
 * `kind` and its dimensions, every dimension stored as a value (0 or '' for none), never NULL, so
 * that a key is comparable and unique on both databases:
 *
 * | kind      | branch_id          | month (YYYY-MM)        | k1           | k2                 | sums                     |
 * |-----------|--------------------|------------------------|--------------|--------------------|--------------------------|
 * | `lawsuit` | lawsuit's branch   | filing month           | case (stage) | 0 active, 1 closed | n, agreed, paid, pending |
 * | `court`   | lawsuit's branch   | filing month           | court        | 0                  | n                        |
 * | `lawyer`  | lawsuit's branch   | filing month           | lawyer       | case (stage)       | n                        |
 * | `hearing` | its lawsuit's branch | hearing month        | lawyer       | 0                  | n, attended              |
 * | `task`    | its lawsuit's branch | month it was done (UTC) | assignee    | 0                  | n (done tasks)           |
 * | `hearingDay` | its lawsuit's branch | hearing day (YYYY-MM-DD) | lawyer  | 0                  | n, attended              |
 *
 * Each of those rows is also added into its roll-ups (`rollUp`): the same key for every branch at
 * once (`branch_id` -1), and for its year (`month` 'YYYY') and for all time (`month` '*', rows
 * without a date included). The whole office's figures are then a few hundred `*` rows, and a
 * year's a dozen months at most, instead of every branch's every month (170,000 rows at a million
 * lawsuits).
 *
 * `hearingDay` rows keep the hearings by day (for each branch and every branch; no other
 * roll-up), under a kind of their own so that the month reads never walk them. A date range's
 * edge days take their hearings from them: recounting those from the hearings, joined to their
 * lawsuits for the branch, was the slowest read of a first dashboard call (40 ms of 100 at three
 * million hearings on PostgreSQL). Lawsuits and tasks at the edges are still recounted.
 *
 * Settings that can change under them (a case's outcome, a court's type, a name) are not copied
 * in: they are joined when the figures are read. Every write of a lawsuit, hearing, payment or task
 * adjusts the rows in the write's own transaction (`applyDelta`), from the row before and after;
 * `recount` computes the month rows from the base tables (for the edges of a date range, at start
 * on a database that has none yet, and as the reference the tests compare with).
 */
export const STATS_TABLE = 'dashboard_stats';

/** The kinds the figures read by month, year or all time. */
export const KINDS = ['lawsuit', 'court', 'lawyer', 'hearing', 'task'] as const;
export type StatKind = (typeof KINDS)[number] | 'hearingDay';

/** One aggregate row: a key and its sums (amounts in minor units). */
export interface StatRow {
  kind: StatKind;
  branchId: number;
  month: string;
  k1: number;
  k2: number;
  n: number;
  agreed: number;
  paid: number;
  pending: number;
  attended: number;
}

const KEY_COLUMNS = ['kind', 'branch_id', 'month', 'k1', 'k2'] as const;
const SUM_COLUMNS = ['n', 'agreed', 'paid', 'pending', 'attended'] as const;
/**
 * Marks a database whose aggregates have been computed once (kept beside them); `k1` is the layout
 * of the rows (2: with roll-ups and tasks), so that a database built by an older server is built
 * again.
 */
const BUILT = { kind: 'built', branch_id: 0, month: '', k1: 3, k2: 0 } as const;

/** `branch_id` of the rows summed over every branch. */
export const ALL_BRANCHES = -1;
/** `month` of the rows summed over all time (undated rows included). */
export const ALL_TIME = '*';

export const dashboardMigrations: Migration[] = [
  {
    name: 'dashboard_001_stats',
    async up(db, dialect) {
      const big = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable(STATS_TABLE)
        .addColumn('kind', 'varchar(10)', (c) => c.notNull())
        .addColumn('branch_id', 'integer', (c) => c.notNull())
        .addColumn('month', 'varchar(7)', (c) => c.notNull())
        .addColumn('k1', 'integer', (c) => c.notNull())
        .addColumn('k2', 'integer', (c) => c.notNull())
        .addColumn('n', big, (c) => c.notNull().defaultTo(0))
        .addColumn('agreed', big, (c) => c.notNull().defaultTo(0))
        .addColumn('paid', big, (c) => c.notNull().defaultTo(0))
        .addColumn('pending', big, (c) => c.notNull().defaultTo(0))
        .addColumn('attended', big, (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint(`${STATS_TABLE}_pk`, [...KEY_COLUMNS])
        .execute();
      // A branch's figures are read by kind and branch over a month range.
      await db.schema
        .createIndex(`${STATS_TABLE}_kind_branch_month_idx`)
        .on(STATS_TABLE)
        .columns(['kind', 'branch_id', 'month'])
        .execute();
    },
  },
  {
    // The tasks done in a range (a range's edge days are recounted from the table) are read along
    // `(state, state_changed_at)`, declared by the tasks' definition: without it, a scan of every
    // done task (about 0.4 s at 300,000 tasks).
    name: 'dashboard_002_tasks_done_index',
    async up(db) {
      const existing = await tableNames(db);
      if (existing.has(tasks.table)) await createDeclaredIndexes(db, tasks);
    },
  },
  {
    // `hearingDay` rows ('YYYY-MM-DD' in `month`); the aggregates are built again (`BUILT` layout 3).
    name: 'dashboard_003_hearing_days',
    async up(db, dialect) {
      if (dialect === 'postgres')
        await sql`alter table ${sql.table(STATS_TABLE)} alter column month type varchar(10)`.execute(db);
    },
  },
];

const id = (value: unknown): number => (typeof value === 'number' ? value : Number(value ?? 0) || 0);
const monthOf = (day: unknown): string => (typeof day === 'string' && day.length >= 7 ? day.slice(0, 7) : '');
const dayOf = (day: unknown): string => (typeof day === 'string' && day.length >= 10 ? day.slice(0, 10) : '');

function stat(
  kind: StatKind,
  branchId: number,
  month: string,
  k1: number,
  k2: number,
  sums: Partial<StatRow> = {},
): StatRow {
  return { kind, branchId, month, k1, k2, n: 1, agreed: 0, paid: 0, pending: 0, attended: 0, ...sums };
}

/** What one lawsuit adds to the aggregates, with `paid` the sum of its payments. */
export function lawsuitStats(row: ApiRow, paid: number): StatRow[] {
  const branch = id(row.branchId);
  const month = monthOf(row.filingDate);
  const caseId = id(row.lawsuitCaseId);
  const agreed = id(row.agreedFee);
  const lawyers = [...new Set((Array.isArray(row.lawyerIds) ? row.lawyerIds : []).map(id))];
  return [
    stat('lawsuit', branch, month, caseId, row.state === 'completed' ? 1 : 0, {
      agreed,
      paid,
      pending: Math.max(agreed - paid, 0),
    }),
    stat('court', branch, month, id(row.courtId), 0),
    ...lawyers.map((lawyer) => stat('lawyer', branch, month, lawyer, caseId)),
  ];
}

/** What one hearing adds, its lawsuit being in branch `branchId` (0: none); a dated one by day too. */
export function hearingStats(row: Readonly<Record<string, unknown>>, branchId: number): StatRow[] {
  const sums = { attended: present(row.decision) ? 1 : 0 };
  const day = dayOf(row.date);
  const lawyer = id(row.lawyerId);
  return [
    stat('hearing', branchId, monthOf(row.date), lawyer, 0, sums),
    ...(day ? [stat('hearingDay', branchId, day, lawyer, 0, sums)] : []),
  ];
}

const keyOf = (r: Pick<StatRow, 'kind' | 'branchId' | 'month' | 'k1' | 'k2'>) =>
  `${r.kind}|${r.branchId}|${r.month}|${r.k1}|${r.k2}`;

/** The rows of one key summed into one row (copies: `rows` are left as they are). */
function sumByKey(rows: Iterable<StatRow>): StatRow[] {
  const byKey = new Map<string, StatRow>();
  for (const row of rows) {
    const key = keyOf(row);
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, { ...row });
    else for (const column of SUM_COLUMNS) seen[column] += row[column];
  }
  return [...byKey.values()];
}

/** What one task adds, its lawsuit being in branch `branchId` (0: none): a count per assignee once done. */
export function taskStats(row: ApiRow, branchId: number): StatRow[] {
  if (row.state !== 'done') return [];
  const assignees = [...new Set((Array.isArray(row.assigneeIds) ? row.assigneeIds : []).map(id))];
  const done = row.stateChangedAt instanceof Date ? row.stateChangedAt.toISOString() : row.stateChangedAt;
  return assignees.map((assignee) => stat('task', branchId, monthOf(done), assignee, 0));
}

/**
 * The periods a row also counts in: a month row in its year and all time (an undated row: all time
 * only); a day row in its day only.
 */
function monthsOf(row: StatRow): string[] {
  if (row.kind === 'hearingDay') return [row.month];
  return row.month ? [row.month, row.month.slice(0, 4), ALL_TIME] : [row.month, ALL_TIME];
}

/** Month and day rows with their roll-ups (every branch; a month's year and all time), summed by key. */
export function rollUp(rows: readonly StatRow[]): StatRow[] {
  // A generator: at a rebuild, millions of rows times their roll-ups are summed as they come.
  return sumByKey(
    (function* () {
      for (const row of rows)
        for (const branchId of [row.branchId, ALL_BRANCHES])
          for (const month of monthsOf(row)) yield { ...row, branchId, month };
    })(),
  );
}

/**
 * `plus` minus `minus` (month rows), with their roll-ups, merged by key, without the keys whose
 * every sum cancels out.
 */
export function difference(minus: readonly StatRow[], plus: readonly StatRow[]): StatRow[] {
  const byKey = new Map<string, StatRow>();
  const add = (row: StatRow, sign: 1 | -1) => {
    const key = keyOf(row);
    const into = byKey.get(key) ?? { ...row, n: 0, agreed: 0, paid: 0, pending: 0, attended: 0 };
    for (const column of SUM_COLUMNS) into[column] += sign * row[column];
    byKey.set(key, into);
  };
  for (const row of rollUp(minus)) add(row, -1);
  for (const row of rollUp(plus)) add(row, 1);
  return [...byKey.values()].filter((row) => SUM_COLUMNS.some((c) => row[c] !== 0));
}

/**
 * Adds `delta` to the aggregate rows inside the write's transaction, in one upsert for every key (a
 * lawsuit's create touches about twenty: its month, year and all-time rows, per branch and for
 * every branch); the rows whose count falls to 0 are then removed in one statement, so the table
 * holds exactly the keys a recount gives. The keys go in one order (`keyOf`'s text): on
 * PostgreSQL two writes locking some of the same rows lock them in the same order, never in a
 * cycle. In a transaction that gathers writes for its commit (`db/atCommit.ts`) the deltas are
 * summed and written at its end.
 */
export async function applyDelta(trx: Trx | Db, delta: readonly StatRow[]): Promise<void> {
  const add = (gathered: StatRow[]) => {
    gathered.push(...delta);
    return gathered;
  };
  if (!gatherAtCommit(trx, STAT_DELTAS, add)) await writeNow(trx, STAT_DELTAS, [...delta]);
}

/** The aggregates' deltas a transaction gathered (`applyDelta`), written after its audit entries. */
const STAT_DELTAS: CommitWrite<StatRow[]> = {
  rank: 1,
  start: () => [],
  statements(db, delta) {
    // One row per key (PostgreSQL refuses a statement that updates a row twice; a lawsuit moved to
    // another branch brings the deltas of its hearings and tasks, which share keys), in key order.
    const rows = sumByKey(delta)
      .filter((row) => SUM_COLUMNS.some((c) => row[c] !== 0))
      .sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
    const upserts = [];
    const removals = [];
    // In parts that stay within SQLite's limits (parameters, expression depth) when a lawsuit moved
    // with its hearings gives hundreds of keys.
    for (let at = 0; at < rows.length; at += APPLY_CHUNK) {
      const part = rows.slice(at, at + APPLY_CHUNK);
      upserts.push(
        db
          .insertInto(STATS_TABLE)
          .values(part.map(statColumns))
          .onConflict((oc) =>
            oc
              .columns([...KEY_COLUMNS])
              .doUpdateSet(
                Object.fromEntries(
                  SUM_COLUMNS.map((c) => [
                    c,
                    sql`${sql.ref(`${STATS_TABLE}.${c}`)} + ${sql.ref(`excluded.${c}`)}`,
                  ]),
                ),
              ),
          )
          .compile(),
      );
      // After the upserts (a later phase): they read the sums the upserts left.
      const lowered = part.filter((row) => row.n < 0);
      if (lowered.length)
        removals.push(
          db
            .deleteFrom(STATS_TABLE)
            .where('n', '<=', 0)
            .where((eb) =>
              eb.or(
                lowered.map((row) =>
                  eb.and([
                    eb('kind', '=', row.kind),
                    eb('branch_id', '=', row.branchId),
                    eb('month', '=', row.month),
                    eb('k1', '=', row.k1),
                    eb('k2', '=', row.k2),
                  ]),
                ),
              ),
            )
            .compile(),
        );
    }
    return removals.length ? [upserts, removals] : [upserts];
  },
};

/** Keys per statement of `applyDelta`. */
const APPLY_CHUNK = 200;

const LAWSUITS = lawsuits.table;
const HEARINGS = sessions.table;
const LAWYERS = joinTableName(lawsuits, 'lawyerIds');
const TASKS = tasks.table;
const ASSIGNEES = joinTableName(tasks, 'assigneeIds');
const c = columnName;

/**
 * Which base rows a recount covers: lawsuits filed and tasks done in a day range, one branch,
 * some kinds only.
 */
export interface RecountFilter {
  /** Filing days `[first, last]` of the lawsuits counted; absent: every lawsuit. */
  lawsuitDays?: readonly [string, string];
  /** Days `[first, last]` (UTC) the tasks counted were done; absent: every done task. */
  taskDays?: readonly [string, string];
  branchId?: number;
  /** The lawsuits counted (their own rows; hearings and tasks are not narrowed); absent: every lawsuit. */
  lawsuitIds?: readonly number[];
  /** The kinds recounted; absent: every kind. */
  kinds?: readonly StatKind[];
}

const nextDay = (day: string): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The month and day rows computed from the base tables (grouped queries, one per kind, hearings
 * by day; no roll-ups), for the rows `filter` selects. With day ranges they read through the
 * filing-date and done-date indexes: the branch is compared as `+branch_id`, which SQLite cannot
 * answer from the branch index (a third of the table with three branches), where its planner,
 * without `ANALYZE` statistics, would otherwise prefer it.
 */
export async function recount(
  db: Db | Trx,
  dialect: Dialect,
  filter: RecountFilter = {},
): Promise<StatRow[]> {
  const pg = dialect === 'postgres';
  const month = (column: RawBuilder<unknown>) =>
    pg ? sql`coalesce(to_char(${column}, 'YYYY-MM'), '')` : sql`coalesce(substr(${column}, 1, 7), '')`;
  const day = (column: RawBuilder<unknown>) =>
    pg ? sql`coalesce(to_char(${column}, 'YYYY-MM-DD'), '')` : sql`coalesce(substr(${column}, 1, 10), '')`;
  const wanted = (kind: StatKind) => !filter.kinds || filter.kinds.includes(kind);
  const none = Promise.resolve({ rows: [] as Record<string, unknown>[] });
  const greatest = pg ? sql.raw('greatest') : sql.raw('max');
  const ref = (table: string, column: string) => sql.ref(`${table}.${column}`);
  const lawsuitWhere = (alias: string) => {
    const parts: RawBuilder<unknown>[] = [sql`1 = 1`];
    if (filter.lawsuitDays)
      parts.push(
        sql`${ref(alias, c('filingDate'))} between ${filter.lawsuitDays[0]} and ${filter.lawsuitDays[1]}`,
      );
    if (filter.branchId !== undefined) parts.push(sql`+${ref(alias, c('branchId'))} = ${filter.branchId}`);
    if (filter.lawsuitIds)
      parts.push(
        filter.lawsuitIds.length
          ? sql`${ref(alias, 'id')} in (${sql.join(filter.lawsuitIds.map((v) => sql`${v}`))})`
          : sql`1 = 0`,
      );
    return sql.join(parts, sql` and `);
  };
  const branch = sql`coalesce(${ref('l', c('branchId'))}, 0)`;
  const filed = month(ref('l', c('filingDate')));
  const caseId = sql`coalesce(${ref('l', c('lawsuitCaseId'))}, 0)`;

  const lawsuitRowsRead = !wanted('lawsuit')
    ? none
    : sql<Record<string, unknown>>`
    select branch_id, month, k1, k2, count(*) as n, sum(agreed) as agreed, sum(paid) as paid,
      sum(${greatest}(agreed - paid, 0)) as pending
    from (
      select ${branch} as branch_id, ${filed} as month, ${caseId} as k1,
        case when ${ref('l', 'state')} = 'completed' then 1 else 0 end as k2,
        coalesce(${ref('l', c('agreedFee'))}, 0) as agreed,
        ${paidSql(ref('l', 'id'))} as paid
      from ${sql.table(LAWSUITS)} l
      where ${lawsuitWhere('l')}
    ) x
    group by branch_id, month, k1, k2`.execute(db);

  const courtRowsRead = !wanted('court')
    ? none
    : sql<Record<string, unknown>>`
    select ${branch} as branch_id, ${filed} as month, coalesce(${ref('l', c('courtId'))}, 0) as k1,
      0 as k2, count(*) as n
    from ${sql.table(LAWSUITS)} l
    where ${lawsuitWhere('l')}
    group by 1, 2, 3`.execute(db);

  const lawyerRowsRead = !wanted('lawyer')
    ? none
    : sql<Record<string, unknown>>`
    select ${branch} as branch_id, ${filed} as month, ${ref('w', 'ref_id')} as k1, ${caseId} as k2,
      count(*) as n
    from ${sql.table(LAWSUITS)} l
    join ${sql.table(LAWYERS)} w on ${ref('w', 'owner_id')} = ${ref('l', 'id')}
    where ${lawsuitWhere('l')}
    group by 1, 2, 3, 4`.execute(db);

  const hearingWhere: RawBuilder<unknown>[] = [sql`1 = 1`];
  if (filter.branchId !== undefined) hearingWhere.push(sql`+${ref('l', c('branchId'))} = ${filter.branchId}`);
  const decided = ref('h', c('decision'));
  const hearingRowsRead =
    !wanted('hearing') && !wanted('hearingDay')
      ? none
      : sql<Record<string, unknown>>`
    select ${branch} as branch_id, ${day(ref('h', c('date')))} as month,
      coalesce(${ref('h', c('lawyerId'))}, 0) as k1, 0 as k2, count(*) as n,
      sum(case when ${decided} is not null and ${decided} <> '' then 1 else 0 end) as attended
    from ${sql.table(HEARINGS)} h
    join ${sql.table(LAWSUITS)} l on ${ref('l', 'id')} = ${ref('h', c('lawsuitId'))}
    where ${sql.join(hearingWhere, sql` and `)}
    group by 1, 2, 3`.execute(db);

  const doneAt = ref('t', c('stateChangedAt'));
  const taskWhere: RawBuilder<unknown>[] = [sql`${ref('t', 'state')} = 'done'`];
  if (filter.taskDays)
    taskWhere.push(sql`${doneAt} >= ${filter.taskDays[0]} and ${doneAt} < ${nextDay(filter.taskDays[1])}`);
  if (filter.branchId !== undefined)
    taskWhere.push(sql`coalesce(${ref('l', c('branchId'))}, 0) = ${filter.branchId}`);
  const doneMonth = pg
    ? sql`coalesce(to_char(${doneAt} at time zone 'UTC', 'YYYY-MM'), '')`
    : sql`coalesce(substr(${doneAt}, 1, 7), '')`;
  const taskRowsRead = !wanted('task')
    ? none
    : sql<Record<string, unknown>>`
    select ${branch} as branch_id, ${doneMonth} as month, ${ref('a', 'ref_id')} as k1, 0 as k2,
      count(*) as n
    from ${sql.table(TASKS)} t
    join ${sql.table(ASSIGNEES)} a on ${ref('a', 'owner_id')} = ${ref('t', 'id')}
    left join ${sql.table(LAWSUITS)} l on ${ref('l', 'id')} = ${ref('t', c('lawsuitId'))}
    where ${sql.join(taskWhere, sql` and `)}
    group by 1, 2, 3`.execute(db);

  // Side by side: on PostgreSQL each query on a connection of its own (in a transaction, or on
  // SQLite's one connection, they run one after another as before).
  const [lawsuitRows, courtRows, lawyerRows, hearingRows, taskRows] = await Promise.all([
    lawsuitRowsRead,
    courtRowsRead,
    lawyerRowsRead,
    hearingRowsRead,
    taskRowsRead,
  ]);
  const toStat = (kind: StatKind) => (r: Record<string, unknown>) =>
    stat(kind, id(r.branch_id), String(r.month ?? ''), id(r.k1), id(r.k2), {
      n: id(r.n),
      agreed: id(r.agreed),
      paid: id(r.paid),
      pending: id(r.pending),
      attended: id(r.attended),
    });
  // The hearings are read by day: their day rows as read, their month rows summed from them.
  const days = hearingRows.rows.map(toStat('hearingDay'));
  const months = sumByKey(days.map((row) => ({ ...row, kind: 'hearing', month: row.month.slice(0, 7) })));
  return [
    ...lawsuitRows.rows.map(toStat('lawsuit')),
    ...courtRows.rows.map(toStat('court')),
    ...lawyerRows.rows.map(toStat('lawyer')),
    ...(wanted('hearing') ? months : []),
    ...(wanted('hearingDay') ? days.filter((row) => row.month !== '') : []),
    ...taskRows.rows.map(toStat('task')),
  ];
}

/** Every aggregate row as stored, roll-ups included (tests compare it with `rollUp(recount())`). */
export async function storedStats(db: Db | Trx): Promise<StatRow[]> {
  const rows = await db.selectFrom(STATS_TABLE).selectAll().where('kind', '!=', BUILT.kind).execute();
  return rows.map((r) =>
    stat(r.kind as StatKind, id(r.branch_id), String(r.month), id(r.k1), id(r.k2), {
      n: id(r.n),
      agreed: id(r.agreed),
      paid: id(r.paid),
      pending: id(r.pending),
      attended: id(r.attended),
    }),
  );
}

/** Rows per INSERT when the aggregates are rebuilt (10 columns: within SQLite's bound-parameter limit). */
const INSERT_CHUNK = 500;

/**
 * Stores a full recount (with its roll-ups) into the emptied table: rows of one key summed first, then multi-row
 * INSERTs (a row-by-row upsert took 52 s for 15,000 rows on PostgreSQL, past the start timeout).
 */
/** A row of the table as its columns are named. */
function statColumns(row: StatRow) {
  return {
    kind: row.kind,
    branch_id: row.branchId,
    month: row.month,
    k1: row.k1,
    k2: row.k2,
    n: row.n,
    agreed: row.agreed,
    paid: row.paid,
    pending: row.pending,
    attended: row.attended,
  };
}

async function insertAll(trx: Trx | Db, rows: readonly StatRow[]): Promise<void> {
  const values = sumByKey(rows)
    // As an upsert would leave them (`applyDelta` drops a key whose count falls to zero).
    .filter((row) => row.n > 0)
    .map(statColumns);
  for (let i = 0; i < values.length; i += INSERT_CHUNK)
    await trx
      .insertInto(STATS_TABLE)
      .values(values.slice(i, i + INSERT_CHUNK))
      .execute();
}

/** Whether the aggregates are built in the current layout (else the start builds them from the tables). */
export async function statsBuilt(db: Db | Trx): Promise<boolean> {
  const built = await db
    .selectFrom(STATS_TABLE)
    .select('kind')
    .where('kind', '=', BUILT.kind)
    .where('k1', '=', BUILT.k1)
    .executeTakeFirst();
  return built !== undefined;
}

/** `pg_advisory_xact_lock(class, 0)`: one instance at a time builds the aggregates. */
const BUILD_LOCK = 0x64617368; // 'dash'

/**
 * Computes the aggregates from the base tables, replacing what is stored: on a database where they
 * were never built (lawsuits recorded before the dashboard existed), or with `force` after rows were
 * written around the engine (a bulk load). One instance at a time, in one transaction.
 */
export async function rebuildStats(
  db: Db,
  dialect: Dialect,
  options: { force?: boolean } = {},
): Promise<boolean> {
  return exclusively(db, dialect, [BUILD_LOCK, 0], async (trx) => {
    if (!options.force && (await statsBuilt(trx))) return false;
    await trx.deleteFrom(STATS_TABLE).execute();
    await insertAll(trx, rollUp(await recount(trx, dialect)));
    await trx.insertInto(STATS_TABLE).values(BUILT).execute();
    return true;
  });
}
