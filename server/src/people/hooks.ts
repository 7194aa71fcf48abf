import type { Kysely } from 'kysely';
import { AppError } from '../http/errors';
import { requestLanguage } from '../http/messages';
import type { HookContext } from '../engine/hooks';
import type { EntityServices } from '../engine/service';
import { EMPLOYEE_ROLES } from '../auth/joins';
import { hashPassword, passwordProblem } from '../auth/password';
import { envPolicy, securityPolicy } from '../auth/policy';
import { revokeEmployeeSessions } from '../auth/sessions';
import type { AuthDatabase } from '../auth/types';
import { revocation } from '../bus';

/**
 * Revokes every session of these employees in the write's transaction (a ban or deactivation
 * takes effect on the very next request) and, once it commits, closes their sockets (4403) on
 * every instance through the bus. `reason` (an auth message key) travels in the close frame.
 */
export async function lockOut(
  ctx: Pick<HookContext, 'trx' | 'work'>,
  employeeIds: number[],
  reason?: string,
): Promise<void> {
  if (employeeIds.length === 0) return;
  await revokeEmployeeSessions(ctx.trx as unknown as Kysely<AuthDatabase>, employeeIds);
  ctx.work.events.push(revocation({ employeeIds, reason }));
}

const lockOutReason = (action: string) => (action === 'baned' ? 'employeeBanned' : 'employeeInactive');

const turnedOff = (action: string, after: { status?: boolean; baned?: boolean } | null): boolean =>
  (action === 'baned' && after?.baned === true) || (action === 'status' && after?.status === false);

/**
 * The employees' and roles' behaviour beyond the generic pattern, added to one app's entities
 * (hooks belong to the app instance: call once per app, from the people plugin).
 */
export function installPeopleHooks(entities: EntityServices): void {
  entities.hooks('employees', {
    async beforeCreate(ctx, values) {
      const lang = ctx.request ? requestLanguage(ctx.request) : 'ar';
      const rules = ctx.request ? await securityPolicy(ctx.request.server.db, ctx.trx) : envPolicy();
      const problem = passwordProblem(values.password, lang, rules);
      if (problem) throw new AppError('validation', { errors: { password: [problem] } });
      values.password = await hashPassword(String(values.password));
    },
    async afterChange(ctx, { action, before, after }) {
      // An account opened by someone else starts with a password its owner did not choose.
      if (action === 'create' && after && ctx.user) {
        await ctx.trx
          .updateTable('employees')
          .set({ password_change_required: true })
          .where('id', '=', after.id)
          .execute();
      }
      if (turnedOff(action, after)) await lockOut(ctx, [after!.id], lockOutReason(action));
      // Sessions go with the row (foreign key cascade); open sockets are closed here.
      if (action === 'delete' && before) ctx.work.events.push(revocation({ employeeIds: [before.id] }));
    },
  });

  entities.hooks('roles', {
    async afterChange(ctx, { action, after }) {
      if (!turnedOff(action, after)) return;
      const holders = await ctx.trx
        .selectFrom(EMPLOYEE_ROLES.table)
        .select(EMPLOYEE_ROLES.owner)
        .where(EMPLOYEE_ROLES.ref, '=', after!.id)
        .execute();
      await lockOut(
        ctx,
        holders.map((h: Record<string, unknown>) => Number(h[EMPLOYEE_ROLES.owner])),
        'roleBlocked',
      );
    },
  });
}
