import { sql, type Kysely } from 'kysely';
import type { MessageKey } from './messages';
import { EMPLOYEE_ROLES, ROLE_PERMISSIONS } from './joins';
import { truthy, type AuthDatabase, type EmployeesTable } from './types';

export interface AccountRole {
  id: number;
  name: string;
  status: boolean;
  baned: boolean;
  Permissions: { id: number; key: string }[];
}

export interface Account {
  employee: Omit<EmployeesTable, 'id'> & { id: number };
  roles: AccountRole[];
}

/** The employee row with its roles and each role's permissions, or null when it does not exist. */
export async function loadAccount(db: Kysely<AuthDatabase>, employeeId: number): Promise<Account | null> {
  const employee = await db
    .selectFrom('employees')
    .selectAll()
    .where('id', '=', employeeId)
    .executeTakeFirst();
  if (!employee) return null;
  const roleRows = await sql<{ id: number; name: string; status: unknown; baned: unknown }>`
    select r.id, r.name, r.status, r.baned
    from ${sql.table(EMPLOYEE_ROLES.table)} j
    join roles r on r.id = j.${sql.ref(EMPLOYEE_ROLES.ref)}
    where j.${sql.ref(EMPLOYEE_ROLES.owner)} = ${employeeId}
    order by r.id`.execute(db);
  const roles: AccountRole[] = roleRows.rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    status: truthy(r.status),
    baned: truthy(r.baned),
    Permissions: [],
  }));
  if (roles.length > 0) {
    const ids = roles.map((r) => r.id);
    const perms = await sql<{ role_id: number; id: number; key: string }>`
      select j.${sql.ref(ROLE_PERMISSIONS.owner)} as role_id, p.id, p.${sql.ref('key')} as ${sql.ref('key')}
      from ${sql.table(ROLE_PERMISSIONS.table)} j
      join permissions p on p.id = j.${sql.ref(ROLE_PERMISSIONS.ref)}
      where j.${sql.ref(ROLE_PERMISSIONS.owner)} in (${sql.join(ids)})
      order by p.${sql.ref('key')}`.execute(db);
    const byId = new Map(roles.map((r) => [r.id, r]));
    for (const p of perms.rows)
      byId.get(Number(p.role_id))?.Permissions.push({ id: Number(p.id), key: p.key });
  }
  return { employee: { ...employee, id: Number(employee.id) }, roles };
}

/**
 * Why this account may not be used, or null. A banned or inactive employee is refused, and so is an
 * employee holding a banned or inactive role: banning a role locks out everyone who holds it.
 */
export function accountBlock(account: Account): MessageKey | null {
  if (truthy(account.employee.baned)) return 'employeeBanned';
  if (!truthy(account.employee.status)) return 'employeeInactive';
  if (account.roles.some((r) => r.baned || !r.status)) return 'roleBlocked';
  return null;
}

export function accountPermissions(account: Account): Set<string> {
  return new Set(account.roles.flatMap((r) => r.Permissions.map((p) => p.key)));
}
