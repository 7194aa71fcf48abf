import { AUTH_ROUTES, type CheckResult, type LoginAnswer, type LoginResult } from '@mizan/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type Redis from 'ioredis';
import type { Kysely } from 'kysely';
import { loadConfig, type Config } from '../config';
import type { Db } from '../db';
import { createMailer, type Mailer } from '../mail/mailer';
import { authDb } from './db';
import { defineRoute } from '../http/route';
import { authenticate, bearerToken, fingerprintSessionOf, requirePermission } from './guard';
import { listOpenSessions } from './sessions';
import { requiredRoleIds, setRequiredRoleIds } from './twoFactor';
import { message, requestLang } from './messages';
import { enableSettingsPolicy, policyTtlMs, securityPolicy } from './policy';
import { getPublicSettings } from '../settings/repository';
import { pruneAuthTables } from './prune';
import { createAuthLimiters, SharedCounting, type AuthLimiters } from './rateLimit';
import { seedAuth } from './seed';
import { AuthService, type ClientInfo } from './service';
import { resolveSession } from './sessions';
import { authError, fieldError } from './errors';
import { writeAudit } from '../audit/audit';
import type { AuthDatabase, AuthUser } from './types';

export { requirePermission, authenticate, guardRoutes } from './guard';
export { authMigrations } from './migrations';
export { revokeEmployeeSessions } from './sessions';
export type { AuthUser } from './types';
export type { UserView } from './userView';

declare module 'fastify' {
  interface FastifyInstance {
    /** Login, sessions and password reset (auth plugin); the people plugin uses it too. */
    auth: { service: AuthService; mailer: Mailer; limiters: AuthLimiters };
  }
}

export interface AuthPluginOptions {
  /** Defaults to `app.config`, then `loadConfig(process.env)`. */
  config?: Pick<Config, 'smtpUrl' | 'adminEmail' | 'adminPassword' | 'redisUrl'>;
  /** Seeds permissions, roles and the first administrator at registration (default true). */
  seed?: boolean;
}

/**
 * Resolves an `/api/ws` connection's token and fingerprint to the employee, or null (close 4401).
 *
 * @example
 * const user = await authenticateSocket(app.db, query.Authorization, query['x-fingerprint-session']);
 */
export async function authenticateSocket(
  db: Db,
  token: string | null | undefined,
  fingerprintSession: string | null | undefined,
): Promise<AuthUser | null> {
  const ttl = async () => policyTtlMs(await securityPolicy(db));
  const result = await resolveSession(db as Kysely<AuthDatabase>, token, fingerprintSession, new Date(), ttl);
  return result.ok ? result.user : null;
}

function clientOf(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return {
    ip: request.ip ?? null,
    userAgent: typeof agent === 'string' ? agent : null,
    fingerprintSession: fingerprintSessionOf(request),
  };
}

/**
 * Whether the sign-in limits' Redis connection is up. A connection still being made (the first one
 * right after start, or a reconnection attempt) is waited for: ready or closed, within the readiness
 * check's time limit, so an instance just started is not reported unready for want of a moment.
 */
function connectionReady(redis: Redis): boolean | Promise<boolean> {
  if (redis.status === 'ready') return true;
  if (redis.status !== 'connecting' && redis.status !== 'connect') return false;
  return new Promise((resolve) => {
    const settle = (up: boolean) => {
      redis.off('ready', onReady);
      redis.off('close', onClose);
      resolve(up);
    };
    const onReady = () => settle(true);
    const onClose = () => settle(false);
    redis.once('ready', onReady);
    redis.once('close', onClose);
  });
}

/** The origin the browser used, for reset links when `MIZAN_PUBLIC_URL` is not set. */
function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * `/api/auth/*`: login, check, logout, public system settings, forgot/verify/reset
 * password; decorates `app.auth` and seeds permissions, roles and the first administrator.
 */
