import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import type { TwoFactorSetupResult } from '@mizan/contracts';
import { qrDataUrl } from '../files/qrCode';
import { iso, toDate } from './db';
import { generateToken, hashToken } from './tokens';
import type { AuthDatabase, TwoFactorChallengesTable } from './types';

/**
 * Two-factor sign-in with time-based one-time codes (TOTP, RFC 6238: SHA-1, six digits, 30-second
 * steps, as every authenticator app reads an `otpauth://` URI), through the `otpauth` library.
 * A code is accepted one step either side of now (clocks drift), and once only: the step it was
 * accepted for is stored and no code of that step or an earlier one is accepted again.
 */

/** A challenge (the second step of a sign-in) lives 5 minutes and is used once. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** How many recovery codes an enrolment gives. */
export const RECOVERY_CODES = 10;
const PERIOD = 30;
const WINDOW = 1;

function totp(secret: string, label = '', issuer = ''): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

/** The time step a code of `secret` matches (one step either side of `now`), or null. */
export function matchingStep(secret: string, code: string, now = Date.now()): number | null {
  const delta = totp(secret).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/** `abcd-efgh-ijkl`: 12 characters of [a-z0-9], shown grouped; stored as the SHA-256 of the bare form. */
function recoveryCode(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(12);
  const bare = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${bare.slice(0, 4)}-${bare.slice(4, 8)}-${bare.slice(8)}`;
}

const bare = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

export interface TwoFactorRow {
  secret: string;
  enabled: boolean;
  lastStep: number | null;
}

export async function readTwoFactor(
  db: Kysely<AuthDatabase>,
  employeeId: number,
): Promise<TwoFactorRow | null> {
  const row = await db
    .selectFrom('two_factor')
    .select(['secret', 'enabled_at', 'last_step'])
    .where('employee_id', '=', employeeId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    secret: row.secret,
    enabled: row.enabled_at !== null,
    lastStep: row.last_step === null ? null : Number(row.last_step),
  };
}

/** Whether a role of these requires two-factor sign-in (the system setting). */
export async function requiredForRoles(
  db: Kysely<AuthDatabase>,
  roleIds: readonly number[],
): Promise<boolean> {
  if (roleIds.length === 0) return false;
  const row = await db
    .selectFrom('two_factor_required_roles')
    .select('role_id')
    .where('role_id', 'in', [...roleIds])
    .executeTakeFirst();
  return row !== undefined;
}

export async function requiredRoleIds(db: Kysely<AuthDatabase>): Promise<number[]> {
  const rows = await db
    .selectFrom('two_factor_required_roles')
    .select('role_id')
    .orderBy('role_id')
    .execute();
  return rows.map((r) => Number(r.role_id));
}

export async function setRequiredRoleIds(
  db: Kysely<AuthDatabase>,
  roleIds: readonly number[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('two_factor_required_roles').execute();
    if (roleIds.length)
      await trx
        .insertInto('two_factor_required_roles')
        .values([...new Set(roleIds)].map((role_id) => ({ role_id })))
        .execute();
  });
}

/**
 * A new secret for an employee not enrolled yet (a setup started again replaces the earlier
 * one): the `otpauth://` URI, its QR code and the secret for typing in.
 */
export async function beginSetup(
  db: Kysely<AuthDatabase>,
  employeeId: number,
  label: string,
  issuer: string,
): Promise<TwoFactorSetupResult> {
  const secret = new Secret({ size: 20 }).base32;
  const now = iso(new Date());
  await db
    .insertInto('two_factor')
    .values({ employee_id: employeeId, secret, enabled_at: null, last_step: null, created_at: now })
    .onConflict((oc) => oc.column('employee_id').doUpdateSet({ secret, last_step: null, created_at: now }))
    .execute();
  const uri = totp(secret, label, issuer).toString();
  const qr = await qrDataUrl(uri, { margin: 2, width: 240 });
  return { uri, qr, secret };
}

/**
 * Takes the step of `code` for the employee if no code of that step or a later one was taken:
 * one conditional UPDATE, so the same code sent twice at once is accepted once.
 */
async function takeStep(
  db: Kysely<AuthDatabase>,
  employeeId: number,
  step: number,
  enable: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('two_factor')
    .set(enable ? { last_step: step, enabled_at: iso(new Date()) } : { last_step: step })
    .where('employee_id', '=', employeeId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .where('enabled_at', enable ? 'is' : 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Turns two-factor sign-in on with the first code from the authenticator; answers the recovery
 * codes (replacing any earlier ones), or null when the code is wrong or there is no setup.
 */
export async function enable(
  db: Kysely<AuthDatabase>,
  employeeId: number,
  code: string,
): Promise<string[] | null> {
  const row = await readTwoFactor(db, employeeId);
  if (!row || row.enabled) return null;
  const step = matchingStep(row.secret, code);
  if (step === null || !(await takeStep(db, employeeId, step, true))) return null;
  const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('two_factor_recovery_codes').where('employee_id', '=', employeeId).execute();
    await trx
      .insertInto('two_factor_recovery_codes')
      .values(codes.map((c) => ({ employee_id: employeeId, code_hash: hashToken(bare(c)) })))
      .execute();
  });
  return codes;
}

/** Whether `code` is a current code of the employee's enabled secret never accepted before. */
export async function acceptCode(
  db: Kysely<AuthDatabase>,
  employeeId: number,
  code: string,
): Promise<boolean> {
  const row = await readTwoFactor(db, employeeId);
  if (!row?.enabled) return false;
  const step = matchingStep(row.secret, code);
  return step !== null && (await takeStep(db, employeeId, step, false));
}

/** Spends a recovery code: true when it was one of the employee's (it is gone afterwards). */
export async function spendRecoveryCode(
  db: Kysely<AuthDatabase>,
  employeeId: number,
  code: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('two_factor_recovery_codes')
    .where('employee_id', '=', employeeId)
    .where('code_hash', '=', hashToken(bare(code)))
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function recoveryCodesLeft(db: Kysely<AuthDatabase>, employeeId: number): Promise<number> {
  const row = await db
    .selectFrom('two_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('employee_id', '=', employeeId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Turns two-factor sign-in off: the secret and the recovery codes are deleted. */
export async function disable(db: Kysely<AuthDatabase>, employeeId: number): Promise<boolean> {
  const removed = await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('two_factor_recovery_codes').where('employee_id', '=', employeeId).execute();
    await trx.deleteFrom('two_factor_challenges').where('employee_id', '=', employeeId).execute();
    return trx.deleteFrom('two_factor').where('employee_id', '=', employeeId).executeTakeFirst();
  });
  return Number(removed.numDeletedRows) === 1;
}

/** Opens the second step of a sign-in; answers its token (stored hashed) and end. */
export async function openChallenge(
  db: Kysely<AuthDatabase>,
  input: {
    employeeId: number;
    purpose: TwoFactorChallengesTable['purpose'];
    identifier: string;
    fingerprintSession: string | null;
  },
): Promise<{ challenge: string; expiresAt: Date }> {
  const challenge = generateToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
  await db
    .insertInto('two_factor_challenges')
    .values({
      employee_id: input.employeeId,
      token_hash: hashToken(challenge),
      purpose: input.purpose,
      identifier: input.identifier.slice(0, 150),
      fingerprint_session: input.fingerprintSession,
      expires_at: iso(expiresAt),
      used_at: null,
      created_at: iso(now),
    })
    .execute();
  return { challenge, expiresAt };
}

/** An open challenge of `purpose` presented from the device it was issued to, or null. */
export async function findChallenge(
  db: Kysely<AuthDatabase>,
  challenge: string,
  purpose: TwoFactorChallengesTable['purpose'],
  fingerprintSession: string | null,
): Promise<{ id: number; employeeId: number; identifier: string } | null> {
  const row = await db
    .selectFrom('two_factor_challenges')
    .select(['id', 'employee_id', 'identifier', 'purpose', 'fingerprint_session', 'expires_at', 'used_at'])
    .where('token_hash', '=', hashToken(challenge))
    .executeTakeFirst();
  if (!row || row.used_at !== null || row.purpose !== purpose) return null;
  if ((toDate(row.expires_at)?.getTime() ?? 0) <= Date.now()) return null;
  if ((row.fingerprint_session ?? '') !== (fingerprintSession ?? '')) return null;
  return { id: Number(row.id), employeeId: Number(row.employee_id), identifier: row.identifier };
}

/** Marks a challenge used: true for the one request that did (a challenge is single-use). */
export async function spendChallenge(db: Kysely<AuthDatabase>, id: number): Promise<boolean> {
  const result = await db
    .updateTable('two_factor_challenges')
    .set({ used_at: iso(new Date()) })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
