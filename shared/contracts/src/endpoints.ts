/**
 * The API's base and the paths, headers and sizes that are not a route's: a route's path is written
 * in its contract only (`route()` in `api/`, `lightRoute()` in `api/lightRoutes.ts`).
 */
export const API_BASE = '/api';

export const HEALTH = '/health';
export const READY = '/ready';
/** Prometheus metrics (when `MIZAN_METRICS_TOKEN` is set; or `/metrics` on `MIZAN_METRICS_PORT`). */
export const METRICS = '/metrics';
export const WS_PATH = '/ws';
export const DOCS = '/docs';

/** Headers the client sends with every call, and with a create it may retry. */
export const HEADERS = {
  fingerprintSession: 'x-fingerprint-session',
  fingerprint: 'x-fingerprint',
  /** One per submission: a retry with it gets the first answer again instead of creating twice. */
  idempotencyKey: 'idempotency-key',
} as const;

/**
 * Sizes and channels of the dashboard's answer (`DASHBOARD_ROUTES.get`, `GET /api/admin/dashboard`;
 * its query and answer: api/dashboard.ts): the office's figures for the dashboard, in one answer
 * (`Dashboard`). Permission `dashboard.view`; `employeePerformance` only with
 * `dashboard.performance`, `financialStatistics` and `invoicing` only with `dashboard.finance`
 * (left out of the answer otherwise).
 */
export const DASHBOARD = {
  /** How many upcoming hearings and recent lawsuits the answer lists. */
  listSize: 10,
  /** Months of `monthlyLawsuitTrend`, the last one being the month of `to` (or of today). */
  trendMonths: 12,
  /**
   * Channels whose events change the figures: the client refetches on them, the server drops its
   * short cache on them.
   */
  channels: [
    'lawsuits',
    'sessions',
    'lawsuitPayments',
    'payments',
    'customers',
    'employees',
    'courts',
    'lawsuitCases',
    'branches',
    'tasks',
    'invoices',
    'payments',
    'retainerMovements',
    'timeEntries',
    'expenses',
  ],
} as const;
