import type { Kysely } from 'kysely';
import { iso } from './db';
import type { AuthDatabase } from './types';

const DAY_MS = 86_400_000;

/** How long finished rows are kept: long enough to investigate, short enough that tables stay small. */
export const RETENTION_DAYS = {
  sessions: 30,
  passwordResets: 7,
  loginHistory: 365,
  outbox: 90,
  idempotencyKeys: 1,
} as const;

/**
 * Deletes sessions ended (expired or revoked) more than 30 days ago, resets past 7 days, login
 * history older than a year, mail older than 90 days and idempotency keys past their day. Runs at start and every few hours.
 */
export async function pruneAuthTables(
  db: Kysely<AuthDatabase>,
  now = new Date(),
): Promise<Record<string, number>> {
  const before = (days: number) => iso(new Date(now.getTime() - days * DAY_MS));
  const count = (r: { numDeletedRows: bigint }) => Number(r.numDeletedRows);
  const sessions = await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<', before(RETENTION_DAYS.sessions)),
        eb('revoked_at', '<', before(RETENTION_DAYS.sessions)),
      ]),
    )
    .executeTakeFirst();
  const resets = await db
    .deleteFrom('password_resets')
    .where('expires_at', '<', before(RETENTION_DAYS.passwordResets))
    .executeTakeFirst();
  const history = await db
    .deleteFrom('login_history')
    .where('created_at', '<', before(RETENTION_DAYS.loginHistory))
    .executeTakeFirst();
  const outbox = await db
    .deleteFrom('outbox')
    .where('created_at', '<', before(RETENTION_DAYS.outbox))
    .executeTakeFirst();
  const keys = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', before(RETENTION_DAYS.idempotencyKeys))
    .executeTakeFirst();
  return {
    idempotencyKeys: count(keys),
    sessions: count(sessions),
    passwordResets: count(resets),
    loginHistory: count(history),
    outbox: count(outbox),
  };
}