export const authPlugin: FastifyPluginAsync<AuthPluginOptions> = async (app, options) => {
  const config = options.config ?? (app.hasDecorator('config') ? app.config : loadConfig(process.env));
  const db = authDb(app);
  const mailer = createMailer({ db: db as Kysely<unknown>, smtpUrl: config.smtpUrl, log: app.log });
  await enableSettingsPolicy(app.db);
  // With REDIS_URL, the sign-in limits are counted in Redis: one budget for every instance. No
  // queue while disconnected and a short timeout: a sign-in never waits on a Redis that is gone,
  // it counts in this process meanwhile (SharedCounting warns once).
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: 500,
      })
    : undefined;
  const counting = redis ? new SharedCounting(redis, app.log) : undefined;
  if (redis) {
    // Every reconnection attempt errors while Redis is down: the outage is logged once (SharedCounting).
    redis.on('error', () => undefined);
    app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
    app.readiness.add('redis', () => connectionReady(redis));
  }
  const limiters = createAuthLimiters(process.env, counting);
  const service = new AuthService({
    db,
    mailer,
    limiters,
    log: app.log,
    publicUrl: process.env.MIZAN_PUBLIC_URL?.trim() || null,
    policy: (executor) => securityPolicy(app.db, executor),
    employeeRow: (id) => app.entities.get('employees').get(id),
    officeName: async () => (await getPublicSettings(db as unknown as Db)).officeName,
    bus: app.bus,
  });
  app.decorate('auth', { service, mailer, limiters });
  // Routes declared with `defineRoute` (http/route.ts) check their permission through this.
  app.decorate('permissionGuard', requirePermission);
  if (!app.hasRequestDecorator('user')) app.decorateRequest('user', null as unknown as AuthUser);
  // Finished sessions, resets, old login history and mail are pruned at start and every 6 hours.
  const prune = () =>
    pruneAuthTables(db).catch((err: unknown) => app.log.error({ err }, 'pruning auth tables failed'));
  await prune();
  const pruning = setInterval(() => void prune(), 6 * 3_600_000);
  pruning.unref();
  app.addHook('onClose', async () => {
    clearInterval(pruning);
    mailer.close();
  });

  if (options.seed !== false) {
    await seedAuth(db as unknown as Db, {
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
    });
  }

  const labels = 'auth.labels';

  defineRoute(app, AUTH_ROUTES.login, {
    labels,
    handler: async (request, { body }) => {
      const data = await service.login(
        { identifier: body.email, password: body.password },
        clientOf(request),
      );
      // The service's user view is the contracts' `AuthUser` as the server builds it.
      return { data: data as unknown as LoginAnswer };
    },
  });

  defineRoute(app, AUTH_ROUTES.twoFactorVerify, {
    labels,
    handler: async (request, { body }) => {
      const data = await service.verifySecondStep(body, clientOf(request));
      return { data: data as unknown as LoginResult };
    },
  });

  // Setup and enable serve the signed-in employee (profile) and one whose sign-in requires an
  // enrolment (the login answer's challenge, no token yet).
  defineRoute(app, AUTH_ROUTES.twoFactorSetup, {
    labels,
    handler: async (request, { body }) => {
      const employeeId = body?.challenge
        ? await service.enrolmentEmployee(body.challenge, clientOf(request))
        : (await authenticate(request)).id;
      return { data: await service.setupTwoFactor(employeeId) };
    },
  });

  defineRoute(app, AUTH_ROUTES.twoFactorEnable, {
    labels,
    handler: async (request, { body }) => {
      const signedIn = body.challenge ? null : { employeeId: (await authenticate(request)).id };
      return { data: await service.enableTwoFactor(body, signedIn, clientOf(request)) };
    },
  });

  defineRoute(app, AUTH_ROUTES.twoFactorStatus, {
    labels,
    handler: async (request) => ({
      data: await service.twoFactorStatus(request.user),
    }),
  });

  defineRoute(app, AUTH_ROUTES.twoFactorDisable, {
    labels,
    handler: async (request, { body }) => {
      await service.disableTwoFactor(request.user, body);
      return { data: { message: message(requestLang(request), 'twoFactorDisabled') } };
    },
  });

  defineRoute(app, AUTH_ROUTES.sessions, {
    labels,
    handler: async (request) => ({
      data: await listOpenSessions(db, request.user.id, request.user.sessionId),
    }),
  });

  defineRoute(app, AUTH_ROUTES.endSession, {
    labels,
    handler: async (request, { params: { id } }) => {
      const ended = await service.endSessions(request.user.id, { sessionIds: [id] });
      if (ended.length === 0) throw authError('notFound', 'sessionNotFound');
      return { data: { message: message(requestLang(request), 'sessionEnded') } };
    },
  });

  defineRoute(app, AUTH_ROUTES.endOtherSessions, {
    labels,
    handler: async (request) => {
      const ended = await service.endSessions(request.user.id, {
        sessionIds: null,
        keepSessionId: request.user.sessionId,
      });
      return { data: { ended: ended.length } };
    },
  });

  defineRoute(app, AUTH_ROUTES.twoFactorRoles, {
    tags: ['system'],
    handler: async () => ({
      data: { roleIds: await requiredRoleIds(db) },
    }),
  });

  defineRoute(app, AUTH_ROUTES.setTwoFactorRoles, {
    tags: ['system'],
    handler: async (request, { body }) => {
      const known = body.roleIds.length
        ? await db.selectFrom('roles').select('id').where('id', 'in', body.roleIds).execute()
        : [];
      if (known.length !== new Set(body.roleIds).size) throw fieldError('roleIds', 'invalidData');
      const before = await requiredRoleIds(db);
      await setRequiredRoleIds(db, body.roleIds);
      const after = await requiredRoleIds(db);
      await writeAudit(db as unknown as Db, {
        employeeId: request.user.id,
        entity: 'systemSettings',
        entityId: 1,
        action: 'twoFactorRoles',
        before: { roleIds: before },
        after: { roleIds: after },
        ip: request.ip ?? null,
      });
      return { data: { roleIds: after } };
    },
  });

  // The session is checked by the service itself (401/403 with the auth module's reasons).
  defineRoute(app, AUTH_ROUTES.check, {
    labels,
    handler: async (request) => {
      const { user } = await service.check(bearerToken(request), fingerprintSessionOf(request));
      return { data: { user: user as unknown as CheckResult['user'], token: bearerToken(request)! } };
    },
  });

  defineRoute(app, AUTH_ROUTES.logout, {
    labels,
    handler: async (request) => {
      await service.logout(bearerToken(request), fingerprintSessionOf(request));
      return { data: { message: message(requestLang(request), 'loggedOut') } };
    },
  });

  defineRoute(app, AUTH_ROUTES.systemSettings, {
    labels,
    handler: async () => ({
      data: await getPublicSettings(db as unknown as Db),
    }),
  });

  defineRoute(app, AUTH_ROUTES.forgotPassword, {
    labels,
    handler: async (request, { body }) => {
      const lang = requestLang(request);
      return {
        data: { message: await service.forgotPassword(body.email, request.ip, lang, requestOrigin(request)) },
      };
    },
  });

  defineRoute(app, AUTH_ROUTES.verifyResetToken, {
    labels,
    handler: async (request, { query }) => ({
      data: await service.verifyResetToken(query.token, query.email, request.ip),
    }),
  });

  defineRoute(app, AUTH_ROUTES.verifyResetCode, {
    labels,
    handler: async (request, { body }) => ({
      data: await service.verifyResetCode(body.email, body.code, request.ip),
    }),
  });

  defineRoute(app, AUTH_ROUTES.resetPassword, {
    labels,
    handler: async (request, { body }) => ({
      data: { message: await service.resetPassword(body, requestLang(request)) },
    }),
  });
};

// Shares `app.auth` and the `request.user` decoration with sibling plugins (what fastify-plugin does).
(authPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
