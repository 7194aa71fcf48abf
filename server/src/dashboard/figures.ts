import {
  DASHBOARD,
  collectionRate,
  courts,
  customers,
  employees,
  lawsuitCases,
  lawsuits,
  percentOf,
  sessions,
  trendMonths,
  type Dashboard,
  type EmployeePerformance,
  type RecentLawsuit,
  type UpcomingSession,
} from '@mizan/contracts';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db, Dialect } from '../db';
import { columnName } from '../db/migrations';
import { readCount } from '../db/counts';
import { invoicingFigures } from '../finance/reportRows';
import { ALL_BRANCHES, ALL_TIME, KINDS, recount, STATS_TABLE, type StatKind, type StatRow } from './stats';

/** What the figures are asked for: a day range (both ends optional, included) and a branch. */
export interface DashboardFilter {
  from?: string;
  to?: string;
  branchId?: number;
}

const c = columnName;
const num = (value: unknown): number => Number(value ?? 0) || 0;

function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y!, m!, 0)).toISOString().slice(0, 10);
}
function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1 + by, 1)).toISOString().slice(0, 7);
}

/**
 * A day range as whole months (read from the aggregates) and the days at its edges that do not
 * fill a month (recounted from the base tables through their date indexes: at most two months'
 * rows). No range: every month, and the rows without a date.
 *
 * @example splitRange('2026-01-15', '2026-03-31') // { months: ['2026-02', '2026-03'], edges: [['2026-01-15', '2026-01-31']] }
 */
export function splitRange(
  from?: string,
  to?: string,
): { all: boolean; months: [string | null, string | null] | null; edges: [string, string][] } {
  if (!from && !to) return { all: true, months: [null, null], edges: [] };
  const fromMonth = from?.slice(0, 7);
  const toMonth = to?.slice(0, 7);
  const edges: [string, string][] = [];
  const partialStart = !!from && !from.endsWith('-01');
  const partialEnd = !!to && to !== lastDayOf(toMonth!);
  if (partialStart) {
    const end = to && toMonth === fromMonth ? to : lastDayOf(fromMonth!);
    edges.push([from!, end]);
  }
  if (partialEnd && !(partialStart && toMonth === fromMonth)) {
    const start = from && fromMonth === toMonth ? from : `${toMonth}-01`;
    edges.push([start, to!]);
  }
  const first = fromMonth ? (partialStart ? shiftMonth(fromMonth, 1) : fromMonth) : null;
  const last = toMonth ? (partialEnd ? shiftMonth(toMonth, -1) : toMonth) : null;
  const months: [string | null, string | null] | null = first && last && first > last ? null : [first, last];
  return { all: false, months, edges };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the stats table is not in a typed schema
type AnyExpressionBuilder = ExpressionBuilder<any, any>;

/** Stored rows of one time span: `[first, last]` of months ('YYYY-MM') or of years ('YYYY'). */
interface Span {
  first: string;
  last: string;
}

/**
 * Whole months `[first, last]` (null: open) as the fewest stored rows: the years they fill
 * ('YYYY' rows) and the months left at either end; with both ends open, the all-time rows.
 *
 * @example spans('2024-11', '2026-02') // { years: [{ first: '2025', last: '2025' }], months: [2024-11…2024-12, 2026-01…2026-02] }
 */
export function spans(first: string | null, last: string | null): { years: Span[]; months: Span[] } {
  const from = first ?? '0000-01';
  const to = last ?? '9999-12';
  const fromYear = Number(from.slice(0, 4)) + (from.endsWith('-01') ? 0 : 1);
  const toYear = Number(to.slice(0, 4)) - (to.endsWith('-12') ? 0 : 1);
  if (fromYear > toYear) return { years: [], months: [{ first: from, last: to }] };
  const year = (y: number) => String(y).padStart(4, '0');
  const months: Span[] = [];
  if (from < `${year(fromYear)}-01`) months.push({ first: from, last: `${year(fromYear - 1)}-12` });
  if (to > `${year(toYear)}-12`) months.push({ first: `${year(toYear + 1)}-01`, last: to });
  return { years: [{ first: year(fromYear), last: year(toYear) }], months };
}

/** Sums of stored rows summed over their months, by kind and keys, read from `where`'s rows. */
async function storedSums(
  db: Db,
  filter: DashboardFilter,
  where: (eb: AnyExpressionBuilder) => Expression<SqlBool>,
  groupByMonth = false,
): Promise<StatRow[]> {
  const month = groupByMonth ? sql<string>`month` : sql<string>`''`;
  const rows = await db
    .selectFrom(STATS_TABLE)
    .select((eb) => [
      'kind',
      month.as('month'),
      'k1',
      'k2',
      eb.fn.sum<string | number>('n').as('n'),
      eb.fn.sum<string | number>('agreed').as('agreed'),
      eb.fn.sum<string | number>('paid').as('paid'),
      eb.fn.sum<string | number>('pending').as('pending'),
      eb.fn.sum<string | number>('attended').as('attended'),
    ])
    .where('kind', 'in', [...KINDS])
    .where('branch_id', '=', filter.branchId ?? ALL_BRANCHES)
    .where(where)
    .groupBy(groupByMonth ? ['kind', 'month', 'k1', 'k2'] : ['kind', 'k1', 'k2'])
    .execute();
  return rows.map((r) => ({
    kind: r.kind as StatKind,
    branchId: filter.branchId ?? ALL_BRANCHES,
    month: String(r.month ?? ''),
    k1: num(r.k1),
    k2: num(r.k2),
    n: num(r.n),
    agreed: num(r.agreed),
    paid: num(r.paid),
    pending: num(r.pending),
    attended: num(r.attended),
  }));
}

/** `month` within one of `spans` of its length (a year's 'YYYY' never falls in a month span). */
function inSpans(eb: AnyExpressionBuilder, spans: readonly Span[]): Expression<SqlBool> {
  return eb.or(
    spans.map((s) =>
      eb.and([
        eb('month', '>=', s.first),
        eb('month', '<=', s.last),
        eb(sql`length(month)`, '=', s.first.length),
      ]),
    ),
  );
}

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;
const dayOf = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);

