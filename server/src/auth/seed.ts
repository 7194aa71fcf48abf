import { randomBytes } from 'node:crypto';
import { ALL_PERMISSIONS, SEEDED_ROLES } from '@mizan/contracts';
import type { Kysely } from 'kysely';
import type { Db } from '../db';
import { recountEntities } from '../db/counts';
import { iso } from './db';
import { EMPLOYEE_ROLES, ROLE_PERMISSIONS } from './joins';
import { PASSWORD_MIN, hashPassword } from './password';
import type { AuthDatabase } from './types';

export interface SeedOptions {
  adminEmail: string | null;
  adminPassword: string | null;
  /** Where the generated administrator password is printed, once (stdout by default). */
  print?: (text: string) => void;
}

export interface SeedResult {
  permissionsAdded: string[];
  rolesAdded: string[];
  /** Set when this run created the first administrator. */
  admin: { email: string; generatedPassword: string | null } | null;
}

export const DEFAULT_ADMIN_EMAIL = 'admin@mizan.local';

/** A 20-character password with letters and digits (passes the strength rule by construction). */
function generatedPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(18);
  const body = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${body}7a`;
}

/**
 * Idempotent start-up seed: every permission key of the registry, the seeded roles (a new
 * permission key goes to each seeded role whose rule takes it; roles edited by an administrator
 * are otherwise left alone) and, on a database without employees, the first administrator.
 * Safe to run from several instances at once: inserts skip existing rows.
 */
export async function seedAuth(dbAny: Db, options: SeedOptions): Promise<SeedResult> {
  const db = dbAny as Kysely<AuthDatabase>;
  const now = iso(new Date());
  const result: SeedResult = { permissionsAdded: [], rolesAdded: [], admin: null };

  const existing = new Set((await db.selectFrom('permissions').select('key').execute()).map((r) => r.key));
  const missing = ALL_PERMISSIONS.filter((p) => !existing.has(p.key));
  for (const p of missing) {
    const inserted = await db
      .insertInto('permissions')
      .values({ key: p.key, group: p.group, description: null, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) result.permissionsAdded.push(p.key);
  }
  const permissionIds = new Map(
    (await db.selectFrom('permissions').select(['id', 'key']).execute()).map((r) => [r.key, Number(r.id)]),
  );

  const joins = dbAny;
  for (const seeded of SEEDED_ROLES) {
    let role = await db.selectFrom('roles').select('id').where('name', '=', seeded.name).executeTakeFirst();
    if (!role) {
      // Databases seeded before the Arabic names hold the English one: renamed, not duplicated.
      role = await db
        .updateTable('roles')
        .set({ name: seeded.name, updated_at: now })
        .where('name', '=', seeded.en)
        .returning('id')
        .executeTakeFirst();
    }
    let keys: string[];
    if (!role) {
      role = await db
        .insertInto('roles')
        .values({
          name: seeded.name,
          description: null,
          lawyers: seeded.lawyers,
          status: true,
          baned: false,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.column('name').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!role) continue; // Another instance created it in the meantime and seeds it.
      result.rolesAdded.push(seeded.name);
      keys = [...permissionIds.keys()].filter(seeded.permissions);
    } else {
      keys = result.permissionsAdded.filter(seeded.permissions);
    }
    for (const key of keys) {
      await joins
        .insertInto(ROLE_PERMISSIONS.table)
        .values({ [ROLE_PERMISSIONS.owner]: Number(role.id), [ROLE_PERMISSIONS.ref]: permissionIds.get(key) })
        .onConflict((oc) => oc.columns([ROLE_PERMISSIONS.owner, ROLE_PERMISSIONS.ref]).doNothing())
        .execute();
    }
  }

  const anyEmployee = await db.selectFrom('employees').select('id').limit(1).executeTakeFirst();
  if (!anyEmployee) result.admin = await createFirstAdmin(db, dbAny, options, now);

  await recountEntities(dbAny, ['permissions', 'roles', 'employees']);
  return result;
}

/**
 * Brings the seeded roles of an existing database to what their rules now say for the keys
 * `which` selects: granted where the rule takes the key, withdrawn where it no longer does, and
 * the lawyers' flag of each seeded role set (a migration step's work when the rules change; roles
 * the office created or renamed are left alone). Keys not seeded yet get their grant from
 * `seedAuth` when they are.
 */
export async function reapplySeededRules(dbAny: Db, which: (key: string) => boolean): Promise<void> {
  const db = dbAny as Kysely<AuthDatabase>;
  const permissions = (await db.selectFrom('permissions').select(['id', 'key']).execute()).filter((p) =>
    which(p.key),
  );
  for (const seeded of SEEDED_ROLES) {
    const role = await db
      .selectFrom('roles')
      .select('id')
      .where('name', 'in', [seeded.name, seeded.en])
      .executeTakeFirst();
    if (!role) continue;
    const roleId = Number(role.id);
    await db.updateTable('roles').set({ lawyers: seeded.lawyers }).where('id', '=', roleId).execute();
    const grant = permissions.filter((p) => seeded.permissions(p.key)).map((p) => Number(p.id));
    const withdraw = permissions.filter((p) => !seeded.permissions(p.key)).map((p) => Number(p.id));
    if (withdraw.length)
      await dbAny
        .deleteFrom(ROLE_PERMISSIONS.table)
        .where(ROLE_PERMISSIONS.owner, '=', roleId)
        .where(ROLE_PERMISSIONS.ref, 'in', withdraw)
        .execute();
    for (const id of grant)
      await dbAny
        .insertInto(ROLE_PERMISSIONS.table)
        .values({ [ROLE_PERMISSIONS.owner]: roleId, [ROLE_PERMISSIONS.ref]: id })
        .onConflict((oc) => oc.columns([ROLE_PERMISSIONS.owner, ROLE_PERMISSIONS.ref]).doNothing())
        .execute();
  }
}

async function createFirstAdmin(
  db: Kysely<AuthDatabase>,
  joins: Db,
  options: SeedOptions,
  now: string,
): Promise<SeedResult['admin']> {
  // A password from the environment is ready to use; a generated one must be changed at first sign-in.
  const fromEnv = Boolean(options.adminPassword);
  if (options.adminPassword && options.adminPassword.length < PASSWORD_MIN) {
    throw new Error(`MIZAN_ADMIN_PASSWORD must be at least ${PASSWORD_MIN} characters`);
  }
  const email = (options.adminEmail ?? DEFAULT_ADMIN_EMAIL).trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email))
    throw new Error(`MIZAN_ADMIN_EMAIL is not an email address: "${email}"`);
  const password = fromEnv ? options.adminPassword! : generatedPassword();
  const username = email
    .split('@')[0]!
    .replace(/[^A-Za-z0-9._-]/g, '')
    .slice(0, 50)
    .padEnd(3, '0');
  const admin = await db
    .insertInto('employees')
    .values({
      name: 'مدير النظام',
      email,
      username,
      phone: null,
      job_title: null,
      password: await hashPassword(password),
      status: true,
      baned: false,
      password_change_required: !fromEnv,
      last_login_at: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!admin) return null;
  const role = await db
    .selectFrom('roles')
    .select('id')
    .where('name', '=', SEEDED_ROLES.find((r) => r.key === 'administrator')!.name)
    .executeTakeFirstOrThrow();
  await joins
    .insertInto(EMPLOYEE_ROLES.table)
    .values({ [EMPLOYEE_ROLES.owner]: Number(admin.id), [EMPLOYEE_ROLES.ref]: Number(role.id) })
    .execute();
  if (!fromEnv) {
    const print = options.print ?? ((text: string) => process.stdout.write(text));
    print(
      [
        '',
        '================ Mizan: first administrator ================',
        `  email:    ${email}`,
        `  username: ${username}`,
        `  password: ${password}`,
        '  This password is shown once; it must be changed at first sign-in.',
        '  Set MIZAN_ADMIN_EMAIL and MIZAN_ADMIN_PASSWORD to choose them instead.',
        '=============================================================',
        '',
      ].join('\n'),
    );
  }
  return { email, generatedPassword: fromEnv ? null : password };
}
