import { SEEDED_ROLES } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import { adjustCount } from '../../db/counts';
import { EMPLOYEE_ROLES } from '../joins';
import { hashPassword } from '../password';

/** The stored (Arabic) names of the seeded roles, by key: `SEEDED.lawyer` is 'محامٍ'. */
export const SEEDED = Object.fromEntries(SEEDED_ROLES.map((r) => [r.key, r.name])) as Record<
  'administrator' | 'lawyer' | 'secretary',
  string
>;

export interface EmployeeFixture {
  name?: string;
  email: string;
  username: string;
  password?: string;
  /** Role names; a seeded role may be named by its English name ('Lawyer'). */
  roles?: string[];
  status?: boolean;
  baned?: boolean;
  passwordChangeRequired?: boolean;
}

/** Inserts an employee with the named roles straight into the tables (the engine is not under test here). */
export async function insertEmployee(db: Db, e: EmployeeFixture): Promise<number> {
  const now = new Date().toISOString();
  const row = await db
    .insertInto('employees')
    .values({
      name: e.name ?? e.username,
      email: e.email,
      username: e.username,
      password: await hashPassword(e.password ?? 'Secret-pass-1'),
      status: e.status ?? true,
      baned: e.baned ?? false,
      password_change_required: e.passwordChangeRequired ?? false,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  for (const name of e.roles ?? []) {
    const stored = SEEDED_ROLES.find((r) => r.en === name)?.name ?? name;
    const role = await db
      .selectFrom('roles')
      .select('id')
      .where('name', '=', stored)
      .executeTakeFirstOrThrow();
    await db
      .insertInto(EMPLOYEE_ROLES.table)
      .values({ [EMPLOYEE_ROLES.owner]: id, [EMPLOYEE_ROLES.ref]: Number(role.id) })
      .execute();
  }
  await adjustCount(db, 'employees', 1);
  return id;
}

export const FINGERPRINT = 'fp-device-1';

export function headers(token?: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'x-fingerprint-session': FINGERPRINT,
    'accept-language': 'en',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...extra,
  };
}

/** Signs in and returns the token (fails the test on any other answer). */
export async function signIn(
  app: FastifyInstance,
  identifier: string,
  password = 'Secret-pass-1',
  extra: Record<string, string> = {},
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: headers(undefined, extra),
    payload: { email: identifier, password },
  });
  if (res.statusCode !== 200)
    throw new Error(`sign-in of ${identifier} answered ${res.statusCode}: ${res.body}`);
  return res.json().data.token as string;
}
