import { API_BASE, PEOPLE, createSchema, employees, permissionKey } from '@mizan/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authDb } from '../auth/db';
import { docs } from '../auth/docs';
import { requirePermission } from '../auth/guard';
import { requestLang } from '../auth/messages';
import { parseBody } from '../auth/validate';
import { actorOf } from '../engine/context';
import { pathId } from '../engine/plugin';
import { parseOrThrow } from '../http/validation';
import { installPeopleHooks } from './hooks';
import { installLockoutGuards } from './lockout';
import { PeopleService, PROFILE_FIELDS } from './service';

export { lockOut, installPeopleHooks } from './hooks';
export { PeopleService } from './service';

/** `PUT /api/employees/employees/resetPassword/:id`: an administrator sets a temporary password. */
export const ADMIN_RESET_PASSWORD_PATH = `${employees.path}/resetPassword/:id`;

const changePasswordBody = z.object({
  currentPassword: z.string().min(1).max(1024),
  newPassword: z.string().min(1).max(1024),
});
const adminResetBody = z.object({ password: z.string().min(1).max(1024) });

/** The profile form: the employee definition's own rules for these fields, each optional. */
function profileSchemaFor() {
  return createSchema(employees)
    .pick(
      Object.fromEntries(PROFILE_FIELDS.map((key) => [key, true])) as Record<
        (typeof PROFILE_FIELDS)[number],
        true
      >,
    )
    .partial();
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Profile and password logic (people plugin). */
    people: PeopleService;
  }
}

function signedIn(request: FastifyRequest) {
  return { ...actorOf(request), user: request.user };
}

/**
 * Employees beyond the generic pattern: password hashing and strength on create, forced change
 * for accounts opened by an administrator, lock-out on ban or deactivation (of the employee or of
 * a role they hold), and the profile and password routes. Needs the auth plugin registered first.
 */
export const peoplePlugin: FastifyPluginAsync = async (app) => {
  // app.ts registers it once, after the auth plugin; a second registration is a no-op.
  if (app.hasDecorator('people')) return;
  installPeopleHooks(app.entities);
  installLockoutGuards(app.entities);
  const db = authDb(app);
  const service = new PeopleService({
    appDb: app.db,
    db,
    employees: app.entities.get('employees'),
    auth: app.auth.service,
    limiters: app.auth.limiters,
    bus: app.bus,
  });
  app.decorate('people', service);
  const profileSchema = profileSchemaFor();
  const tags = ['employees'];

  app.get(
    API_BASE + PEOPLE.profile,
    {
      preHandler: requirePermission(null),
      ...docs({ tags, summary: 'The signed-in employee', secured: true }),
    },
    async (request) => ({
      data: await service.profile(request.user),
    }),
  );

  app.put(
    API_BASE + PEOPLE.profile,
    {
      preHandler: requirePermission(null),
      ...docs({ tags, summary: 'Update the own profile', body: profileSchema, secured: true }),
    },
    async (request) => {
      const values = parseOrThrow(profileSchema, request.body ?? {}, employees.name) as Record<
        string,
        unknown
      >;
      return { data: await service.updateProfile(signedIn(request), values) };
    },
  );

  app.put(
    API_BASE + PEOPLE.changePassword,
    {
      preHandler: requirePermission(null),
      ...docs({ tags, summary: 'Change the own password', body: changePasswordBody, secured: true }),
    },
    async (request) => {
      const lang = requestLang(request);
      const body = parseBody(changePasswordBody, request.body, lang);
      return { data: { message: await service.changePassword(signedIn(request), body, lang) } };
    },
  );

  app.put(
    API_BASE + ADMIN_RESET_PASSWORD_PATH,
    {
      preHandler: requirePermission(permissionKey(employees, 'update')),
      ...docs({
        tags,
        summary: 'Set a temporary password (forces a change)',
        body: adminResetBody,
        secured: true,
      }),
    },
    async (request) => {
      const lang = requestLang(request);
      const id = pathId((request.params as { id?: string }).id);
      const { password } = parseBody(adminResetBody, request.body, lang);
      return { data: { message: await service.adminResetPassword(signedIn(request), id, password, lang) } };
    },
  );
};

// Decorates the root instance, so a second registration can tell it is already there.
(peoplePlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