/** The kinds recounted from the base tables at a range's edges: hearings are stored by day. */
const RECOUNTED: readonly StatKind[] = KINDS.filter((kind) => kind !== 'hearing');

/** The hearings of the days `[first, last]` from their stored day rows, as rows of their month. */
async function hearingDays(
  db: Db,
  filter: DashboardFilter,
  [first, last]: [string, string],
): Promise<StatRow[]> {
  const branchId = filter.branchId ?? ALL_BRANCHES;
  const rows = await db
    .selectFrom(STATS_TABLE)
    .select((eb) => [
      'k1',
      'k2',
      eb.fn.sum<string | number>('n').as('n'),
      eb.fn.sum<string | number>('attended').as('attended'),
    ])
    .where('kind', '=', 'hearingDay')
    .where('branch_id', '=', branchId)
    .where('month', '>=', first)
    .where('month', '<=', last)
    .groupBy(['k1', 'k2'])
    .execute();
  return rows.map((r) => ({
    kind: 'hearing',
    branchId,
    month: first.slice(0, 7),
    k1: num(r.k1),
    k2: num(r.k2),
    n: num(r.n),
    agreed: 0,
    paid: 0,
    pending: 0,
    attended: num(r.attended),
  }));
}

/**
 * The rows of the days `[first, last]` within one month: hearings from their day rows; lawsuits and
 * tasks recounted from the base tables when the days are at most half of the month, otherwise the
 * month's stored rows minus a recount of its other days.
 */
