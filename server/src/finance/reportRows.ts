import {
  FINANCE_REPORTS,
  FINANCE_REPORT_ROUTES,
  customers,
  employees,
  lawsuits,
  type FinanceReportKey,
  type ReportAnswer,
  type ReportDefinition,
  type ReportQuery,
  type ReportRoute,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Dialect } from '../db';
import type { Trx } from '../engine/context';
import { defineRoute } from '../http/route';
import {
  ALLOCATIONS,
  EXPENSES,
  INSTALMENTS,
  INVOICES,
  LINES,
  PAYMENTS,
  TIME_ENTRIES,
  billedIds,
  billingDay,
  col,
  lawsuitsOfBranch,
  readBilling,
} from './money';
import { checkReportFilters } from './filters';
import { agingOf } from './reports';

type Db = FastifyInstance['db'];
type Row = ReportAnswer['rows'][number];
/** What a report's rows are computed from: the parsed filters, the office's currency and today. */
export interface ReportInput {
  from?: string;
  to?: string;
  asOf?: string;
  customerId?: number;
  /**
   * One branch only (a report's and the dashboard's branch filter): money of the lawsuits in that
   * branch, by their invoices', payments', time's, expenses' and instalments' lawsuit; money of no
   * lawsuit counts for the whole office only.
   */
  branchId?: number;
  currency: string;
  today: string;
  dialect: Dialect;
}

const day = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v)).slice(0, 10);
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/** Sums of the numeric columns of a report's rows. */
function totalsOf(definition: ReportDefinition, rows: Row[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const column of definition.columns) {
    if (column.kind !== 'money' && column.kind !== 'minutes') continue;
    totals[column.key] = rows.reduce((sum, row) => sum + num(row[column.key]), 0);
  }
  return totals;
}

/** `id → name` of the rows of `table` among `ids`. */
async function namesOf(
  db: Db | Trx,
  table: string,
  ids: number[],
  name = 'name',
): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db
    .selectFrom(table)
    .select(['id', `${name} as name`])
    .where('id', 'in', unique)
    .execute();
  return new Map(rows.map((r) => [Number(r.id), String(r.name)]));
}

/** The first (lowest id) employee or client of each lawsuit among `ids`, through a `refs` join table. */
async function firstRefOf(db: Db | Trx, joinTable: string, ids: number[]): Promise<Map<number, number>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db
    .selectFrom(joinTable)
    .select((eb) => ['owner_id', eb.fn.min('ref_id').as('ref_id')])
    .where('owner_id', 'in', unique)
    .groupBy('owner_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.owner_id), Number(r.ref_id)]));
}

/** Lines of issued invoices and credit notes (not drafts, not void) issued in the range. */
async function issuedLines(db: Db | Trx, input: ReportInput) {
  return db
    .selectFrom(LINES)
    .innerJoin(INVOICES, `${INVOICES}.id`, `${LINES}.${col('invoiceId')}`)
    .leftJoin(TIME_ENTRIES, `${TIME_ENTRIES}.id`, `${LINES}.${col('timeEntryId')}`)
    .select([
      `${INVOICES}.kind as kind`,
      `${INVOICES}.${col('lawsuitId')} as lawsuit_id`,
      `${LINES}.net as net`,
      `${TIME_ENTRIES}.${col('employeeId')} as employee_id`,
      `${TIME_ENTRIES}.duration as duration`,
    ])
    .where(`${INVOICES}.state`, 'not in', ['draft', 'void'])
    .$if(Boolean(input.from), (q) => q.where(`${INVOICES}.${col('issueDate')}`, '>=', input.from!))
    .$if(Boolean(input.to), (q) => q.where(`${INVOICES}.${col('issueDate')}`, '<=', input.to!))
    .$if(input.customerId !== undefined, (q) =>
      q.where(`${INVOICES}.${col('customerId')}`, '=', input.customerId!),
    )
    .$if(input.branchId !== undefined, (q) =>
      q.where(`${INVOICES}.${col('lawsuitId')}`, 'in', lawsuitsOfBranch(db, input.branchId!)),
    )
    .execute();
}

