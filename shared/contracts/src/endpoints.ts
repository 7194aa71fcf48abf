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
  /** Two-factor sign-in (TOTP): setup, enable, verify a sign-in; `DELETE` turns it off. */
  twoFactor: '/auth/2fa',
  twoFactorSetup: '/auth/2fa/setup',
  twoFactorEnable: '/auth/2fa/enable',
  twoFactorVerify: '/auth/2fa/verify',
  /** The signed-in employee's sessions; `DELETE /auth/sessions/:id` ends one, `DELETE` all but this one. */
  sessions: '/auth/sessions',
} as const;

export const PEOPLE = {
  profile: '/employees/employees/profile',
  changePassword: '/employees/employees/changePassword',
  /** An employee's sessions and sign-in history (`GET .../:id`), for an administrator. */
  sessions: '/employees/employees/sessions',
  /** `POST .../:id`: ends every session of the employee, on every instance. */
  signOutEverywhere: '/employees/employees/signOutEverywhere',
  /** `DELETE .../:id`: turns the employee's two-factor sign-in off (they enrol again). */
  resetTwoFactor: '/employees/employees/twoFactor',
} as const;

export const SYSTEM = {
  general: '/admin/settings/system/general',
  /** The roles whose members must sign in with two factors (`GET`, `PUT { roleIds }`). */
  twoFactorRoles: '/admin/settings/system/twoFactorRoles',
  appearances: '/admin/settings/system/general/appearances',
  logs: '/admin/settings/system/logsSystem',
  audit: '/admin/settings/system/audit',
  /** The office's backups: `GET` lists them, `POST` takes one now, `GET .../:id/download` the archive. */
  backups: '/admin/settings/system/backups',
  files: '/files',
} as const;

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
 * `GET /api/admin/dashboard` (its query and answer: api/dashboard.ts): the office's figures for the dashboard, in one answer (`Dashboard`).
 * Permission `dashboard.view`; `employeePerformance` only with `dashboard.performance`,
 * `financialStatistics` and `invoicing` only with `dashboard.finance` (left out of the answer otherwise).
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
