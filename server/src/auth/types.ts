import type { Gender } from '@mizan/contracts';
import type { Generated } from 'kysely';

/** The signed-in employee as the guard puts it on `request.user`. */
export interface AuthUser {
  id: number;
  name: string;
  email: string;
  username: string;
  /** Flattened permission keys of every active, unbanned role. */
  permissions: ReadonlySet<string>;
  roleIds: number[];
  /** Id of the `sessions` row this request was authenticated with. */
  sessionId: number;
  /** Until it is changed, only routes open to any signed-in user (`requirePermission(null)`) answer. */
  passwordChangeRequired: boolean;
  /** For texts about what the employee did (`employees.gender`); null when not given. */
  gender: Gender | null;
}

/**
 * Tables this module reads and writes. Times are ISO 8601 strings written with `toISOString()`
 * (TEXT in SQLite, TIMESTAMPTZ in PostgreSQL); read them back with `new Date(value)`.
 */
export interface SessionsTable {
  id: Generated<number>;
  employee_id: number;
  token_hash: string;
  fingerprint_session: string | null;
  ip: string | null;
  user_agent: string | null;
  created_at: string | Date;
  last_seen_at: string | Date;
  expires_at: string | Date;
  revoked_at: string | Date | null;
}

export interface LoginHistoryTable {
  id: Generated<number>;
  employee_id: number | null;
  identifier: string;
  ip: string | null;
  user_agent: string | null;
  success: boolean | number;
  reason: string | null;
  created_at: string | Date;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  employee_id: number;
  token_hash: string;
  code_hash: string;
  expires_at: string | Date;
  used_at: string | Date | null;
  attempts: Generated<number>;
  created_at: string | Date;
}

export interface OutboxTable {
  id: Generated<number>;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  created_at: string | Date;
  sent_at: string | Date | null;
  error: string | null;
}

/** The columns of the engine's generated people tables that this module touches. */
export interface EmployeesTable {
  id: Generated<number>;
  name: string;
  email: string;
  username: string;
  phone: string | null;
  job_title: string | null;
  password: string;
  status: boolean | number;
  baned: boolean | number;
  password_change_required: boolean | number;
  gender?: string | null;
  last_login_at: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface RolesTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  /** Members are lawyers (see `roles.lawyers` in contracts). */
  lawyers: boolean | number | null;
  status: boolean | number;
  baned: boolean | number;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface PermissionsTable {
  id: Generated<number>;
  key: string;
  group: string;
  description: string | null;
  status?: boolean | number;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface TwoFactorTable {
  employee_id: number;
  secret: string;
  enabled_at: string | Date | null;
  last_step: number | string | null;
  created_at: string | Date;
}

export interface TwoFactorRecoveryCodesTable {
  id: Generated<number>;
  employee_id: number;
  code_hash: string;
}

export interface TwoFactorChallengesTable {
  id: Generated<number>;
  employee_id: number;
  token_hash: string;
  purpose: 'verify' | 'enrol';
  identifier: string;
  fingerprint_session: string | null;
  expires_at: string | Date;
  used_at: string | Date | null;
  created_at: string | Date;
}

/** The first answer to a request sent with an `Idempotency-Key`; `status` null while it runs. */
export interface IdempotencyKeysTable {
  employee_id: number;
  key: string;
  request_hash: string;
  status: number | null;
  body: string | null;
  created_at: string | Date;
}

export interface AuthDatabase {
  two_factor: TwoFactorTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  two_factor_challenges: TwoFactorChallengesTable;
  two_factor_required_roles: { role_id: number };
  idempotency_keys: IdempotencyKeysTable;
  sessions: SessionsTable;
  login_history: LoginHistoryTable;
  password_resets: PasswordResetsTable;
  outbox: OutboxTable;
  employees: EmployeesTable;
  roles: RolesTable;
  permissions: PermissionsTable;
}

/** SQLite answers 0/1 where PostgreSQL answers booleans (the db module's `toBoolean`). */
export { toBoolean as truthy } from '../db';
