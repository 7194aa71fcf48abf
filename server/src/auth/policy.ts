import { type Db, tableNames } from '../db';
import type { Trx } from '../engine/context';
import type { SecurityPolicy } from '../settings/model';
import { readSettings } from '../settings/repository';
import { PASSWORD_MIN } from './password';

export type { SecurityPolicy };

/** Before the system settings exist (or without the system module): `MIZAN_SESSION_HOURS`, 8 characters. */
export function envPolicy(env: NodeJS.ProcessEnv = process.env): SecurityPolicy {
  const hours = Number(env.MIZAN_SESSION_HOURS);
  return {
    sessionLifetimeHours: Number.isFinite(hours) && hours > 0 ? hours : 12,
    passwordMinLength: PASSWORD_MIN,
    passwordRequireDigits: false,
    passwordRequireSymbols: false,
  };
}

/** Databases whose `system_settings` table holds the policy (decided once per app, at start). */
const withSettings = new WeakSet<object>();

/** Called by the auth plugin after migrations: reads the policy from the settings row from now on. */
export async function enableSettingsPolicy(db: Db): Promise<void> {
  if ((await tableNames(db)).has('system_settings')) withSettings.add(db);
}

/**
 * The session lifetime and password rules in force: the administrator's system settings when
 * the app has them, else the environment. `executor` is the open transaction when there is one
 * (SQLite has one connection: reading outside it would wait for it).
 */
export async function securityPolicy(db: Db, executor: Db | Trx = db): Promise<SecurityPolicy> {
  if (!withSettings.has(db)) return envPolicy();
  const { sessionLifetimeHours, passwordMinLength, passwordRequireDigits, passwordRequireSymbols } =
    await readSettings(executor);
  return {
    sessionLifetimeHours,
    passwordMinLength: Math.max(PASSWORD_MIN, passwordMinLength),
    passwordRequireDigits,
    passwordRequireSymbols,
  };
}

export const policyTtlMs = (policy: SecurityPolicy): number => policy.sessionLifetimeHours * 3_600_000;
