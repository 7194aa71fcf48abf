import { z } from 'zod';
import { LAWSUIT_STATES } from '../entities/legal';
import { COURT_TYPES, LAWSUIT_OUTCOMES } from '../entities/settings';
import { DASHBOARD } from '../endpoints';
import { fullRoute } from '../route';
import { LIGHT_DASHBOARD_ROUTES } from '../lightRoutes';
import { orderedRange } from '../schema';
import { normalizeDigits, parseDigits } from '../text';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day `YYYY-MM-DD` that exists (Eastern digits read as ASCII); blank means none. */
const day = z.preprocess(
  (v) => (typeof v === 'string' ? normalizeDigits(v).trim() || undefined : v),
  z
    .string({ error: 'validation.types.date' })
    .regex(DAY, { error: 'validation.date.format', abort: true })
    .refine((v) => new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
      error: 'validation.date.invalid',
    })
    .optional(),
);

/**
 * The query of `GET /admin/dashboard`, every part optional: `from`/`to` (both days included) limit
 * lawsuits by filing date and hearings by their date; `branchId` limits both to one branch's
 * lawsuits (and the client and employee counts to that branch). `from` after `to` is 422 on `from`;
 * a branch that does not exist is 422 on `branchId` (checked by the server).
 *
 * @example dashboardQuery.parse({ from: '2026-01-01', to: '٢٠٢٦-٠٦-٣٠', branchId: '2' })
 */
export const dashboardQuery = orderedRange(
  z
    .object({
      from: day,
      to: day,
      branchId: z.preprocess(
        (v) => (v === '' ? undefined : parseDigits(v)),
        z
          .int({ error: 'validation.types.integer' })
          .positive({ error: 'validation.types.integer' })
          .optional(),
      ),
    })
    .strip(),
);
export type DashboardQuery = z.input<typeof dashboardQuery>;

const count = z.int().nonnegative();
const named = z.object({ id: z.int(), name: z.string() });

/** A hearing coming up (today or later, in the range), soonest first. */
export const upcomingSession = z.object({
  id: z.int(),
  date: z.string(),
  time: z.string().nullable(),
  lawsuit: z.object({ id: z.int(), fileNumber: z.string() }),
  court: named.nullable(),
  lawyer: named.nullable(),
});
export type UpcomingSession = z.infer<typeof upcomingSession>;

/** A lawsuit among the latest recorded (the latest filed when a range is given). */
export const recentLawsuit = z.object({
  id: z.int(),
  fileNumber: z.string(),
  filingDate: z.string().nullable(),
  state: z.enum(LAWSUIT_STATES),
  court: named.nullable(),
  lawsuitCase: named.extend({ outcome: z.enum(LAWSUIT_OUTCOMES) }).nullable(),
  createdAt: z.string(),
});
export type RecentLawsuit = z.infer<typeof recentLawsuit>;

/** Per lawyer (employee named among a lawsuit's lawyers or as a hearing's lawyer). */
export const employeePerformance = z.object({
  employeeId: z.int(),
  name: z.string(),
  lawsuits: count,
  won: count,
  lost: count,
  /** Hearings assigned to the lawyer whose decision is recorded (the hearing took place). */
  hearingsAttended: count,
  hearings: count,
  /**
   * Tasks assigned to the employee that are done, counted in the month they were marked done (UTC)
   * and in their lawsuit's branch (none: only the whole office's figures).
   */
  tasksDone: count,
});
export type EmployeePerformance = z.infer<typeof employeePerformance>;

