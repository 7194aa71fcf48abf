import {
  API_BASE,
  AREA_PERMISSIONS,
  AUTH,
  SYSTEM,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorRolesBody,
  twoFactorSetupBody,
  twoFactorVerifyBody,
  type LoginAnswer,
  type SessionInfo,
  type SessionsEnded,
  type TwoFactorEnableResult,
  type TwoFactorRoles,
  type TwoFactorSetupResult,
  type TwoFactorStatus,
  forgotPasswordBody,
  loginBody,
  resetPasswordBody,
  verifyResetCodeBody,
  verifyResetTokenQuery,
  type CheckResult,
  type MessageResult,
  type PublicSystemSettings,
  type VerifyResetCodeResult,
  type VerifyResetTokenResult,
} from '@mizan/contracts';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import Redis from 'ioredis';
import type { Kysely } from 'kysely';
import { loadConfig, type Config } from '../config';
import type { Db } from '../db';
import { createMailer, type Mailer } from '../mail/mailer';
import { authDb } from './db';
import { defineRoute, PUBLIC } from '../http/route';
import { authenticate, bearerToken, fingerprintSessionOf, requirePermission } from './guard';
import { listOpenSessions } from './sessions';
import { requiredRoleIds, setRequiredRoleIds } from './twoFactor';
import { pathId } from '../http/params';
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

