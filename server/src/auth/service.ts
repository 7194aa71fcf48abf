import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  LoginResult,
  TwoFactorChallenge,
  TwoFactorEnableResult,
  TwoFactorSetupResult,
  TwoFactorStatus,
} from '@mizan/contracts';
import { revocation, type Bus } from '../bus';
import { AppError } from '../http/errors';
import type { Db } from '../db';
import type { Trx } from '../engine/context';
import type { ApiRow } from '../engine/serialize';
import { policyTtlMs, type SecurityPolicy } from './policy';
import type { Mailer } from '../mail/mailer';
import { accountBlock, loadAccount, type Account } from './account';
import { iso, toDate } from './db';
import { authError, fieldError, tooManyRequests } from './errors';
import { message, type Lang, type MessageKey } from './messages';
import { decoyHash, hashPassword, passwordProblem, verifyPassword, writePassword } from './password';
import type { AuthLimiters } from './rateLimit';
import {
  createSession,
  endSessions,
  resolveSession,
  revokeEmployeeSessions,
  revokeSession,
} from './sessions';
import {
  acceptCode,
  beginSetup,
  disable,
  enable,
  findChallenge,
  openChallenge,
  readTwoFactor,
  recoveryCodesLeft,
  requiredForRoles,
  spendChallenge,
  spendRecoveryCode,
} from './twoFactor';
import { generateCode, generateToken, hashToken, sameHash } from './tokens';
import type { AuthDatabase, AuthUser, EmployeesTable } from './types';
import { userView, type UserView } from './userView';

/** A reset link and code live 30 minutes; a code allows 5 wrong tries. */
export const RESET_TTL_MS = 30 * 60_000;
export const RESET_MAX_ATTEMPTS = 5;

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
  fingerprintSession: string | null;
}

export interface AuthServiceDeps {
  db: Kysely<AuthDatabase>;
  mailer: Mailer;
  limiters: AuthLimiters;
  log: { error(obj: object, msg: string): void };
  /** `MIZAN_PUBLIC_URL`: the origin put in reset links; the request's origin when null. */
  publicUrl: string | null;
  /** The employee row as the engine serialises it (the base of the user payload). */
  employeeRow: (id: number) => Promise<ApiRow>;
  /** Office name used in mail subjects. */
  officeName: () => Promise<string>;
  /** The session lifetime and password rules in force (system settings). */
  policy: (executor?: Db | Trx) => Promise<SecurityPolicy>;
  /** Where ended sessions are announced, so every instance closes their sockets. */
  bus: Pick<Bus, 'publish'>;
}

const REASON: Record<MessageKey & ('employeeBanned' | 'employeeInactive' | 'roleBlocked'), string> = {
  employeeBanned: 'banned',
  employeeInactive: 'inactive',
  roleBlocked: 'role_blocked',
};

const normalise = (value: string) => value.trim().toLowerCase();

/** A sign-in that passed every step. */
export interface SignedIn {
  user: UserView;
  token: string;
  passwordChangeRequired: boolean;
}