/**
 * The office's figures (the seed's dashboard answer). Lawsuits are counted by filing date and
 * hearings by date within `from`/`to`; amounts are minor units (money.ts).
 *
 * - `counts.activeLawsuits` / `completedLawsuits`: by the lawsuit's state;
 * - `rates.successRate`: whole percent of the closed lawsuits won ÷ the closed lawsuits won or lost,
 *   by the outcome of each one's final case (lawsuitCases.outcome, `FINAL_OUTCOMES`); open
 *   lawsuits are not counted; 0 when none is closed;
 * - `lawsuitStatusDistribution`: lawsuits per case (stage), `lawsuitCaseId` null for none recorded;
 * - `monthlyLawsuitTrend`: `DASHBOARD.trendMonths` months (`YYYY-MM`), oldest first, 0 for a month
 *   without lawsuits;
 * - `courtTypeDistribution`: lawsuits per type of their court, `courtType` null for no court;
 * - `financialStatistics`: agreed fees, payments, pending (per lawsuit, never below 0, summed) and
 *   `collectionRate` (`collectionRate` of api/legal.ts, 0 when no fee is agreed);
 * - `invoicing` (minor units, the whole office's: absent when a branch is chosen): the totals of the
 *   finance reports (`FINANCE_REPORTS`) over the range: net revenue and collected (revenue by
 *   month), unbilled time and expenses, and what clients owe today (aged receivables), of which
 *   more than 30 days past due.
 */
export const dashboard = z.object({
  counts: z.object({
    customers: count,
    lawsuits: count,
    employees: count,
    sessions: count,
    activeLawsuits: count,
    completedLawsuits: count,
  }),
  rates: z.object({ successRate: count }),
  upcomingSessions: z.array(upcomingSession),
  recentLawsuits: z.array(recentLawsuit),
  lawsuitStatusDistribution: z.array(
    z.object({
      lawsuitCaseId: z.int().nullable(),
      name: z.string().nullable(),
      color: z.string().nullable(),
      outcome: z.enum(LAWSUIT_OUTCOMES).nullable(),
      count,
    }),
  ),
  monthlyLawsuitTrend: z.array(z.object({ month: z.string(), count })),
  courtTypeDistribution: z.array(z.object({ courtType: z.enum(COURT_TYPES).nullable(), count })),
  employeePerformance: z.array(employeePerformance).optional(),
  financialStatistics: z
    .object({ totalFees: count, paidFees: count, pendingFees: count, collectionRate: count })
    .optional(),
  invoicing: z
    .object({
      revenue: z.int(),
      collected: z.int(),
      unbilled: z.int(),
      receivables: z.int(),
      overdue: z.int(),
    })
    .optional(),
});
export type Dashboard = z.infer<typeof dashboard>;

/** The `YYYY-MM` months of the trend ending with the month of `lastDay`, oldest first. */
export function trendMonths(lastDay: string, months: number = DASHBOARD.trendMonths): string[] {
  const year = Number(lastDay.slice(0, 4));
  const month = Number(lastDay.slice(5, 7)) - 1;
  return Array.from({ length: months }, (_, i) => {
    const d = new Date(Date.UTC(year, month - (months - 1 - i), 1));
    return d.toISOString().slice(0, 7);
  });
}

/**
 * The fallback shown when the dashboard cannot be read (the seed's "all counts at zero"): every
 * figure 0, every list empty, the trend's months present at 0.
 */
export function emptyDashboard(today: string): Dashboard {
  return {
    counts: {
      customers: 0,
      lawsuits: 0,
      employees: 0,
      sessions: 0,
      activeLawsuits: 0,
      completedLawsuits: 0,
    },
    rates: { successRate: 0 },
    upcomingSessions: [],
    recentLawsuits: [],
    lawsuitStatusDistribution: [],
    monthlyLawsuitTrend: trendMonths(today).map((month) => ({ month, count: 0 })),
    courtTypeDistribution: [],
    employeePerformance: [],
    financialStatistics: { totalFees: 0, paidFees: 0, pendingFees: 0, collectionRate: 0 },
  };
}

/** Whole percent of `part` in `whole`, halves up; 0 when `whole` is 0. */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? Math.floor((200 * part + whole) / (2 * whole)) : 0;
}

export const DASHBOARD_ROUTES = {
  get: fullRoute(LIGHT_DASHBOARD_ROUTES.get, {
    summary: "The office's figures: counts, rates, upcoming hearings, recent lawsuits, distributions",
    query: dashboardQuery,
    response: dashboard,
  }),
};
