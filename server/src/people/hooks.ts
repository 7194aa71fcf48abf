import type { Kysely } from 'kysely';
import { AppError } from '../http/errors';
import { requestLanguage } from '../http/messages';
import { registerEntityHooks, type HookContext } from '../engine/hooks';
import { EMPLOYEE_ROLES } from '../auth/joins';
import { hashPassword, passwordProblem } from '../auth/password';
import { envPolicy, securityPolicy } from '../auth/policy';
import { revokeEmployeeSessions } from '../auth/sessions';
import type { AuthDatabase } from '../auth/types';
import { disconnectEmployee } from '../ws/hub';

/**
 * Revokes every session of these employees in the write's transaction and closes their sockets
 * (close code 4403): a ban or deactivation takes effect on the very next request.
 */
export async function lockOut(ctx: Pick<HookContext, 'trx'>, employeeIds: number[]): Promise<void> {
  if (employeeIds.length === 0) return;
  await revokeEmployeeSessions(ctx.trx as unknown as Kysely<AuthDatabase>, employeeIds);
  for (const id of employeeIds) disconnectEmployee(id);
}

const turnedOff = (action: string, after: { status?: boolean; baned?: boolean } | null): boolean =>
  (action === 'baned' && after?.baned === true) || (action === 'status' && after?.status === false);

let installed = false;

/**
 * The employees' and roles' behaviour beyond the generic pattern. Hooks are process-wide (they get
 * the transaction from their context), so they are installed once however many apps start.
 */
export function installPeopleHooks(): void {
  if (installed) return;
  installed = true;

  registerEntityHooks('employees', {
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
      if (turnedOff(action, after)) await lockOut(ctx, [after!.id]);
      // Sessions go with the row (foreign key cascade); open sockets are closed here.
      if (action === 'delete' && before) disconnectEmployee(before.id);
    },
  });

  registerEntityHooks('roles', {
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
      );
    },
  });
}