async function edgeStats(
  db: Db,
  dialect: Dialect,
  filter: DashboardFilter,
  [first, last]: [string, string],
): Promise<StatRow[]> {
  const hearings = hearingDays(db, filter, [first, last]);
  hearings.catch(() => undefined);
  const recounted = (days: readonly [string, string]) =>
    recount(db, dialect, { lawsuitDays: days, taskDays: days, branchId: filter.branchId, kinds: RECOUNTED });
  const month = first.slice(0, 7);
  const start = dayNumber(`${month}-01`);
  const end = dayNumber(lastDayOf(month));
  if (2 * (dayNumber(last) - dayNumber(first) + 1) <= end - start + 1)
    return [...(await recounted([first, last])), ...(await hearings)];
  const others: [string, string][] = [];
  if (dayNumber(first) > start) others.push([`${month}-01`, dayOf(dayNumber(first) - 1)]);
  if (dayNumber(last) < end) others.push([dayOf(dayNumber(last) + 1), lastDayOf(month)]);
  const [rows, ...recounts] = await Promise.all([
    storedSums(
      db,
      filter,
      (eb) => eb.and([inSpans(eb, [{ first: month, last: month }]), eb('kind', 'in', [...RECOUNTED])]),
      true,
    ),
    ...others.map(recounted),
  ]);
  for (const recountedRows of recounts)
    for (const r of recountedRows)
      rows.push({
        ...r,
        n: -r.n,
        agreed: -r.agreed,
        paid: -r.paid,
        pending: -r.pending,
        attended: -r.attended,
      });
  return [...rows, ...(await hearings)];
}

/**
 * The figures' rows for the filter, summed over its months (`month` ''), and the lawsuits by
 * filing month in the trend's months: the whole office or a branch over all time from its all-time
 * rows; a range's whole years and months from their rows, the days at its edges recounted. The
 * edges are read beside the stored rows: on PostgreSQL each on a connection of its own (the
 * hearings of a range's edge days, joined to their lawsuits for a branch, are the slowest reads).
 */
async function statsFor(
  db: Db,
  dialect: Dialect,
  filter: DashboardFilter,
  trend: readonly string[],
): Promise<{ stats: StatRow[]; byMonth: Map<string, number> }> {
  const range = splitRange(filter.from, filter.to);
  const stats: StatRow[] = [];
  const byMonth = new Map<string, number>();
  const count = (month: string, n: number) => byMonth.set(month, (byMonth.get(month) ?? 0) + n);
  const edges = Promise.all(range.edges.map((edge) => edgeStats(db, dialect, filter, edge)));
  // Settled here too, so that a failure of the stored reads below leaves no rejection unhandled.
  edges.catch(() => undefined);
  let trendSpan: Span | null = { first: trend[0]!, last: trend[trend.length - 1]! };
  if (range.all) stats.push(...(await storedSums(db, filter, (eb) => eb('month', '=', ALL_TIME))));
  else if (range.months) {
    const [first, last] = range.months;
    const { years, months } = spans(first, last);
    stats.push(...(await storedSums(db, filter, (eb) => inSpans(eb, [...years, ...months]))));
    const from = first && first > trendSpan.first ? first : trendSpan.first;
    const to = last && last < trendSpan.last ? last : trendSpan.last;
    trendSpan = from <= to ? { first: from, last: to } : null;
  } else trendSpan = null;
  if (trendSpan) {
    const span = trendSpan;
    for (const r of await storedSums(
      db,
      filter,
      (eb) => eb.and([eb('kind', '=', 'lawsuit'), inSpans(eb, [span])]),
      true,
    ))
      count(r.month, r.n);
  }
  for (const edgeRows of await edges)
    for (const r of edgeRows) {
      stats.push(r);
      if (r.kind === 'lawsuit') count(r.month, r.n);
    }
  return { stats, byMonth };
}

/**
 * A branch column compared as `+column`: never through the branch index (a third of the lawsuits
 * with three branches), which SQLite's sampled statistics (`analysis_limit`) take for a selective
 * one; the hearings and lawsuits are then read along their date indexes, newest or soonest first,
 * until the list is full (at a million lawsuits: 1.7 s through the branch index, milliseconds so).
 */
