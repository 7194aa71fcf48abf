import {
  API_BASE,
  PEOPLE,
  adminResetPasswordBody,
  changePasswordBody,
  createSchema,
  employees,
  permissionKey,
} from '@mizan/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { EmployeeSecurity, MessageResult, SessionsEnded } from '@mizan/contracts';
import { authDb } from '../auth/db';
import { message, requestLang } from '../auth/messages';
import { actorOf } from '../engine/context';
import { pathId } from '../http/params';
import { defineRoute } from '../http/route';
import { installPeopleHooks } from './hooks';
import { installLockoutGuards } from './lockout';
import { PeopleService, PROFILE_FIELDS } from './service';

export { lockOut, installPeopleHooks } from './hooks';
export { PeopleService } from './service';

/** `PUT /api/employees/employees/resetPassword/:id`: an administrator sets a temporary password. */
export const ADMIN_RESET_PASSWORD_PATH = `${employees.path}/resetPassword/:id`;

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

  const signedInRoute = { tags, permission: null, labels: 'auth.labels' };

  defineRoute(app, {
    ...signedInRoute,
    method: 'GET',
    url: API_BASE + PEOPLE.profile,
    summary: 'The signed-in employee',
    handler: async (request) => ({ data: await service.profile(request.user) }),
  });

  defineRoute(app, {
    ...signedInRoute,
    method: 'PUT',
    url: API_BASE + PEOPLE.profile,
    summary: 'Update the own profile',
    body: profileSchema,
    // The profile's fields are the employee's: labelled as the employee form labels them.
    labels: `entities.${employees.name}.fields`,
    handler: async (request, { body }) => ({
      data: await service.updateProfile(signedIn(request), body as Record<string, unknown>),
    }),
  });

  defineRoute(app, {
    ...signedInRoute,
    method: 'PUT',
    url: API_BASE + PEOPLE.changePassword,
    summary: 'Change the own password',
    body: changePasswordBody,
    handler: async (request, { body }) => {
      const lang = requestLang(request);
      return { data: { message: await service.changePassword(signedIn(request), body, lang) } };
    },
  });

  defineRoute(app, {
    ...signedInRoute,
    method: 'PUT',
    url: API_BASE + ADMIN_RESET_PASSWORD_PATH,
    permission: permissionKey(employees, 'update'),
    summary: 'Set a temporary password (forces a change)',
    body: adminResetPasswordBody,
    handler: async (request, { body }) => {
      const lang = requestLang(request);
      const id = pathId((request.params as { id?: string }).id);
      return {
        data: { message: await service.adminResetPassword(signedIn(request), id, body.password, lang) },
      };
    },
  });

  const adminRoute = { tags, labels: 'auth.labels', permission: permissionKey(employees, 'update') };
  const targetId = (request: FastifyRequest) => pathId((request.params as { id?: string }).id);

  defineRoute(app, {
    ...adminRoute,
    method: 'GET',
    url: `${API_BASE + PEOPLE.sessions}/:id`,
    summary: "An employee's open sessions, last sign-in attempts and two-factor state",
    handler: async (request): Promise<{ data: EmployeeSecurity }> => ({
      data: await service.security(targetId(request)),
    }),
  });

  defineRoute(app, {
    ...adminRoute,
    method: 'POST',
    url: `${API_BASE + PEOPLE.signOutEverywhere}/:id`,
    summary: 'Sign an employee out everywhere (every session, on every instance at once)',
    handler: async (request): Promise<{ data: SessionsEnded }> => ({
      data: { ended: await service.signOutEverywhere(signedIn(request), targetId(request)) },
    }),
  });

  defineRoute(app, {
    ...adminRoute,
    method: 'DELETE',
    url: `${API_BASE + PEOPLE.resetTwoFactor}/:id`,
    summary: "Reset an employee's two-factor sign-in (they set it up again)",
    handler: async (request): Promise<{ data: MessageResult }> => {
      await service.resetTwoFactor(signedIn(request), targetId(request));
      return { data: { message: message(requestLang(request), 'twoFactorReset') } };
    },
  });
};

// Decorates the root instance, so a second registration can tell it is already there.
(peoplePlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
