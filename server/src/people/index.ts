import { PEOPLE_ROUTES, employees, type AuthUser } from '@mizan/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { authDb } from '../auth/db';
import { message, requestLang } from '../auth/messages';
import { actorOf } from '../engine/context';
import { defineRoute } from '../http/route';
import { installPeopleHooks } from './hooks';
import { installLockoutGuards } from './lockout';
import { PeopleService } from './service';

export { lockOut, installPeopleHooks } from './hooks';
export { PeopleService } from './service';

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
  const common = { tags: ['employees'], labels: 'auth.labels' };

  defineRoute(app, PEOPLE_ROUTES.profile, {
    ...common,
    handler: async (request) => ({
      // The service's user view is the contracts' `AuthUser` as the server builds it.
      data: (await service.profile(request.user)) as unknown as AuthUser,
    }),
  });

  defineRoute(app, PEOPLE_ROUTES.updateProfile, {
    ...common,
    // The profile's fields are the employee's: labelled as the employee form labels them.
    labels: `entities.${employees.name}.fields`,
    handler: async (request, { body }) => ({
      data: (await service.updateProfile(
        signedIn(request),
        body as Record<string, unknown>,
      )) as unknown as AuthUser,
    }),
  });

  defineRoute(app, PEOPLE_ROUTES.changePassword, {
    ...common,
    handler: async (request, { body }) => {
      const lang = requestLang(request);
      return { data: { message: await service.changePassword(signedIn(request), body, lang) } };
    },
  });

  defineRoute(app, PEOPLE_ROUTES.adminResetPassword, {
    ...common,
    handler: async (request, { body, params: { id } }) => {
      const lang = requestLang(request);
      return {
        data: { message: await service.adminResetPassword(signedIn(request), id, body.password, lang) },
      };
    },
  });

  defineRoute(app, PEOPLE_ROUTES.security, {
    ...common,
    handler: async (_request, { params: { id } }) => ({ data: await service.security(id) }),
  });

  defineRoute(app, PEOPLE_ROUTES.signOutEverywhere, {
    ...common,
    handler: async (request, { params: { id } }) => ({
      data: { ended: await service.signOutEverywhere(signedIn(request), id) },
    }),
  });

  defineRoute(app, PEOPLE_ROUTES.resetTwoFactor, {
    ...common,
    handler: async (request, { params: { id } }) => {
      await service.resetTwoFactor(signedIn(request), id);
      return { data: { message: message(requestLang(request), 'twoFactorReset') } };
    },
  });
};

// Decorates the root instance, so a second registration can tell it is already there.
(peoplePlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