/** Login, session check, sign-out and password reset: the logic behind `/api/auth` (routes stay thin). */
export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  private async ttl(): Promise<number> {
    return policyTtlMs(await this.deps.policy());
  }

  /** The employee whose email or username is `identifier` (case-insensitive). */
  async findByIdentifier(identifier: string): Promise<Selectable<EmployeesTable> | undefined> {
    const value = normalise(identifier);
    if (!value) return undefined;
    return this.db
      .selectFrom('employees')
      .selectAll()
      .where((eb) => eb.or([eb(sql`lower(email)`, '=', value), eb(sql`lower(username)`, '=', value)]))
      .orderBy('id')
      .executeTakeFirst();
  }

  private async findByEmail(email: string): Promise<Selectable<EmployeesTable> | undefined> {
    return this.db
      .selectFrom('employees')
      .selectAll()
      .where(sql`lower(email)`, '=', normalise(email))
      .executeTakeFirst();
  }

  private async record(
    employeeId: number | null,
    identifier: string,
    client: ClientInfo,
    success: boolean,
    reason: string | null,
  ): Promise<void> {
    await this.db
      .insertInto('login_history')
      .values({
        employee_id: employeeId,
        identifier: identifier.slice(0, 150),
        ip: client.ip,
        user_agent: client.userAgent?.slice(0, 500) ?? null,
        success,
        reason,
        created_at: iso(new Date()),
      })
      .execute();
  }

  async login(
    input: { identifier: string; password: string },
    client: ClientInfo,
  ): Promise<SignedIn | TwoFactorChallenge> {
    const byIp = await this.deps.limiters.loginIp.hit(client.ip ?? 'unknown');
    if (!byIp.allowed) throw tooManyRequests(byIp.retryAfter);

    const employee = await this.findByIdentifier(input.identifier);
    // Failures count per account (email and username share one counter) or per unknown identifier.
    const accountKey = employee ? `employee:${employee.id}` : `identifier:${normalise(input.identifier)}`;
    const lock = await this.deps.limiters.loginAccount.peek(accountKey);
    if (!lock.allowed) {
      await this.record(employee ? Number(employee.id) : null, input.identifier, client, false, 'locked');
      throw tooManyRequests(lock.retryAfter);
    }

    // Verifying against a decoy when the account is unknown keeps both answers equally slow.
    const valid = await verifyPassword(employee?.password ?? (await decoyHash()), input.password);
    if (!employee || !valid) {
      await this.deps.limiters.loginAccount.hit(accountKey);
      await this.record(
        employee ? Number(employee.id) : null,
        input.identifier,
        client,
        false,
        employee ? 'wrong_password' : 'unknown_account',
      );
      throw authError('unauthorized', 'badCredentials');
    }

    const account = (await loadAccount(this.db, Number(employee.id)))!;
    const block = accountBlock(account);
    if (block) {
      await this.record(
        account.employee.id,
        input.identifier,
        client,
        false,
        REASON[block as keyof typeof REASON],
      );
      throw authError('forbidden', block);
    }

    const second = await this.secondStep(account, input.identifier, client);
    if (second) return second;
    return this.complete(account, input.identifier, client, null);
  }

  /**
   * What a right password still needs: a code when two-factor sign-in is on, an enrolment when a
   * role of the employee requires it and it is not set up; null when nothing (sign in now).
   */
  private async secondStep(
    account: Account,
    identifier: string,
    client: ClientInfo,
  ): Promise<TwoFactorChallenge | null> {
    const employeeId = account.employee.id;
    const state = await readTwoFactor(this.db, employeeId);
    const required = await requiredForRoles(
      this.db,
      account.roles.map((r) => r.id),
    );
    const purpose = state?.enabled ? 'verify' : required ? 'enrol' : null;
    if (!purpose) return null;
    const { challenge, expiresAt } = await openChallenge(this.db, {
      employeeId,
      purpose,
      identifier,
      fingerprintSession: client.fingerprintSession,
    });
    const step =
      purpose === 'verify'
        ? { twoFactorRequired: true as const }
        : { twoFactorEnrolmentRequired: true as const };
    return { ...step, challenge, expiresAt: expiresAt.toISOString() };
  }

  /** Opens the session of a sign-in that passed every step; `how` is kept in the sign-in history. */
  private async complete(
    account: Account,
    identifier: string,
    client: ClientInfo,
    how: 'two_factor' | 'recovery_code' | 'two_factor_enrolled' | null,
  ): Promise<SignedIn> {
    await this.deps.limiters.loginAccount.reset(`employee:${account.employee.id}`);
    const now = new Date();
    const { token } = await createSession(
      this.db,
      { employeeId: account.employee.id, ...client },
      now,
      await this.ttl(),
    );
    await this.db
      .updateTable('employees')
      .set({ last_login_at: iso(now) })
      .where('id', '=', account.employee.id)
      .execute();
    account.employee.last_login_at = iso(now);
    await this.record(account.employee.id, identifier, client, true, how);
    const user = await this.view(account);
    return { user, token, passwordChangeRequired: user.passwordChangeRequired };
  }

  /**
   * An open challenge of `purpose` for this device with its account, checked like a sign-in:
   * 401 when it is unknown, used or expired, 429 while the account is locked, 403 when blocked.
   */
  private async challengeAccount(
    challenge: string,
    purpose: 'verify' | 'enrol',
    client: ClientInfo,
  ): Promise<{ found: { id: number; employeeId: number; identifier: string }; account: Account }> {
    const found = await findChallenge(this.db, challenge, purpose, client.fingerprintSession);
    if (!found) throw authError('unauthorized', 'twoFactorChallengeInvalid');
    const lock = await this.deps.limiters.loginAccount.peek(`employee:${found.employeeId}`);
    if (!lock.allowed) {
      await this.record(found.employeeId, found.identifier, client, false, 'locked');
      throw tooManyRequests(lock.retryAfter);
    }
    const account = await loadAccount(this.db, found.employeeId);
    if (!account) throw authError('unauthorized', 'twoFactorChallengeInvalid');
    const block = accountBlock(account);
    if (block) {
      await this.record(
        found.employeeId,
        found.identifier,
        client,
        false,
        REASON[block as keyof typeof REASON],
      );
      throw authError('forbidden', block);
    }
    return { found, account };
  }

  /**
   * The second step of a sign-in: a current code from the authenticator (accepted once) or a
   * recovery code (gone once used). A wrong or reused one answers 401 and counts toward the
   * account's failed sign-ins (5 per 15 minutes, then 429), like a wrong password.
   */
  async verifySecondStep(
    input: { challenge: string; code?: string; recoveryCode?: string },
    client: ClientInfo,
  ): Promise<SignedIn> {
    const { found, account } = await this.challengeAccount(input.challenge, 'verify', client);
    const ok =
      input.code !== undefined
        ? await acceptCode(this.db, found.employeeId, input.code)
        : await spendRecoveryCode(this.db, found.employeeId, input.recoveryCode ?? '');
    if (!ok) {
      await this.deps.limiters.loginAccount.hit(`employee:${found.employeeId}`);
      const reason = input.code !== undefined ? 'wrong_code' : 'wrong_recovery_code';
      await this.record(found.employeeId, found.identifier, client, false, reason);
      throw authError('unauthorized', 'twoFactorCodeInvalid');
    }
    if (!(await spendChallenge(this.db, found.id)))
      throw authError('unauthorized', 'twoFactorChallengeInvalid');
    return this.complete(
      account,
      found.identifier,
      client,
      input.code !== undefined ? 'two_factor' : 'recovery_code',
    );
  }

  /** The employee whose enrolment a sign-in requires (an `enrol` challenge), for `/2fa/setup`. */
  async enrolmentEmployee(challenge: string, client: ClientInfo): Promise<number> {
    return (await this.challengeAccount(challenge, 'enrol', client)).account.employee.id;
  }

  /** `/2fa/setup`: a new secret for an employee whose two-factor sign-in is not on (409 when it is). */
  async setupTwoFactor(employeeId: number): Promise<TwoFactorSetupResult> {
    const state = await readTwoFactor(this.db, employeeId);
    if (state?.enabled) throw authError('conflict', 'twoFactorAlreadyEnabled');
    const account = (await loadAccount(this.db, employeeId))!;
    return beginSetup(this.db, employeeId, account.employee.email, await this.deps.officeName());
  }

  /**
   * `/2fa/enable`: the first code turns it on and answers ten recovery codes. Signed in, a wrong
   * code is a 422 on `code` (a 401 would sign the employee out); with an enrolment challenge it is
   * the sign-in's 401, counted like a wrong password, and a right one completes the sign-in.
   */
  async enableTwoFactor(
    input: { code: string; challenge?: string },
    signedIn: { employeeId: number } | null,
    client: ClientInfo,
  ): Promise<TwoFactorEnableResult> {
    const enrolment = signedIn ? null : await this.challengeAccount(input.challenge ?? '', 'enrol', client);
    const employeeId = signedIn?.employeeId ?? enrolment!.found.employeeId;
    const key = `employee:${employeeId}`;
    if (signedIn) {
      const lock = await this.deps.limiters.loginAccount.peek(key);
      if (!lock.allowed) throw tooManyRequests(lock.retryAfter);
    }
    const state = await readTwoFactor(this.db, employeeId);
    if (state?.enabled) throw authError('conflict', 'twoFactorAlreadyEnabled');
    if (!state) throw fieldError('code', 'twoFactorNoSetup');
    const recoveryCodes = await enable(this.db, employeeId, input.code);
    if (!recoveryCodes) {
      await this.deps.limiters.loginAccount.hit(key);
      if (signedIn) throw fieldError('code', 'twoFactorCodeInvalid');
      await this.record(employeeId, enrolment!.found.identifier, client, false, 'wrong_code');
      throw authError('unauthorized', 'twoFactorCodeInvalid');
    }
    if (!enrolment) return { recoveryCodes };
    if (!(await spendChallenge(this.db, enrolment.found.id)))
      throw authError('unauthorized', 'twoFactorChallengeInvalid');
    const login = await this.complete(
      enrolment.account,
      enrolment.found.identifier,
      client,
      'two_factor_enrolled',
    );
    return { recoveryCodes, login: login as unknown as LoginResult };
  }

  /**
   * `DELETE /2fa`: turns it off with a current code or the password (422 on the field when wrong,
   * counted toward the account's limit); refused while a role of the employee requires it.
   */
  async disableTwoFactor(user: AuthUser, input: { code?: string; password?: string }): Promise<void> {
    const key = `employee:${user.id}`;
    const lock = await this.deps.limiters.loginAccount.peek(key);
    if (!lock.allowed) throw tooManyRequests(lock.retryAfter);
    const state = await readTwoFactor(this.db, user.id);
    if (!state?.enabled) throw authError('conflict', 'twoFactorNotEnabled');
    if (await requiredForRoles(this.db, user.roleIds))
      throw authError('forbidden', 'twoFactorRequiredByRole');
    let ok: boolean;
    if (input.code !== undefined) ok = await acceptCode(this.db, user.id, input.code);
    else {
      const row = await this.db
        .selectFrom('employees')
        .select('password')
        .where('id', '=', user.id)
        .executeTakeFirst();
      ok = !!row && (await verifyPassword(row.password, input.password ?? ''));
    }
    if (!ok) {
      await this.deps.limiters.loginAccount.hit(key);
      throw input.code !== undefined
        ? fieldError('code', 'twoFactorCodeInvalid')
        : fieldError('password', 'currentPasswordWrong');
    }
    await disable(this.db, user.id);
  }

  /** The two-factor state shown on the profile. */
  async twoFactorStatus(user: AuthUser): Promise<TwoFactorStatus> {
    const state = await readTwoFactor(this.db, user.id);
    return {
      enabled: !!state?.enabled,
      required: await requiredForRoles(this.db, user.roleIds),
      recoveryCodesLeft: state?.enabled ? await recoveryCodesLeft(this.db, user.id) : 0,
    };
  }

  /** Ends sessions of an employee (all but `keep`, or those listed) now, on every instance. */
  async endSessions(
    employeeId: number,
    options: { sessionIds: number[] | null; keepSessionId?: number },
  ): Promise<number[]> {
    const ended = await endSessions(this.db, employeeId, options);
    if (ended.length) {
      const message = revocation({ sessionIds: ended, reason: 'tokenInvalid' });
      this.deps.bus.publish(message.channel, message.message);
    }
    return ended;
  }

  /** The session's user, or 401/403 (the guard's rules). */
  async check(
    token: string | null,
    fingerprintSession: string | null,
  ): Promise<{ user: UserView; auth: AuthUser }> {
    const result = await resolveSession(this.db, token, fingerprintSession, new Date(), () => this.ttl());
    if (!result.ok) throw authError(result.status === 401 ? 'unauthorized' : 'forbidden', result.reason);
    return { user: await this.view(result.account), auth: result.user };
  }

  async view(account: Account): Promise<UserView> {
    return userView(await this.deps.employeeRow(account.employee.id), account);
  }

  /**
   * Revokes the session of `token` if it is open and answers its id (null for unknown tokens:
   * signing out twice is fine). A token presented with another device's fingerprint is refused
   * (401) like on every other route: a stolen token alone cannot end its owner's session.
   */
  async logout(token: string | null, fingerprintSession: string | null): Promise<number | null> {
    if (!token) return null;
    const session = await this.db
      .selectFrom('sessions')
      .select(['id', 'fingerprint_session'])
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (!session) return null;
    if ((session.fingerprint_session ?? '') !== (fingerprintSession ?? ''))
      throw authError('unauthorized', 'fingerprintMismatch');
    await revokeSession(this.db, Number(session.id));
    // The socket of a signed-out session closes now, on every instance, not at the next recheck.
    const ended = revocation({ sessionIds: [Number(session.id)], reason: 'loggedOut' });
    this.deps.bus.publish(ended.channel, ended.message);
    return Number(session.id);
  }

  /**
   * Starts a reset: a random link token and a 6-digit code, single use, 30 minutes. Answers the
   * same whether or not the email is known; the mail leaves in the background so timing does not
   * tell either.
   */
  async forgotPassword(email: string, ip: string | null, lang: Lang, requestOrigin: string): Promise<string> {
    const byIp = await this.deps.limiters.forgotIp.hit(ip ?? 'unknown');
    if (!byIp.allowed) throw tooManyRequests(byIp.retryAfter);
    const byEmail = await this.deps.limiters.forgotEmail.hit(normalise(email));
    if (!byEmail.allowed) throw tooManyRequests(byEmail.retryAfter);

    const employee = await this.findByEmail(email);
    if (employee) {
      const account = (await loadAccount(this.db, Number(employee.id)))!;
      if (!accountBlock(account)) await this.issueReset(account, lang, requestOrigin);
    }
    return message(lang, 'forgotPasswordSent');
  }

  private async issueReset(account: Account, lang: Lang, requestOrigin: string): Promise<void> {
    const now = new Date();
    const token = generateToken();
    const code = generateCode();
    const employeeId = account.employee.id;
    await this.db.transaction().execute(async (trx) => {
      // A new request replaces any earlier one: only the latest link and code work.
      await closeOpenResets(trx, employeeId, now);
      await trx
        .insertInto('password_resets')
        .values({
          employee_id: employeeId,
          token_hash: hashToken(token),
          code_hash: hashToken(code),
          expires_at: iso(new Date(now.getTime() + RESET_TTL_MS)),
          used_at: null,
          created_at: iso(now),
        })
        .execute();
    });
    const origin = (this.deps.publicUrl ?? requestOrigin).replace(/\/+$/, '');
    const link = `${origin}/auth/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(account.employee.email)}`;
    const mail = await resetMail(lang, {
      name: account.employee.name,
      link,
      code,
      office: await this.deps.officeName(),
    });
    void this.deps.mailer
      .send({ to: account.employee.email, ...mail })
      .catch((err: unknown) => this.deps.log.error({ err }, 'password reset mail failed'));
  }

  /** An open reset of `token` for `email`, or null. */
  private async openResetByToken(token: string, email: string) {
    const row = await this.db
      .selectFrom('password_resets')
      .innerJoin('employees', 'employees.id', 'password_resets.employee_id')
      .select([
        'password_resets.id',
        'password_resets.employee_id',
        'password_resets.expires_at',
        'password_resets.used_at',
        'employees.email',
      ])
      .where('password_resets.token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (!row || row.used_at !== null) return null;
    if ((toDate(row.expires_at)?.getTime() ?? 0) <= Date.now()) return null;
    if (normalise(row.email) !== normalise(email)) return null;
    return row;
  }

  async verifyResetToken(
    token: string,
    email: string,
    ip: string | null,
  ): Promise<{ valid: true; email: string; expiresAt: string }> {
    const byIp = await this.deps.limiters.verifyIp.hit(ip ?? 'unknown');
    if (!byIp.allowed) throw tooManyRequests(byIp.retryAfter);
    const row = await this.openResetByToken(token, email);
    if (!row) throw fieldError('token', 'resetInvalid');
    return { valid: true, email: row.email, expiresAt: toDate(row.expires_at)!.toISOString() };
  }

  /** Trades a correct code for a reset token (the code is then spent); 5 wrong codes end the reset. */
  async verifyResetCode(
    email: string,
    code: string,
    ip: string | null,
  ): Promise<{ token: string; email: string }> {
    const byIp = await this.deps.limiters.verifyIp.hit(ip ?? 'unknown');
    if (!byIp.allowed) throw tooManyRequests(byIp.retryAfter);
    const employee = await this.findByEmail(email);
    const reset = employee
      ? await this.db
          .selectFrom('password_resets')
          .selectAll()
          .where('employee_id', '=', employee.id)
          .where('used_at', 'is', null)
          .where('expires_at', '>', iso(new Date()))
          .orderBy('id', 'desc')
          .executeTakeFirst()
      : undefined;
    if (!employee || !reset) throw fieldError('code', 'resetInvalid');
    if (reset.attempts >= RESET_MAX_ATTEMPTS) throw fieldError('code', 'resetTooManyAttempts');
    if (!sameHash(reset.code_hash, hashToken(code.trim()))) {
      await this.db
        .updateTable('password_resets')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', reset.id)
        .execute();
      throw fieldError(
        'code',
        reset.attempts + 1 >= RESET_MAX_ATTEMPTS ? 'resetTooManyAttempts' : 'resetInvalid',
      );
    }
    const token = generateToken();
    // The code is spent; the new token replaces the link's (one reset, one way in).
    await this.db
      .updateTable('password_resets')
      .set({ token_hash: hashToken(token), code_hash: '' })
      .where('id', '=', reset.id)
      .execute();
    return { token, email: employee.email };
  }

  async resetPassword(
    input: { token: string; email: string; password: string },
    lang: Lang,
  ): Promise<string> {
    const problem = passwordProblem(input.password, lang, await this.deps.policy());
    if (problem) throw fieldErrorText('password', problem);
    const row = await this.openResetByToken(input.token, input.email);
    if (!row) throw fieldError('token', 'resetInvalid');
    const employeeId = Number(row.employee_id);
    const hash = await hashPassword(input.password);
    const now = new Date();
    await this.db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('password_resets')
        .set({ used_at: iso(now) })
        .where('id', '=', row.id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      // Two requests racing with the same token: only the first one changes the password.
      if (Number(used.numUpdatedRows) !== 1) throw fieldError('token', 'resetInvalid');
      await closeOpenResets(trx, employeeId, now);
      await writePassword(trx, employeeId, hash, { mustChange: false, at: now });
      await revokeEmployeeSessions(trx, [employeeId], { now });
    });
    // After the commit: a rolled-back reset must not close anyone's sockets.
    const ended = revocation({ employeeIds: [employeeId], reason: 'tokenInvalid' });
    this.deps.bus.publish(ended.channel, ended.message);
    await this.deps.limiters.loginAccount.reset(`employee:${employeeId}`);
    return message(lang, 'resetDone');
  }
}