/**
 * Revenue by lawyer: the net (before VAT) of issued invoices' lines, less issued credit notes',
 * by issue day. A line billing a time entry counts for the entry's lawyer; any other line for the
 * first responsible lawyer of the invoice's lawsuit; the rest is one row with no lawyer. `minutes`
 * is the time billed on invoices (not credit notes).
 */
async function revenueByLawyer(db: Db | Trx, input: ReportInput): Promise<Row[]> {
  const lines = await issuedLines(db, input);
  const lawyerOf = await firstRefOf(
    db,
    `${lawsuits.table}_lawyer_ids`,
    lines.map((l) => num(l.lawsuit_id)).filter(Boolean),
  );
  const rows = new Map<number | null, { minutes: number; invoiced: number; credited: number }>();
  for (const line of lines) {
    const lawyer = line.employee_id ? num(line.employee_id) : (lawyerOf.get(num(line.lawsuit_id)) ?? null);
    let row = rows.get(lawyer);
    if (!row) rows.set(lawyer, (row = { minutes: 0, invoiced: 0, credited: 0 }));
    if (line.kind === 'creditNote') row.credited += num(line.net);
    else {
      row.invoiced += num(line.net);
      row.minutes += num(line.duration);
    }
  }
  const names = await namesOf(
    db,
    employees.table,
    [...rows.keys()].filter((k): k is number => k !== null),
  );
  return [...rows.entries()]
    .map(([id, r]) => ({
      lawyerId: id,
      lawyerName: id === null ? null : (names.get(id) ?? null),
      ...r,
      revenue: r.invoiced - r.credited,
    }))
    .sort((a, b) => b.revenue - a.revenue || (a.lawyerId ?? Infinity) - (b.lawyerId ?? Infinity));
}

/**
 * What of a payment (`p`) was collected for branch `branchId`'s lawsuits, as its lawsuits' fees
 * count it (lawsuitFees.ts): what it settled of invoices of the branch's lawsuits, and, when it names
 * a lawsuit of the branch, the rest of it (the part held as retainer included) less what it settled
 * of invoices of a lawsuit. A payment of invoices of several lawsuits is so shared between their
 * branches.
 */
const branchShare = (db: Db | Trx, branchId: number) => {
  const branch = lawsuitsOfBranch(db, branchId);
  return sql<number>`(case when ${sql.ref(`p.${col('lawsuitId')}`)} in (${branch})
      then p.amount - coalesce((select sum(x.amount) from ${sql.table(ALLOCATIONS)} x
        where x.payment_id = p.id and x.lawsuit_id is not null), 0)
      else 0 end)
    + coalesce((select sum(y.amount) from ${sql.table(ALLOCATIONS)} y
      where y.payment_id = p.id and y.lawsuit_id in (${branch})), 0)`.as('amount');
};

/**
 * Revenue by month of issue: issued invoices' net (`invoiced`), issued credit notes' (`credited`),
 * the difference (`revenue`) and its VAT; `collected` is the payments received in the month (all
 * of each amount, including a part held as retainer; of a branch: `branchShare`).
 */