const unindexed = (column: string) => sql<number>`+${sql.ref(column)}`;

async function namesOf(db: Db, table: string, ids: readonly number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom(table)
    .select(['id', 'name'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [Number(r.id), String(r.name)]));
}

/** Hearings from today (or `from`, if later) to `to`, soonest first, read through the date index. */
async function upcoming(db: Db, filter: DashboardFilter, today: string): Promise<UpcomingSession[]> {
  const start = filter.from && filter.from > today ? filter.from : today;
  if (filter.to && filter.to < start) return [];
  const h = sessions.table;
  const date = `h.${c('date')}`;
  const base = () => {
    let query = db
      .selectFrom(`${h} as h`)
      .innerJoin(`${lawsuits.table} as l`, 'l.id', `h.${c('lawsuitId')}`)
      .where(date, '>=', start)
      // A postponed hearing does not take place on its day: the one it was postponed to is listed.
      .where(`h.${c('nextDate')}`, 'is', null);
    if (filter.to) query = query.where(date, '<=', filter.to);
    if (filter.branchId !== undefined)
      query = query.where(unindexed(`l.${c('branchId')}`), '=', filter.branchId);
    return query;
  };
  // The day of the last hearing listed, read along the date index, bounds the rows sorted by
  // time: only a few days' hearings are ordered, however many lie ahead.
  const last = await base()
    .select(`${date} as date`)
    .orderBy(date)
    .orderBy('h.id')
    .offset(DASHBOARD.listSize - 1)
    .limit(1)
    .executeTakeFirst();
  let query = base()
    .select([
      'h.id as id',
      `${date} as date`,
      `h.${c('time')} as time`,
      `h.${c('courtId')} as courtId`,
      `h.${c('lawyerId')} as lawyerId`,
      'l.id as lawsuitId',
      `l.${c('fileNumber')} as fileNumber`,
    ])
    .orderBy(date)
    .orderBy(`h.${c('time')}`)
    .orderBy('h.id')
    .limit(DASHBOARD.listSize);
  if (last) query = query.where(date, '<=', dayText(last.date));
  const rows = await query.execute();
  const courtNames = await namesOf(db, courts.table, rows.map((r) => num(r.courtId)).filter(Boolean));
  const lawyerNames = await namesOf(db, employees.table, rows.map((r) => num(r.lawyerId)).filter(Boolean));
  const named = (names: Map<number, string>, value: unknown) => {
    const key = num(value);
    return key && names.has(key) ? { id: key, name: names.get(key)! } : null;
  };
  return rows.map((r) => ({
    id: Number(r.id),
    date: dayText(r.date),
    time: r.time === null || r.time === undefined ? null : String(r.time),
    lawsuit: { id: Number(r.lawsuitId), fileNumber: String(r.fileNumber) },
    court: named(courtNames, r.courtId),
    lawyer: named(lawyerNames, r.lawyerId),
  }));
}

/** A stored day as `YYYY-MM-DD` (PostgreSQL may hand a date back as a Date). */
function dayText(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value ?? '').slice(0, 10);
}
function instantText(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value ?? '');
}

