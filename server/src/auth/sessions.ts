import type { Kysely } from 'kysely';
import { genderOf, type LoginAttempt, type SessionInfo } from '@mizan/contracts';
import { accountBlock, loadAccount, type Account } from './account';
import { compiledOnce, preparedOnPostgres } from '../db';
import { parseVersions, versionsColumn, type Versions } from '../db/counts';
import { accountCacheOf } from './accountCache';
import { describeAgent } from './device';
import { iso, toDate } from './db';
import type { MessageKey } from './messages';
import { envPolicy, policyTtlMs } from './policy';
import { generateToken, hashToken } from './tokens';
import { truthy, type AuthDatabase, type AuthUser } from './types';

/** Sliding expiry is written at most this often per session, so reads do not turn into writes. */
const TOUCH_EVERY_MS = 60_000;

/** Idle lifetime when the caller gives none: `MIZAN_SESSION_HOURS` (default 12). */
const defaultTtl = () => policyTtlMs(envPolicy());

export interface NewSession {
  employeeId: number;
  fingerprintSession: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** Opens a session and returns its token; only the token's hash is stored. */
export async function createSession(
  db: Kysely<AuthDatabase>,
  input: NewSession,
  now = new Date(),
  ttlMs = defaultTtl(),
): Promise<{ token: string; sessionId: number; expiresAt: Date }> {
  const token = generateToken();
  const expiresAt = new Date(now.getTime() + ttlMs);
  const row = await db
    .insertInto('sessions')
    .values({
      employee_id: input.employeeId,
      token_hash: hashToken(token),
      fingerprint_session: input.fingerprintSession,
      ip: input.ip,
      user_agent: input.userAgent?.slice(0, 500) ?? null,
      created_at: iso(now),
      last_seen_at: iso(now),
      expires_at: iso(expiresAt),
      revoked_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, sessionId: Number(row.id), expiresAt };
}

export type SessionResult =
  | {
      ok: true;
      user: AuthUser;
      account: Account;
      /** Every entity's write version, read with the session (before anything else of the request). */
      versions: Versions;
    }
  | { ok: false; status: 401 | 403; reason: MessageKey };

/** The idle lifetime of sessions, or how to read it: asked only when an expiry slides. */
export type SessionTtl = number | (() => Promise<number>);

// Named columns, not `*`: a statement prepared by name on PostgreSQL fails ("cached plan must not
// change result type") once another instance's migration adds a column to the table it selects all of.
const compileSessionQuery = (db: Kysely<AuthDatabase>) =>
  db
    .selectFrom('sessions')
    .select(['id', 'employee_id', 'fingerprint_session', 'last_seen_at', 'expires_at', 'revoked_at'])
    .select(versionsColumn(db).as('versions'))
    .where('token_hash', '=', '')
    .compile();

/**
 * `resolveSession`'s statement for the session of `tokenHash` with every write version, compiled
 * once (every authenticated request runs it) and given the hash as its one parameter.
 */
function sessionQuery(db: Kysely<AuthDatabase>, tokenHash: string): ReturnType<typeof compileSessionQuery> {
  const compiled = compiledOnce(db, 'session', () => {
    const built = compileSessionQuery(db);
    if (built.parameters.length !== 1) throw new Error('the session statement has one parameter');
    preparedOnPostgres(built.sql);
    return built;
  });
  return { ...compiled, parameters: [tokenHash] };
}

/**
 * Checks a bearer token: known, not revoked, not expired, presented with the fingerprint it was
 * issued to, and held by an employee who may still sign in. Slides the expiry on success, by
 * `ttlMs` (read then: at most once a minute per session, not on every request).
 */
export async function resolveSession(
  db: Kysely<AuthDatabase>,
  token: string | null | undefined,
  fingerprintSession: string | null | undefined,
  now = new Date(),
  ttlMs: SessionTtl = defaultTtl(),
): Promise<SessionResult> {
  if (!token) return { ok: false, status: 401, reason: 'tokenMissing' };
  // The write versions come with the session (one statement): the account's stamp and the
  // request's own reads (`request.versions`) use them.
  const [found] = (await db.executeQuery(sessionQuery(db, hashToken(token)))).rows;
  if (!found) return { ok: false, status: 401, reason: 'tokenInvalid' };
  const { versions: versionsText, ...session } = found;
  const versions = parseVersions(versionsText);
  if (session.revoked_at !== null) {
    // Banning or deactivating revokes the holder's sessions: their device is told why (403 with
    // the block), not "session ended". Only the device the session was issued to learns it.
    const sameDevice = (session.fingerprint_session ?? '') === (fingerprintSession ?? '');
    const holder = sameDevice ? await loadAccount(db, Number(session.employee_id)) : undefined;
    const block = holder ? accountBlock(holder) : null;
    return block
      ? { ok: false, status: 403, reason: block }
      : { ok: false, status: 401, reason: 'tokenInvalid' };
  }
  const expiresAt = toDate(session.expires_at);
  if (!expiresAt || expiresAt.getTime() <= now.getTime())
    return { ok: false, status: 401, reason: 'tokenInvalid' };
  if ((session.fingerprint_session ?? '') !== (fingerprintSession ?? '')) {
    return { ok: false, status: 401, reason: 'fingerprintMismatch' };
  }
  const cached = await accountCacheOf(db).load(db, Number(session.employee_id), versions);
  if (!cached) return { ok: false, status: 401, reason: 'tokenInvalid' };
  const { account } = cached;
  const block = accountBlock(account);
  if (block) return { ok: false, status: 403, reason: block };

  const lastSeen = toDate(session.last_seen_at)?.getTime() ?? 0;
  if (now.getTime() - lastSeen >= TOUCH_EVERY_MS) {
    const ttl = typeof ttlMs === 'number' ? ttlMs : await ttlMs();
    await db
      .updateTable('sessions')
      .set({ last_seen_at: iso(now), expires_at: iso(new Date(now.getTime() + ttl)) })
      .where('id', '=', session.id)
      .execute();
  }
  const { employee } = account;
  return {
    ok: true,
    account,
    versions,
    user: {
      id: employee.id,
      name: employee.name,
      email: employee.email,
      username: employee.username,
      permissions: cached.permissions,
      roleIds: account.roles.map((r) => r.id),
      sessionId: Number(session.id),
      passwordChangeRequired: truthy(employee.password_change_required),
      gender: genderOf(employee.gender),
    },
  };
}

export async function revokeSession(
  db: Kysely<AuthDatabase>,
  sessionId: number,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: iso(now) })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every open session of these employees (but `keepSessionId`); returns how many. */
export async function revokeEmployeeSessions(
  db: Kysely<AuthDatabase>,
  employeeIds: number[],
  options: { keepSessionId?: number; now?: Date } = {},
): Promise<number> {
  if (employeeIds.length === 0) return 0;
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: iso(options.now ?? new Date()) })
    .where('employee_id', 'in', employeeIds)
    .where('revoked_at', 'is', null);
  if (options.keepSessionId !== undefined) query = query.where('id', '<>', options.keepSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The employee's open sessions, the most recently used first; `currentId` marks this request's. */
export async function listOpenSessions(
  db: Kysely<AuthDatabase>,
  employeeId: number,
  currentId: number | null,
  now = new Date(),
): Promise<SessionInfo[]> {
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'ip', 'user_agent', 'created_at', 'last_seen_at'])
    .where('employee_id', '=', employeeId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', iso(now))
    .orderBy('last_seen_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    ...describeAgent(row.user_agent),
    ip: row.ip,
    signedInAt: toDate(row.created_at)!.toISOString(),
    lastSeenAt: toDate(row.last_seen_at)!.toISOString(),
    current: Number(row.id) === currentId,
  }));
}

