import type { Kysely } from 'kysely';
import { PROFILE_FIELDS } from '@mizan/contracts';
import { writeAudit } from '../audit/audit';
import type { ActorContext } from '../engine/context';
import type { EntityService } from '../engine/service';
import { AppError } from '../http/errors';
import { loadAccount } from '../auth/account';
import { iso } from '../auth/db';
import { fieldError, tooManyRequests } from '../auth/errors';
import { message, type Lang } from '../auth/messages';
import { hashPassword, passwordProblem, verifyPassword, writePassword } from '../auth/password';
import { securityPolicy } from '../auth/policy';
import type { Db } from '../db';
import type { AuthLimiters } from '../auth/rateLimit';
import type { AuthService } from '../auth/service';
import { fieldErrorText } from '../auth/service';
import type { AuthDatabase, AuthUser } from '../auth/types';
import type { UserView } from '../auth/userView';
import { revocation, type Bus } from '../bus';
import { listOpenSessions, loginAttempts, revokeEmployeeSessions } from '../auth/sessions';
import { disable as disableTwoFactor, readTwoFactor } from '../auth/twoFactor';
import type { EmployeeSecurity } from '@mizan/contracts';

/** Profile fields an employee may change about themself. */

export interface PeopleDeps {
  /** The app's database (the key of its security policy). */
  appDb: Db;
  db: Kysely<AuthDatabase>;
  employees: EntityService;
  auth: AuthService;
  limiters: AuthLimiters;
  /** Where ended sessions are announced after commit, so every instance closes their sockets. */
  bus: Pick<Bus, 'publish'>;
}

/** The profile and password routes' logic (routes stay thin). */
export class PeopleService {
  constructor(private readonly deps: PeopleDeps) {}

  /** Publishes a bus message (call after the transaction that caused it committed). */
  private announce({ channel, message }: ReturnType<typeof revocation>): void {
    this.deps.bus.publish(channel, message);
  }

  private async account(id: number) {
    const account = await loadAccount(this.deps.db, id);
    if (!account) throw new AppError('notFound', { messageKey: 'auth.notFound' });
    return account;
  }

  async profile(user: AuthUser): Promise<UserView> {
    return this.deps.auth.view(await this.account(user.id));
  }

  /**
   * Changes the caller's own name, email, username, phone and job title through the engine, so
   * uniqueness (409), validation (422), audit and real-time events are the same as everywhere.
   */
  async updateProfile(
    actor: ActorContext & { user: AuthUser },
    values: Record<string, unknown>,
  ): Promise<UserView> {
    // A patch: only the profile fields given change, everything else keeps its stored value.
    const input: Record<string, unknown> = {};
    for (const key of PROFILE_FIELDS) if (values[key] !== undefined) input[key] = values[key];
    await this.deps.employees.patch(actor, actor.user.id, input);
    return this.profile(actor.user);
  }

  /**
   * Checks the current password, stores the new one, clears `passwordChangeRequired`, keeps this
   * session and ends the others. Wrong current passwords count against the account like failed
   * logins (5 per 15 minutes).
   */
  async changePassword(
    actor: ActorContext & { user: AuthUser },
    input: { currentPassword: string; newPassword: string },
    lang: Lang,
  ): Promise<string> {
    const { db } = this.deps;
    const key = `employee:${actor.user.id}`;
    const lock = await this.deps.limiters.loginAccount.peek(key);
    if (!lock.allowed) throw tooManyRequests(lock.retryAfter);
    const row = await db
      .selectFrom('employees')
      .select('password')
      .where('id', '=', actor.user.id)
      .executeTakeFirst();
    if (!row || !(await verifyPassword(row.password, input.currentPassword))) {
      await this.deps.limiters.loginAccount.hit(key);
      throw fieldError('currentPassword', 'currentPasswordWrong');
    }
    const problem = passwordProblem(input.newPassword, lang, await securityPolicy(this.deps.appDb));
    if (problem) throw fieldErrorText('newPassword', problem);
    if (input.newPassword === input.currentPassword) throw fieldError('newPassword', 'passwordSameAsOld');

    const hash = await hashPassword(input.newPassword);
    const now = new Date();
    const others = await db.transaction().execute(async (trx) => {
      await writePassword(trx, actor.user.id, hash, { mustChange: false, at: now });
      const open = await trx
        .selectFrom('sessions')
        .select('id')
        .where('employee_id', '=', actor.user.id)
        .where('revoked_at', 'is', null)
        .where('id', '<>', actor.user.sessionId)
        .execute();
      await trx
        .updateTable('sessions')
        .set({ revoked_at: iso(now) })
        .where('employee_id', '=', actor.user.id)
        .where('revoked_at', 'is', null)
        .where('id', '<>', actor.user.sessionId)
        .execute();
      await writeAudit(trx, {
        employeeId: actor.user.id,
        entity: 'employees',
        entityId: actor.user.id,
        action: 'changePassword',
        ip: actor.ip ?? null,
      });
      return open.map((s) => Number(s.id));
    });
    this.announce(revocation({ sessionIds: others }));
    await this.deps.limiters.loginAccount.reset(key);
    return message(lang, 'passwordChanged');
  }