async function revenueByMonth(db: Db | Trx, input: ReportInput): Promise<Row[]> {
  const issued = await db
    .selectFrom(INVOICES)
    .select(['kind', col('issueDate') as 'issue_date', 'subtotal', col('vatTotal') as 'vat_total'])
    .where('state', 'not in', ['draft', 'void'])
    .$if(Boolean(input.from), (q) => q.where(col('issueDate'), '>=', input.from!))
    .$if(Boolean(input.to), (q) => q.where(col('issueDate'), '<=', input.to!))
    .$if(input.customerId !== undefined, (q) => q.where(col('customerId'), '=', input.customerId!))
    .$if(input.branchId !== undefined, (q) =>
      q.where(col('lawsuitId'), 'in', lawsuitsOfBranch(db, input.branchId!)),
    )
    .execute();
  const paid = await db
    .selectFrom(`${PAYMENTS} as p`)
    .select([
      'p.date as date',
      input.branchId === undefined ? 'p.amount as amount' : branchShare(db, input.branchId),
    ])
    .$if(Boolean(input.from), (q) => q.where('p.date', '>=', input.from!))
    .$if(Boolean(input.to), (q) => q.where('p.date', '<=', input.to!))
    .$if(input.customerId !== undefined, (q) => q.where(`p.${col('customerId')}`, '=', input.customerId!))
    .$if(input.branchId !== undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb(`p.${col('lawsuitId')}`, 'in', lawsuitsOfBranch(db, input.branchId!)),
          eb(
            'p.id',
            'in',
            eb
              .selectFrom(ALLOCATIONS)
              .select('payment_id')
              .where('lawsuit_id', 'in', lawsuitsOfBranch(db, input.branchId!)),
          ),
        ]),
      ),
    )
    .execute();
  const months = new Map<string, { invoiced: number; credited: number; vat: number; collected: number }>();
  const at = (d: unknown) => {
    const month = day(d).slice(0, 7);
    let row = months.get(month);
    if (!row) months.set(month, (row = { invoiced: 0, credited: 0, vat: 0, collected: 0 }));
    return row;
  };
  for (const r of issued) {
    const row = at(r.issue_date);
    const sign = r.kind === 'creditNote' ? -1 : 1;
    if (sign > 0) row.invoiced += num(r.subtotal);
    else row.credited += num(r.subtotal);
    row.vat += sign * num(r.vat_total);
  }
  for (const r of paid) at(r.date).collected += num(r.amount);
  return [...months.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([month, r]) => ({
      month,
      invoiced: r.invoiced,
      credited: r.credited,
      revenue: r.invoiced - r.credited,
      vat: r.vat,
      collected: r.collected,
    }));
}

/**
 * Unbilled work by client and lawsuit: billable time entries with an amount and billable expenses
 * the office paid, dated in the range, and agreed fee instalments due in the range, on no invoice
 * that is not void (what `collect` would bring in). A lawsuit with several clients counts under
 * its first.
 */
async function unbilled(db: Db | Trx, input: ReportInput): Promise<Row[]> {
  const trueValue = input.dialect === 'postgres' ? true : 1;
  const pick = (table: string, field: 'timeEntryId' | 'expenseId') =>
    db
      .selectFrom(table)
      .select([col('lawsuitId') as 'lawsuit_id', 'amount', ...(field === 'timeEntryId' ? ['duration'] : [])])
      .where('billable', '=', trueValue)
      .where('id', 'not in', billedIds(db, field))
      .$if(Boolean(input.from), (q) => q.where('date', '>=', input.from!))
      .$if(Boolean(input.to), (q) => q.where('date', '<=', input.to!))
      .$if(input.branchId !== undefined, (q) =>
        q.where(col('lawsuitId'), 'in', lawsuitsOfBranch(db, input.branchId!)),
      );
  const time = await pick(TIME_ENTRIES, 'timeEntryId').where('amount', '>', 0).execute();
  const spent = await pick(EXPENSES, 'expenseId').where(col('paidBy'), '=', 'office').execute();
  const due = await db
    .selectFrom(INSTALMENTS)
    .select([col('lawsuitId') as 'lawsuit_id', 'amount'])
    .where('id', 'not in', billedIds(db, 'instalmentId'))
    .$if(Boolean(input.from), (q) => q.where(col('dueDate'), '>=', input.from!))
    .$if(Boolean(input.to), (q) => q.where(col('dueDate'), '<=', input.to!))
    .$if(input.branchId !== undefined, (q) =>
      q.where(col('lawsuitId'), 'in', lawsuitsOfBranch(db, input.branchId!)),
    )
    .execute();
  const ids = [...time, ...spent, ...due].map((r) => num(r.lawsuit_id));
  const clientOf = await firstRefOf(db, `${lawsuits.table}_customer_ids`, ids);
  const rows = new Map<number, { minutes: number; time: number; expenses: number; instalments: number }>();
  const at = (lawsuit: number) => {
    let row = rows.get(lawsuit);
    if (!row) rows.set(lawsuit, (row = { minutes: 0, time: 0, expenses: 0, instalments: 0 }));
    return row;
  };
  for (const r of time) {
    const row = at(num(r.lawsuit_id));
    row.minutes += num((r as Record<string, unknown>).duration);
    row.time += num(r.amount);
  }
  for (const r of spent) at(num(r.lawsuit_id)).expenses += num(r.amount);
  for (const r of due) at(num(r.lawsuit_id)).instalments += num(r.amount);
  const numbers = await namesOf(db, lawsuits.table, [...rows.keys()], 'file_number');
  const clients = await namesOf(db, customers.table, [...clientOf.values()]);
  return [...rows.entries()]
    .map(([lawsuitId, r]) => {
      const customerId = clientOf.get(lawsuitId) ?? null;
      return {
        customerId,
        customerName: customerId === null ? null : (clients.get(customerId) ?? null),
        lawsuitId,
        lawsuitNumber: numbers.get(lawsuitId) ?? null,
        ...r,
        total: r.time + r.expenses + r.instalments,
      };
    })
    .filter((row) => input.customerId === undefined || row.customerId === input.customerId)
    .sort(
      (a, b) =>
        String(a.customerName ?? '').localeCompare(String(b.customerName ?? '')) ||
        b.total - a.total ||
        a.lawsuitId - b.lawsuitId,
    );
}