/** 422 on one field with a message already in the request's language. */
export function fieldErrorText(field: string, text: string): AppError {
  return new AppError('validation', { errors: { [field]: [text] } });
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The reset mail in the request's language: plain text and a right-to-left aware HTML part. */
export async function resetMail(
  lang: Lang,
  v: { name: string; link: string; code: string; office: string },
): Promise<{ subject: string; text: string; html: string }> {
  const minutes = RESET_TTL_MS / 60_000;
  const subject = message(lang, 'mailSubject', { office: v.office });
  const lines = [
    message(lang, 'mailGreeting', { name: v.name }),
    '',
    message(lang, 'mailBody', { minutes }),
    '',
    v.link,
    '',
    message(lang, 'mailCode', { code: v.code }),
    '',
    message(lang, 'mailIgnore'),
    '',
    v.office,
  ];
  const dir = lang === 'ar' ? 'rtl' : 'ltr';
  const html = `<!doctype html><html lang="${lang}" dir="${dir}"><body style="font-family:Tahoma,Arial,sans-serif;direction:${dir};text-align:${dir === 'rtl' ? 'right' : 'left'}">
<p>${escapeHtml(message(lang, 'mailGreeting', { name: v.name }))}</p>
<p>${escapeHtml(message(lang, 'mailBody', { minutes }))}</p>
<p><a href="${escapeHtml(v.link)}" style="display:inline-block;padding:10px 18px;background:#1d4ed8;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(message(lang, 'mailButton'))}</a></p>
<p style="font-size:20px;letter-spacing:4px"><strong dir="ltr">${escapeHtml(v.code)}</strong></p>
<p style="color:#666">${escapeHtml(message(lang, 'mailIgnore'))}</p>
<p>${escapeHtml(v.office)}</p>
</body></html>`;
  return { subject, text: lines.join('\n'), html };
}

/** Marks every still-open reset of the employee used, so that no earlier link or code works. */
async function closeOpenResets(trx: Kysely<AuthDatabase>, employeeId: number, now: Date): Promise<void> {
  await trx
    .updateTable('password_resets')
    .set({ used_at: iso(now) })
    .where('employee_id', '=', employeeId)
    .where('used_at', 'is', null)
    .execute();
}
