import { z } from 'zod';
import { AREA_PERMISSIONS } from '../areaPermissions';
import { answer, route, type RouteContract } from '../route';
import { orderedRange } from '../schema';
import { parseDigits } from '../text';

/**
 * The office's money reports, each one declarative definition: its key (menu label, screen
 * title and i18n prefix `legal.reports.<key>`), its path (API under `/api`, and the screen's route),
 * its filters, and its columns. Each definition gives its route contract (`FINANCE_REPORT_ROUTES`),
 * which the server registers (`finance/reportRows.ts`, with a function that computes the rows); the legal remote shows every definition with one screen
 * (table, totals row, XLSX export). A new report is one more entry here and one row function.
 */

/** How a column's values are shown and exported: text, minor units of money, minutes, a `YYYY-MM` month. */
export const REPORT_COLUMN_KINDS = ['text', 'money', 'minutes', 'month'] as const;
export type ReportColumnKind = (typeof REPORT_COLUMN_KINDS)[number];

export interface ReportColumn {
  key: string;
  kind: ReportColumnKind;
  /** A text column naming a record: the row's key holding its id, and the record's route (a link). */
  link?: { idKey: string; route: string };
}

/**
 * The day filter a report reads: a day range (`from`, `to`), or the day it is taken at (`asOf`);
 * every report also reads a client and a branch.
 */
export type ReportFilter = 'range' | 'asOf';

const day = z.iso.date({ error: 'validation.date.format' });
const id = z.preprocess(
  parseDigits,
  z.int({ error: 'validation.types.integer' }).positive({ error: 'validation.types.integer' }),
);

/**
 * Query of a report over a day range (both ends optional and inclusive; `from` after `to` is 422 on
 * `from`). Every report also takes `customerId` (one client) and `branchId` (one branch: money tied
 * to a lawsuit of that branch only, as the dashboard's branch figures; money of no lawsuit is left
 * out); an id of no client or branch is 422 on its field (checked by the server).
 */
export const reportRangeQuery = orderedRange(
  z.object({ from: day, to: day, customerId: id, branchId: id }).partial().strip(),
);
/** Query of a report taken at one day (default: today in the office's time zone). */
export const reportAsOfQuery = z.object({ asOf: day, customerId: id, branchId: id }).partial().strip();
/** A report's filters as a screen sends them. */
export interface ReportQuery {
  from?: string;
  to?: string;
  asOf?: string;
  customerId?: number;
  branchId?: number;
}

/** A report's answer: the rows (one value per column key, ids beside the names), the sums of its numeric columns. */
export const reportAnswer = z.object({
  currency: z.string(),
  from: z.string().nullable().optional(),
  to: z.string().nullable().optional(),
  asOf: z.string().nullable().optional(),
  rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
  totals: z.record(z.string(), z.number()),
});
export type ReportAnswer = z.infer<typeof reportAnswer>;

export interface ReportDefinition {
  key: string;
  path: string;
  permission: string;
  filter: ReportFilter;
  columns: readonly ReportColumn[];
}

const customerLink = { idKey: 'customerId', route: '/admin/customers' };
const lawsuitLink = { idKey: 'lawsuitId', route: '/admin/lawsuits' };
const money = (key: string): ReportColumn => ({ key, kind: 'money' });
const viewReports = AREA_PERMISSIONS.financeReports;

/**
 * The reports: what clients owe by age (issued invoices' balance by days past their due date),
 * revenue by lawyer and by month (from issued invoices and credit notes, net of VAT, by issue day;
 * by month also what was collected), and unbilled time, expenses and fee instalments by client and lawsuit.
 */
export const FINANCE_REPORTS = {
  aging: {
    key: 'aging',
    path: '/admin/finance/reports/aging',
    permission: viewReports,
    filter: 'asOf',
    columns: [
      { key: 'customerName', kind: 'text', link: customerLink },
      money('days0to30'),
      money('days31to60'),
      money('days61to90'),
      money('over90'),
      money('total'),
    ],
  },
  revenueByLawyer: {
    key: 'revenueByLawyer',
    path: '/admin/finance/reports/revenueByLawyer',
    permission: viewReports,
    filter: 'range',
    columns: [
      { key: 'lawyerName', kind: 'text' },
      { key: 'minutes', kind: 'minutes' },
      money('invoiced'),
      money('credited'),
      money('revenue'),
    ],
  },
  revenueByMonth: {
    key: 'revenueByMonth',
    path: '/admin/finance/reports/revenueByMonth',
    permission: viewReports,
    filter: 'range',
    columns: [
      { key: 'month', kind: 'month' },
      money('invoiced'),
      money('credited'),
      money('revenue'),
      money('vat'),
      money('collected'),
    ],
  },
  unbilled: {
    key: 'unbilled',
    path: '/admin/finance/reports/unbilled',
    permission: viewReports,
    filter: 'range',
    columns: [
      { key: 'customerName', kind: 'text', link: customerLink },
      { key: 'lawsuitNumber', kind: 'text', link: lawsuitLink },
      { key: 'minutes', kind: 'minutes' },
      money('time'),
      money('expenses'),
      money('instalments'),
      money('total'),
    ],
  },
} as const satisfies Record<string, ReportDefinition>;
export type FinanceReportKey = keyof typeof FINANCE_REPORTS;

/** The route of a report: `GET` its path, the query of its filter, answering `ReportAnswer`. */
export type ReportRoute<D extends ReportDefinition = ReportDefinition> = RouteContract<
  'GET',
  D['path'],
  undefined,
  D['filter'] extends 'range' ? typeof reportRangeQuery : typeof reportAsOfQuery,
  ReportAnswer
>;

/** Each report's route, from its definition in `FINANCE_REPORTS`. */
export const FINANCE_REPORT_ROUTES = Object.fromEntries(
  Object.values(FINANCE_REPORTS).map((definition: ReportDefinition) => [
    definition.key,
    route({
      method: 'GET',
      path: definition.path,
      permission: definition.permission,
      summary: `Finance report "${definition.key}": rows and sums (minor units)`,
      query: definition.filter === 'range' ? reportRangeQuery : reportAsOfQuery,
      response: reportAnswer,
      answer: answer<ReportAnswer>(),
    }),
  ]),
) as { [K in FinanceReportKey]: ReportRoute<(typeof FINANCE_REPORTS)[K]> };