/** Routes are written under `/api/auth/...`; registering the plugin under `/api` is also accepted. */
function routePath(app: FastifyInstance, path: string): string {
  return app.prefix.endsWith(API_BASE) ? path : `${API_BASE}${path}`;
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
    ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 500 })
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

  const path = (p: string) => routePath(app, p);
  const tags = ['auth'];

  const route = { tags, labels: 'auth.labels' };

  defineRoute(app, {
    ...route,
    method: 'POST',
    url: path(AUTH.login),
    permission: PUBLIC,
    summary: 'Sign in with email or username',
    body: loginBody,
    handler: async (request, { body }): Promise<{ data: LoginAnswer }> => {
      const data = await service.login(
        { identifier: body.email, password: body.password },
        clientOf(request),
      );
      // The service's user view is the contracts' `AuthUser` as the server builds it.
      return { data: data as unknown as LoginAnswer };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'POST',
    url: path(AUTH.twoFactorVerify),
    permission: PUBLIC,
    summary: 'Second step of a sign-in: a code from the authenticator or a recovery code',
    body: twoFactorVerifyBody,
    handler: async (request, { body }): Promise<{ data: LoginAnswer }> => {
      const data = await service.verifySecondStep(body, clientOf(request));
      return { data: data as unknown as LoginAnswer };
    },
  });

  // Setup and enable serve the signed-in employee (profile) and one whose sign-in requires an
  // enrolment (the login answer's challenge, no token yet).
  defineRoute(app, {
    ...route,
    method: 'POST',
    url: path(AUTH.twoFactorSetup),
    permission: PUBLIC,
    summary: 'Start two-factor setup: an otpauth:// URI, its QR code and the secret',
    body: twoFactorSetupBody,
    handler: async (request, { body }): Promise<{ data: TwoFactorSetupResult }> => {
      const employeeId = body?.challenge
        ? await service.enrolmentEmployee(body.challenge, clientOf(request))
        : (await authenticate(request)).id;
      return { data: await service.setupTwoFactor(employeeId) };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'POST',
    url: path(AUTH.twoFactorEnable),
    permission: PUBLIC,
    summary: 'Turn two-factor sign-in on with a first code; answers ten recovery codes',
    body: twoFactorEnableBody,
    handler: async (request, { body }): Promise<{ data: TwoFactorEnableResult }> => {
      const signedIn = body.challenge ? null : { employeeId: (await authenticate(request)).id };
      return { data: await service.enableTwoFactor(body, signedIn, clientOf(request)) };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'GET',
    url: path(AUTH.twoFactor),
    permission: null,
    summary: 'Whether two-factor sign-in is on, required, and the recovery codes left',
    handler: async (request): Promise<{ data: TwoFactorStatus }> => ({
      data: await service.twoFactorStatus(request.user),
    }),
  });

  defineRoute(app, {
    ...route,
    method: 'DELETE',
    url: path(AUTH.twoFactor),
    permission: null,
    summary: 'Turn two-factor sign-in off (a current code or the password)',
    body: twoFactorDisableBody,
    handler: async (request, { body }): Promise<{ data: MessageResult }> => {
      await service.disableTwoFactor(request.user, body);
      return { data: { message: message(requestLang(request), 'twoFactorDisabled') } };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'GET',
    url: path(AUTH.sessions),
    permission: null,
    summary: 'My open sessions (device, browser, IP, signed in, last seen, current)',
    handler: async (request): Promise<{ data: SessionInfo[] }> => ({
      data: await listOpenSessions(db, request.user.id, request.user.sessionId),
    }),
  });

  defineRoute(app, {
    ...route,
    method: 'DELETE',
    url: path(`${AUTH.sessions}/:id`),
    permission: null,
    summary: 'Sign one of my sessions out (on every instance at once)',
    handler: async (request): Promise<{ data: MessageResult }> => {
      const id = pathId((request.params as { id?: string }).id);
      const ended = await service.endSessions(request.user.id, { sessionIds: [id] });
      if (ended.length === 0) throw authError('notFound', 'sessionNotFound');
      return { data: { message: message(requestLang(request), 'sessionEnded') } };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'DELETE',
    url: path(AUTH.sessions),
    permission: null,
    summary: 'Sign out every session of mine but this one',
    handler: async (request): Promise<{ data: SessionsEnded }> => {
      const ended = await service.endSessions(request.user.id, {
        sessionIds: null,
        keepSessionId: request.user.sessionId,
      });
      return { data: { ended: ended.length } };
    },
  });

  defineRoute(app, {
    tags: ['system'],
    method: 'GET',
    url: API_BASE + SYSTEM.twoFactorRoles,
    permission: AREA_PERMISSIONS.systemSettingsView,
    summary: 'The roles whose members must sign in with two factors',
    handler: async (): Promise<{ data: TwoFactorRoles }> => ({
      data: { roleIds: await requiredRoleIds(db) },
    }),
  });

  defineRoute(app, {
    tags: ['system'],
    method: 'PUT',
    url: API_BASE + SYSTEM.twoFactorRoles,
    permission: AREA_PERMISSIONS.systemSettingsUpdate,
    summary: 'Require two-factor sign-in for these roles (members enrol at their next sign-in)',
    body: twoFactorRolesBody,
    handler: async (request, { body }): Promise<{ data: TwoFactorRoles }> => {
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
  defineRoute(app, {
    ...route,
    method: 'POST',
    url: path(AUTH.check),
    permission: PUBLIC,
    summary: 'Check the session (slides its expiry)',
    handler: async (request): Promise<{ data: CheckResult }> => {
      const { user } = await service.check(bearerToken(request), fingerprintSessionOf(request));
      return { data: { user: user as unknown as CheckResult['user'], token: bearerToken(request)! } };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'POST',
    url: path(AUTH.logout),
    permission: PUBLIC,
    summary: 'Sign out (revokes the token)',
    handler: async (request): Promise<{ data: MessageResult }> => {
      await service.logout(bearerToken(request), fingerprintSessionOf(request));
      return { data: { message: message(requestLang(request), 'loggedOut') } };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'GET',
    url: path(AUTH.systemSettings),
    permission: PUBLIC,
    summary: 'Public system settings for the login page (no auth)',
    handler: async (): Promise<{ data: PublicSystemSettings }> => ({
      data: await getPublicSettings(db as unknown as Db),
    }),
  });

  defineRoute(app, {
    ...route,
    method: 'POST',
    url: path(AUTH.forgotPassword),
    permission: PUBLIC,
    summary: 'Send a reset link and code by mail',
    body: forgotPasswordBody,
    handler: async (request, { body }): Promise<{ data: MessageResult }> => {
      const lang = requestLang(request);
      return {
        data: { message: await service.forgotPassword(body.email, request.ip, lang, requestOrigin(request)) },
      };
    },
  });

  defineRoute(app, {
    ...route,
    method: 'GET',
    url: path(AUTH.verifyResetToken),
    permission: PUBLIC,
    summary: 'Check a reset link',
    query: verifyResetTokenQuery,
    handler: async (request, { query }): Promise<{ data: VerifyResetTokenResult }> => ({
      data: await service.verifyResetToken(query.token, query.email, request.ip),
    }),
  });

  defineRoute(app, {
    ...route,
    method: 'POST',
    url: path(AUTH.verifyResetCode),
    permission: PUBLIC,
    summary: 'Trade a reset code for a reset token',
    body: verifyResetCodeBody,
    handler: async (request, { body }): Promise<{ data: VerifyResetCodeResult }> => ({
      data: await service.verifyResetCode(body.email, body.code, request.ip),
    }),
  });

  defineRoute(app, {
    ...route,
    method: 'PUT',
    url: path(AUTH.resetPassword),
    permission: PUBLIC,
    summary: 'Set a new password with a reset token',
    body: resetPasswordBody,
    handler: async (request, { body }): Promise<{ data: MessageResult }> => ({
      data: { message: await service.resetPassword(body, requestLang(request)) },
    }),
  });
};

// Shares `app.auth` and the `request.user` decoration with sibling plugins (what fastify-plugin does).
(authPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