/** The latest recorded lawsuits; with a range, the latest filed in it (filing-date index). */
async function recent(
  db: Db,
  filter: DashboardFilter,
  cases: Map<number, CaseInfo>,
): Promise<RecentLawsuit[]> {
  const filed = c('filingDate');
  let query = db
    .selectFrom(lawsuits.table)
    .select(['id', c('fileNumber'), filed, 'state', c('courtId'), c('lawsuitCaseId'), 'created_at'])
    .limit(DASHBOARD.listSize);
  if (filter.from || filter.to) {
    if (filter.from) query = query.where(filed, '>=', filter.from);
    if (filter.to) query = query.where(filed, '<=', filter.to);
    query = query.orderBy(filed, 'desc').orderBy('id', 'desc');
  } else query = query.orderBy('created_at', 'desc').orderBy('id', 'desc');
  if (filter.branchId !== undefined) query = query.where(unindexed(c('branchId')), '=', filter.branchId);
  const rows = (await query.execute()) as Record<string, unknown>[];
  const courtNames = await namesOf(db, courts.table, rows.map((r) => num(r.court_id)).filter(Boolean));
  return rows.map((r) => {
    const caseInfo = cases.get(num(r.lawsuit_case_id));
    const courtId = num(r.court_id);
    return {
      id: Number(r.id),
      fileNumber: String(r.file_number),
      filingDate: r[filed] === null || r[filed] === undefined ? null : dayText(r[filed]),
      state: r.state === 'completed' ? 'completed' : 'active',
      court: courtId && courtNames.has(courtId) ? { id: courtId, name: courtNames.get(courtId)! } : null,
      lawsuitCase: caseInfo ? { id: caseInfo.id, name: caseInfo.name, outcome: caseInfo.outcome } : null,
      createdAt: instantText(r.created_at),
    };
  });
}

interface CaseInfo {
  id: number;
  name: string;
  color: string | null;
  outcome: 'ongoing' | 'won' | 'lost';
}

/** Customers and employees in the branch (an indexed count), or every one (the maintained totals). */
async function headCount(db: Db, entity: string, table: string, branchId?: number): Promise<number> {
  if (branchId === undefined) return (await readCount(db, entity)) ?? 0;
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where(c('branchId'), '=', branchId)
    .executeTakeFirst();
  return num(row?.n);
}

/**
 * The whole dashboard for `filter`, every permission-bound part included (the route leaves out
 * what the reader may not see). `today` is the office's day (upcoming hearings, the trend's
 * last month when no `to` is given).
 */
