import { employees, getEntity, type StoredFile } from '@mizan/contracts';
import type { Kysely } from 'kysely';
import type { Account, AccountRole } from './account';
import { truthy, type AuthDatabase } from './types';

/** The signed-in user as login, check and profile answer it (team brief: row + Roles + permissions). */
export interface UserView {
  id: number;
  name: string;
  email: string;
  username: string;
  phone: string | null;
  jobTitle: string | null;
  branchId: number | null;
  branch: { id: number; name: string } | null;
  administrativeSectionId: number | null;
  administrativeSection: { id: number; name: string } | null;
  hireDate: string | null;
  notes: string | null;
  status: boolean;
  baned: boolean;
  roleIds: number[];
  roles: { id: number; name: string }[];
  files: StoredFile[];
  createdAt: string;
  updatedAt: string;
  lastLoginAt: string | null;
  passwordChangeRequired: boolean;
  Roles: Pick<AccountRole, 'id' | 'name' | 'Permissions'>[];
  permissions: string[];
}

const instant = (value: unknown): string | null =>
  value === null || value === undefined ? null : value instanceof Date ? value.toISOString() : String(value);

async function refName(
  db: Kysely<AuthDatabase>,
  field: 'branchId' | 'administrativeSectionId',
  id: unknown,
): Promise<{ id: number; name: string } | null> {
  if (id === null || id === undefined) return null;
  const definition = employees.fields[field];
  const target = getEntity(definition.entity);
  const row = await (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
    .selectFrom(target.table)
    .select(['id', target.titleField])
    .where('id', '=', Number(id))
    .executeTakeFirst();
  return row ? { id: Number(row.id), name: String(row[target.titleField]) } : null;
}

export async function userView(db: Kysely<AuthDatabase>, account: Account): Promise<UserView> {
  const e = account.employee as unknown as Record<string, unknown>;
  const files = await (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
    .selectFrom('files')
    .select(['id', 'original_name', 'mime_type', 'size', 'created_at'])
    .where('entity', '=', 'employees')
    .where('owner_id', '=', account.employee.id)
    .orderBy('id')
    .execute();
  const permissions = [...new Set(account.roles.flatMap((r) => r.Permissions.map((p) => p.key)))].sort();
  return {
    id: account.employee.id,
    name: account.employee.name,
    email: account.employee.email,
    username: account.employee.username,
    phone: (e.phone as string | null) ?? null,
    jobTitle: (e.job_title as string | null) ?? null,
    branchId: e.branch_id === null || e.branch_id === undefined ? null : Number(e.branch_id),
    branch: await refName(db, 'branchId', e.branch_id),
    administrativeSectionId:
      e.administrative_section_id === null || e.administrative_section_id === undefined
        ? null
        : Number(e.administrative_section_id),
    administrativeSection: await refName(db, 'administrativeSectionId', e.administrative_section_id),
    hireDate: (e.hire_date as string | null) ?? null,
    notes: (e.notes as string | null) ?? null,
    status: truthy(e.status),
    baned: truthy(e.baned),
    roleIds: account.roles.map((r) => r.id),
    roles: account.roles.map((r) => ({ id: r.id, name: r.name })),
    files: files.map((f) => ({
      id: Number(f.id),
      originalName: String(f.original_name),
      mimeType: String(f.mime_type),
      size: Number(f.size),
      createdAt: instant(f.created_at) ?? '',
    })),
    createdAt: instant(e.created_at) ?? '',
    updatedAt: instant(e.updated_at) ?? '',
    lastLoginAt: instant(e.last_login_at),
    passwordChangeRequired: truthy(e.password_change_required),
    Roles: account.roles.map((r) => ({ id: r.id, name: r.name, Permissions: r.Permissions })),
    permissions,
  };
}
