import type { ApiRow } from '../engine/serialize';
import type { Account, AccountRole } from './account';
import { truthy } from './types';

/**
 * The signed-in user as login, check and profile answer it (team brief): the employee row as the
 * engine serialises it, plus `Roles[].Permissions[]`, the flattened `permissions` keys,
 * `passwordChangeRequired` and `lastLoginAt`.
 */
export type UserView = ApiRow & {
  lastLoginAt: string | null;
  passwordChangeRequired: boolean;
  Roles: Pick<AccountRole, 'id' | 'name' | 'Permissions'>[];
  permissions: string[];
};

const instant = (value: unknown): string | null =>
  value === null || value === undefined ? null : value instanceof Date ? value.toISOString() : String(value);

export function userView(row: ApiRow, account: Account): UserView {
  return {
    ...row,
    lastLoginAt: instant(account.employee.last_login_at),
    passwordChangeRequired: truthy(account.employee.password_change_required),
    Roles: account.roles.map((r) => ({ id: r.id, name: r.name, Permissions: r.Permissions })),
    permissions: [...new Set(account.roles.flatMap((r) => r.Permissions.map((p) => p.key)))].sort(),
  };
}