export async function computeDashboard(
  db: Db,
  dialect: Dialect,
  filter: DashboardFilter,
  today: string,
): Promise<Dashboard> {
  const months = trendMonths(filter.to ?? today);
  const { stats, byMonth } = await statsFor(db, dialect, filter, months);
  const caseRows = await db
    .selectFrom(lawsuitCases.table)
    .select(['id', 'name', 'color', 'outcome'])
    .execute();
  const cases = new Map<number, CaseInfo>(
    caseRows.map((r) => [
      Number(r.id),
      {
        id: Number(r.id),
        name: String(r.name),
        color: r.color ? String(r.color) : null,
        outcome: (r.outcome as CaseInfo['outcome']) ?? 'ongoing',
      },
    ]),
  );
  const outcomeOf = (caseId: number) => cases.get(caseId)?.outcome ?? 'ongoing';
  const of = (kind: StatKind) => stats.filter((s) => s.kind === kind);
  const sum = (rows: StatRow[], column: 'n' | 'agreed' | 'paid' | 'pending' | 'attended') =>
    rows.reduce((total, r) => total + r[column], 0);

  const lawsuitRows = of('lawsuit');
  // The success rate counts closed lawsuits (k2: 1 when completed) by their final case.
  const closed = lawsuitRows.filter((r) => r.k2 === 1);
  const won = sum(
    closed.filter((r) => outcomeOf(r.k1) === 'won'),
    'n',
  );
  const lost = sum(
    closed.filter((r) => outcomeOf(r.k1) === 'lost'),
    'n',
  );

  const byCase = new Map<number, number>();
  for (const r of lawsuitRows) byCase.set(r.k1, (byCase.get(r.k1) ?? 0) + r.n);
  const lawsuitStatusDistribution = [...byCase]
    .filter(([, count]) => count > 0)
    .map(([caseId, count]) => {
      const info = cases.get(caseId);
      return {
        lawsuitCaseId: info ? caseId : null,
        name: info?.name ?? null,
        color: info?.color ?? null,
        outcome: info?.outcome ?? null,
        count,
      };
    })
    .sort((a, b) => b.count - a.count || (a.lawsuitCaseId ?? 0) - (b.lawsuitCaseId ?? 0));

  const monthlyLawsuitTrend = months.map((month) => ({
    month,
    count: byMonth.get(month) ?? 0,
  }));

  const courtRows = of('court');
  const courtIds = [...new Set(courtRows.map((r) => r.k1).filter(Boolean))];
  const courtTypes = new Map<number, string>();
  if (courtIds.length)
    for (const r of await db
      .selectFrom(courts.table)
      .select(['id', c('courtType')])
      .where('id', 'in', courtIds)
      .execute())
      courtTypes.set(Number(r.id), String(r[c('courtType')]));
  const byType = new Map<string | null, number>();
  for (const r of courtRows) {
    const type = r.k1 ? (courtTypes.get(r.k1) ?? null) : null;
    byType.set(type, (byType.get(type) ?? 0) + r.n);
  }
  const courtTypeDistribution = [...byType]
    .filter(([, count]) => count > 0)
    .map(([courtType, count]) => ({ courtType, count }) as Dashboard['courtTypeDistribution'][number])
    .sort((a, b) => b.count - a.count || String(a.courtType).localeCompare(String(b.courtType)));

  const people = new Map<number, Omit<EmployeePerformance, 'name'>>();
  const person = (employeeId: number) => {
    let entry = people.get(employeeId);
    if (!entry) {
      entry = { employeeId, lawsuits: 0, won: 0, lost: 0, hearingsAttended: 0, hearings: 0, tasksDone: 0 };
      people.set(employeeId, entry);
    }
    return entry;
  };
  for (const r of of('lawyer')) {
    const entry = person(r.k1);
    entry.lawsuits += r.n;
    if (outcomeOf(r.k2) === 'won') entry.won += r.n;
    if (outcomeOf(r.k2) === 'lost') entry.lost += r.n;
  }
  const hearingRows = of('hearing');
  for (const r of hearingRows) {
    if (!r.k1) continue;
    const entry = person(r.k1);
    entry.hearings += r.n;
    entry.hearingsAttended += r.attended;
  }
  for (const r of of('task')) person(r.k1).tasksDone += r.n;
  const names = await namesOf(db, employees.table, [...people.keys()]);
  const employeePerformance = [...people.values()]
    .filter((p) => names.has(p.employeeId) && (p.lawsuits > 0 || p.hearings > 0 || p.tasksDone > 0))
    .map((p) => ({ ...p, name: names.get(p.employeeId)! }))
    .sort((a, b) => b.lawsuits - a.lawsuits || b.hearings - a.hearings || a.employeeId - b.employeeId);

  const totalFees = sum(lawsuitRows, 'agreed');
  const paidFees = sum(lawsuitRows, 'paid');
  const [customerCount, employeeCount, upcomingSessions, recentLawsuits] = await Promise.all([
    headCount(db, customers.name, customers.table, filter.branchId),
    headCount(db, employees.name, employees.table, filter.branchId),
    upcoming(db, filter, today),
    recent(db, filter, cases),
  ]);

  return {
    counts: {
      customers: customerCount,
      lawsuits: sum(lawsuitRows, 'n'),
      employees: employeeCount,
      sessions: sum(hearingRows, 'n'),
      activeLawsuits: sum(
        lawsuitRows.filter((r) => r.k2 === 0),
        'n',
      ),
      completedLawsuits: sum(
        lawsuitRows.filter((r) => r.k2 === 1),
        'n',
      ),
    },
    rates: { successRate: percentOf(won, won + lost) },
    upcomingSessions,
    recentLawsuits,
    lawsuitStatusDistribution,
    monthlyLawsuitTrend,
    courtTypeDistribution,
    employeePerformance,
    financialStatistics: {
      totalFees,
      paidFees,
      pendingFees: sum(lawsuitRows, 'pending'),
      collectionRate: collectionRate(paidFees, totalFees) ?? 0,
    },
    // A branch's: the money of its lawsuits (finance/reportRows.ts); the whole office's otherwise.
    invoicing: await invoicingFigures(
      db,
      dialect,
      { from: filter.from, to: filter.to },
      today,
      filter.branchId || undefined,
    ),
  };
}