  /**
   * An administrator sets a temporary password: the employee must change it at the next sign-in,
   * and every open session of theirs ends now.
   */
  async adminResetPassword(
    actor: ActorContext & { user: AuthUser },
    id: number,
    password: string,
    lang: Lang,
  ): Promise<string> {
    const problem = passwordProblem(password, lang, await securityPolicy(this.deps.appDb));
    if (problem) throw fieldErrorText('password', problem);
    const { db } = this.deps;
    const exists = await db.selectFrom('employees').select('id').where('id', '=', id).executeTakeFirst();
    if (!exists) throw new AppError('notFound', { messageKey: 'auth.notFound' });
    const hash = await hashPassword(password);
    await db.transaction().execute(async (trx) => {
      await writePassword(trx, id, hash, { mustChange: true, at: new Date() });
      await revokeEmployeeSessions(trx, [id]);
      await writeAudit(trx, {
        employeeId: actor.user.id,
        entity: 'employees',
        entityId: id,
        action: 'resetPassword',
        ip: actor.ip ?? null,
      });
    });
    this.announce(revocation({ employeeIds: [id] }));
    await this.deps.limiters.loginAccount.reset(`employee:${id}`);
    return message(lang, 'passwordResetByAdmin');
  }

  /** 404 unless the employee exists. */
  private async employeeExists(id: number): Promise<void> {
    const row = await this.deps.db
      .selectFrom('employees')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new AppError('notFound', { messageKey: 'auth.notFound' });
  }

  /** An employee's open sessions, last sign-in attempts and whether two-factor sign-in is on. */
  async security(id: number): Promise<EmployeeSecurity> {
    await this.employeeExists(id);
    const [sessions, history, twoFactor] = await Promise.all([
      listOpenSessions(this.deps.db, id, null),
      loginAttempts(this.deps.db, id),
      readTwoFactor(this.deps.db, id),
    ]);
    return { sessions, history, twoFactorEnabled: !!twoFactor?.enabled };
  }

  /** Ends every session of the employee on every instance (audited); answers how many. */
  async signOutEverywhere(actor: ActorContext & { user: AuthUser }, id: number): Promise<number> {
    await this.employeeExists(id);
    const ended = await this.deps.auth.endSessions(id, { sessionIds: null });
    await writeAudit(this.deps.appDb, {
      employeeId: actor.user.id,
      entity: 'employees',
      entityId: id,
      action: 'signOutEverywhere',
      after: { sessionsEnded: ended.length },
      ip: actor.ip ?? null,
    });
    return ended.length;
  }

  /** Turns the employee's two-factor sign-in off (audited): they set it up again. */
  async resetTwoFactor(actor: ActorContext & { user: AuthUser }, id: number): Promise<void> {
    await this.employeeExists(id);
    const removed = await disableTwoFactor(this.deps.db, id);
    await writeAudit(this.deps.appDb, {
      employeeId: actor.user.id,
      entity: 'employees',
      entityId: id,
      action: 'resetTwoFactor',
      before: { twoFactorEnabled: removed },
      after: { twoFactorEnabled: false },
      ip: actor.ip ?? null,
    });
  }
}
