import { employees, permissionKey, roles } from '@mizan/contracts';
import { sql } from 'kysely';
import { EMPLOYEE_ROLES, ROLE_PERMISSIONS } from '../auth/joins';
import type { HookContext } from '../engine/hooks';
import type { ApiRow } from '../engine/serialize';
import type { EntityServices } from '../engine/service';
import { AppError } from '../http/errors';

/**
 * Account management: whoever holds both permissions can change employees (their roles, a
 * temporary password) and roles (their permissions), so can repair any other lock-out. Someone
 * must always hold both.
 */
export const MANAGEMENT_PERMISSIONS = [permissionKey(roles, 'update'), permissionKey(employees, 'update')];

/**
 * How many employees could still manage accounts: active, not banned, every role of theirs active
 * and not banned (one blocked role blocks the whole account, auth/account.ts), and their roles
 * together granting every management permission. Read inside the write's transaction, so it sees
 * the write.
 */
export async function countManagers(ctx: Pick<HookContext, 'trx'>): Promise<number> {
  const er = sql.table(EMPLOYEE_ROLES.table);
  const rp = sql.table(ROLE_PERMISSIONS.table);
  const erOwner = sql.ref(`er.${EMPLOYEE_ROLES.owner}`);
  const erRef = sql.ref(`er.${EMPLOYEE_ROLES.ref}`);
  const { rows } = await sql<{ n: number | string }>`
    select count(*) as n from employees e
    where e.status = ${true} and e.baned = ${false}
      and not exists (
        select 1 from ${er} as er join roles r on r.id = ${erRef}
        where ${erOwner} = e.id and (r.status = ${false} or r.baned = ${true}))
      and (
        select count(distinct p.${sql.ref('key')})
        from ${er} as er
        join ${rp} as rp on ${sql.ref(`rp.${ROLE_PERMISSIONS.owner}`)} = ${erRef}
        join permissions p on p.id = ${sql.ref(`rp.${ROLE_PERMISSIONS.ref}`)}
        where ${erOwner} = e.id and p.${sql.ref('key')} in (${sql.join(MANAGEMENT_PERMISSIONS)})
      ) = ${MANAGEMENT_PERMISSIONS.length}`.execute(ctx.trx);
  return Number(rows[0]?.n ?? 0);
}

/** True when the change switches the row off: deactivated, banned or deleted. */
function switchedOff(action: string, before: ApiRow | null, after: ApiRow | null): boolean {
  const deactivated = before?.status !== false && after?.status === false;
  const banned = before?.baned !== true && after?.baned === true;
  return action === 'delete' || deactivated || banned;
}

/** A change that cannot take management away from anyone (a new row, a row switched back on). */
function cannotReduce(action: string, after: ApiRow | null): boolean {
  if (action === 'create') return true;
  if (action === 'status') return after?.status === true;
  if (action === 'baned') return after?.baned === false;
  return false;
}

const refuse = (key: 'lastAdministrator' | 'ownAccount' | 'ownRole') =>
  new AppError('conflict', { messageKey: `people.${key}` });

async function keepAManager(ctx: HookContext, action: string, after: ApiRow | null): Promise<void> {
  if (cannotReduce(action, after)) return;
  if ((await countManagers(ctx)) === 0) throw refuse('lastAdministrator');
}

/**
 * Refuses (409, whole write rolled back) what would lock the office out of its own accounts:
 * - switching off (deactivating, banning, deleting) one's own account or a role one holds;
 * - any change to employees or roles after which no one could manage accounts any more
 *   (`MANAGEMENT_PERMISSIONS`): the last such role or employee switched off, the permission
 *   taken from the last role that grants it, the role taken from the last employee holding it.
 * Runs after the write inside its transaction, so it judges the state the write would commit.
 */
export function installLockoutGuards(entities: EntityServices): void {
  entities.hooks('employees', {
    async afterChange(ctx, { action, before, after }) {
      const self = ctx.user && (after ?? before)?.id === ctx.user.id;
      if (self && switchedOff(action, before, after)) throw refuse('ownAccount');
      await keepAManager(ctx, action, after);
    },
  });
  entities.hooks('roles', {
    async afterChange(ctx, { action, before, after }) {
      const id = (after ?? before)?.id;
      const held = ctx.user && typeof id === 'number' && ctx.user.roleIds.includes(id);
      if (held && switchedOff(action, before, after)) throw refuse('ownRole');
      await keepAManager(ctx, action, after);
    },
  });
}