/** The rows of each report of `FINANCE_REPORTS`. */
const ROWS: Record<FinanceReportKey, (db: Db | Trx, input: ReportInput) => Promise<Row[]>> = {
  aging: async (db, input) =>
    (
      await agingOf(db, input.asOf ?? input.today, input.currency, {
        customerId: input.customerId,
        branchId: input.branchId,
      })
    ).rows,
  revenueByLawyer,
  revenueByMonth,
  unbilled,
};

/** A report's answer: its rows and their sums. */
export async function reportOf(
  db: Db | Trx,
  key: FinanceReportKey,
  input: ReportInput,
): Promise<ReportAnswer> {
  const definition: ReportDefinition = FINANCE_REPORTS[key];
  const rows = await ROWS[key](db, input);
  const range =
    definition.filter === 'range'
      ? { from: input.from ?? null, to: input.to ?? null }
      : { asOf: input.asOf ?? input.today };
  return { currency: input.currency, ...range, rows, totals: totalsOf(definition, rows) };
}

/** The route of each report of `FINANCE_REPORTS` (call once per app, from the finance plugin). */
export function registerReportRoutes(app: FastifyInstance): void {
  for (const key of Object.keys(FINANCE_REPORTS) as FinanceReportKey[]) {
    defineRoute(app, FINANCE_REPORT_ROUTES[key] as ReportRoute, {
      labels: 'legal.reports.fields',
      handler: async (request, { query }) => {
        const filters: ReportQuery = query;
        await checkReportFilters(app, request, filters);
        const billing = await readBilling(app.db);
        const input = {
          ...filters,
          currency: billing.currency,
          today: billingDay(billing, app.clock()),
          dialect: app.dialect,
        };
        return { data: await reportOf(app.db, key, input) };
      },
    });
  }
}

/**
 * The dashboard's invoicing figures, summed from the reports: net revenue and collected over the
 * range (revenue by month), unbilled work over the range, and what clients owe at `today` (aging),
 * of which more than 30 days past due; with `branchId`, of that branch's lawsuits only.
 */
export async function invoicingFigures(
  db: Db | Trx,
  dialect: Dialect,
  range: { from?: string; to?: string },
  today: string,
  branchId?: number,
): Promise<{ revenue: number; collected: number; unbilled: number; receivables: number; overdue: number }> {
  const billing = await readBilling(db);
  const input: ReportInput = { ...range, currency: billing.currency, today, dialect, branchId };
  const months = await reportOf(db, 'revenueByMonth', input);
  const work = await reportOf(db, 'unbilled', input);
  const aging = await reportOf(db, 'aging', { currency: billing.currency, today, dialect, branchId });
  const t = (answer: ReportAnswer, key: string) => answer.totals[key] ?? 0;
  return {
    revenue: t(months, 'revenue'),
    collected: t(months, 'collected'),
    unbilled: t(work, 'total'),
    receivables: t(aging, 'total'),
    overdue: t(aging, 'days31to60') + t(aging, 'days61to90') + t(aging, 'over90'),
  };
}
