/** API paths (under `API_BASE`) that are not derived from an entity definition. */
export const API_BASE = '/api';

export const AUTH = {
  base: '/auth',
  login: '/auth/login',
  check: '/auth/check',
  logout: '/auth/logout',
  systemSettings: '/auth/systemSettings',
  forgotPassword: '/auth/forgotPassword',
  resetPassword: '/auth/resetPassword',
  verifyResetToken: '/auth/verifyResetToken',
  verifyResetCode: '/auth/verifyResetCode',
} as const;

export const PEOPLE = {
  profile: '/employees/employees/profile',
  changePassword: '/employees/employees/changePassword',
} as const;

export const SYSTEM = {
  general: '/admin/settings/system/general',
  appearances: '/admin/settings/system/general/appearances',
  logs: '/admin/settings/system/logsSystem',
  audit: '/admin/settings/system/audit',
  files: '/files',
} as const;

/** The clients area's routes beyond the customers' CRUD. */
export const CLIENTS = { conflicts: '/admin/customers/conflicts' } as const;

export const HEALTH = '/health';
export const WS_PATH = '/ws';
export const DOCS = '/docs';

/** Headers the client sends with every call (seed §7), and with a create it may retry. */
export const HEADERS = {
  fingerprintSession: 'x-fingerprint-session',
  fingerprint: 'x-fingerprint',
  /** One per submission: a retry with it gets the first answer again instead of creating twice. */
  idempotencyKey: 'idempotency-key',
} as const;

/**
 * `GET /api/admin/dashboard` (its query and answer: api/dashboard.ts): the office's figures for the dashboard, in one answer (`Dashboard`).
 * Permission `dashboard.view`; `employeePerformance` only with `dashboard.performance`,
 * `financialStatistics` only with `lawsuitPayments.view` (left out of the answer otherwise).
 */
export const DASHBOARD = {
  path: '/admin/dashboard',
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
    'customers',
    'employees',
    'courts',
    'lawsuitCases',
    'branches',
    'tasks',
  ],
} as const;
