import { hash, verify } from '@node-rs/argon2';
import type { Kysely, Transaction } from 'kysely';
import { message, type Lang } from './messages';
import type { AuthDatabase } from './types';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/**
 * argon2id (the library's default algorithm) with OWASP's minimum: 19 MiB, 2 passes, 1 lane.
 * About 11 ms per hash on a 2-core machine (measured).
 */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** An argon2 hash: what `writePassword` stores, never the password itself. */
export type PasswordHash = string & { readonly __passwordHash: true };

export function hashPassword(password: string): Promise<PasswordHash> {
  return hash(password, OPTIONS) as Promise<PasswordHash>;
}

/**
 * The one place an employee's password is written (a change, a reset by link, a reset by an
 * administrator): the hash, whether it must be changed at the next sign-in, and the row's time.
 * Hash before the transaction (`hashPassword`, tens of milliseconds) so the write holds no lock
 * meanwhile. Ending sessions is the caller's: each case ends different ones.
 */
export async function writePassword(
  db: Kysely<AuthDatabase> | Transaction<AuthDatabase>,
  employeeId: number,
  passwordHash: PasswordHash,
  options: { mustChange: boolean; at: Date },
): Promise<void> {
  await db
    .updateTable('employees')
    .set({
      password: passwordHash,
      password_change_required: options.mustChange,
      updated_at: options.at.toISOString(),
    })
    .where('id', '=', employeeId)
    .execute();
}

/** False for a wrong password and for a stored value that is not an argon2 hash. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored || !stored.startsWith('$argon2')) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the account does not exist, so both paths cost the same time. */
let decoy: Promise<string> | null = null;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword('mizan-decoy-password-0');
  return decoy;
}

/** The password rules of the system settings. */
export interface PasswordRules {
  passwordMinLength: number;
  passwordRequireDigits: boolean;
  passwordRequireSymbols: boolean;
}

const DIGIT = /\p{N}/u;
const SYMBOL = /[^\p{L}\p{N}\s]/u;

/**
 * Why a new password is refused, or null. At least 8 characters (or the settings' minimum), at
 * most 128, at least two kinds of characters among letters, digits and symbols ("12345678" and
 * "password" are refused), and a digit or a symbol when the settings require one.
 */
export function passwordProblem(password: unknown, lang: Lang, rules?: PasswordRules): string | null {
  const min = Math.max(PASSWORD_MIN, rules?.passwordMinLength ?? PASSWORD_MIN);
  if (typeof password !== 'string' || password.length < min)
    return message(lang, 'passwordTooShort', { min, count: min });
  if (password.length > PASSWORD_MAX)
    return message(lang, 'passwordTooLong', { max: PASSWORD_MAX, count: PASSWORD_MAX });
  if (rules?.passwordRequireDigits && !DIGIT.test(password)) return message(lang, 'passwordNeedsDigit');
  if (rules?.passwordRequireSymbols && !SYMBOL.test(password)) return message(lang, 'passwordNeedsSymbol');
  const kinds = [/\p{L}/u, DIGIT, SYMBOL].filter((re) => re.test(password)).length;
  if (kinds < 2 || new Set(password).size < 4) return message(lang, 'passwordWeak');
  return null;
}