/**
 * Revokes the employee's open sessions among `sessionIds` (all of them but `keepSessionId` when
 * `sessionIds` is null) and answers the ids ended, for the bus to close their sockets.
 */
export async function endSessions(
  db: Kysely<AuthDatabase>,
  employeeId: number,
  options: { sessionIds: number[] | null; keepSessionId?: number },
): Promise<number[]> {
  return db.transaction().execute(async (trx) => {
    let open = trx
      .selectFrom('sessions')
      .select('id')
      .where('employee_id', '=', employeeId)
      .where('revoked_at', 'is', null);
    if (options.sessionIds)
      open = open.where('id', 'in', options.sessionIds.length ? options.sessionIds : [0]);
    if (options.keepSessionId !== undefined) open = open.where('id', '<>', options.keepSessionId);
    const ids = (await open.execute()).map((r) => Number(r.id));
    if (ids.length === 0) return [];
    await trx
      .updateTable('sessions')
      .set({ revoked_at: iso(new Date()) })
      .where('id', 'in', ids)
      .where('revoked_at', 'is', null)
      .execute();
    return ids;
  });
}

/** The employee's last sign-in attempts, newest first (what the employee's page shows). */
export async function loginAttempts(
  db: Kysely<AuthDatabase>,
  employeeId: number,
  limit = 50,
): Promise<LoginAttempt[]> {
  const rows = await db
    .selectFrom('login_history')
    .select(['id', 'ip', 'user_agent', 'success', 'reason', 'created_at'])
    .where('employee_id', '=', employeeId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    at: toDate(row.created_at)!.toISOString(),
    ip: row.ip,
    ...describeAgent(row.user_agent),
    success: truthy(row.success),
    reason: row.reason,
  }));
}
