import { API_BASE, AUTH } from '@mizan/contracts';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { loadConfig, type Config } from '../config';
import type { Db } from '../db';
import { createMailer, type Mailer } from '../mail/mailer';
import { authDb } from './db';
import { docs } from './docs';
import { bearerToken, fingerprintSessionOf } from './guard';
import { message, requestLang } from './messages';
import { enableSettingsPolicy, policyTtlMs, securityPolicy } from './policy';
import { getPublicSettings } from '../system/settings/repository';
import { pruneAuthTables } from './prune';
import { createAuthLimiters, type AuthLimiters } from './rateLimit';
import { seedAuth } from './seed';
import { AuthService, type ClientInfo } from './service';
import { resolveSession } from './sessions';
import type { AuthDatabase, AuthUser } from './types';
import { parseBody } from './validate';

export { requirePermission, authenticate } from './guard';
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
  config?: Pick<Config, 'smtpUrl' | 'adminEmail' | 'adminPassword'>;
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
  const ttl = policyTtlMs(await securityPolicy(db));
  const result = await resolveSession(db as Kysely<AuthDatabase>, token, fingerprintSession, new Date(), ttl);
  return result.ok ? result.user : null;
}

const loginBody = z.object({
  email: z.string().trim().min(1).max(150),
  password: z.string().min(1).max(1024),
});
const emailBody = z.object({ email: z.email().max(150) });
const resetQuery = z.object({ token: z.string().min(1).max(200), email: z.string().min(1).max(150) });
const codeBody = z.object({
  email: z.string().trim().min(1).max(150),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});
const resetBody = z.object({
  token: z.string().min(1).max(200),
  email: z.string().trim().min(1).max(150),
  password: z.string().max(1024),
});

function clientOf(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return {
    ip: request.ip ?? null,
    userAgent: typeof agent === 'string' ? agent : null,
    fingerprintSession: fingerprintSessionOf(request),
  };
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
 * `/api/auth/*` (seed §7): login, check, logout, public system settings, forgot/verify/reset
 * password; decorates `app.auth` and seeds permissions, roles and the first administrator.
 */
export const authPlugin: FastifyPluginAsync<AuthPluginOptions> = async (app, options) => {
  const config = options.config ?? (app.hasDecorator('config') ? app.config : loadConfig(process.env));
  const db = authDb(app);
  const mailer = createMailer({ db: db as Kysely<unknown>, smtpUrl: config.smtpUrl, log: app.log });
  await enableSettingsPolicy(app.db);
  const limiters = createAuthLimiters();
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

  app.post(
    path(AUTH.login),
    docs({ tags, summary: 'Sign in with email or username', body: loginBody }),
    async (request) => {
      const body = parseBody(loginBody, request.body, requestLang(request));
      const data = await service.login(
        { identifier: body.email, password: body.password },
        clientOf(request),
      );
      return { data };
    },
  );

  app.post(
    path(AUTH.check),
    docs({ tags, summary: 'Check the session (slides its expiry)', secured: true }),
    async (request) => {
      const { user } = await service.check(bearerToken(request), fingerprintSessionOf(request));
      return { data: { user, token: bearerToken(request) } };
    },
  );

  app.post(
    path(AUTH.logout),
    docs({ tags, summary: 'Sign out (revokes the token)', secured: true }),
    async (request) => {
      await service.logout(bearerToken(request), fingerprintSessionOf(request));
      return { data: { message: message(requestLang(request), 'loggedOut') } };
    },
  );

  app.get(
    path(AUTH.systemSettings),
    docs({ tags, summary: 'Public system settings for the login page (no auth)' }),
    async () => ({ data: await getPublicSettings(db as unknown as Db) }),
  );

  app.post(
    path(AUTH.forgotPassword),
    docs({ tags, summary: 'Send a reset link and code by mail', body: emailBody }),
    async (request) => {
      const lang = requestLang(request);
      const { email } = parseBody(emailBody, request.body, lang);
      return {
        data: { message: await service.forgotPassword(email, request.ip, lang, requestOrigin(request)) },
      };
    },
  );

  app.get(
    path(AUTH.verifyResetToken),
    docs({ tags, summary: 'Check a reset link', querystring: resetQuery }),
    async (request) => {
      const { token, email } = parseBody(resetQuery, request.query, requestLang(request));
      return { data: await service.verifyResetToken(token, email, request.ip) };
    },
  );

  app.post(
    path(AUTH.verifyResetCode),
    docs({ tags, summary: 'Trade a reset code for a reset token', body: codeBody }),
    async (request) => {
      const { email, code } = parseBody(codeBody, request.body, requestLang(request));
      return { data: await service.verifyResetCode(email, code, request.ip) };
    },
  );

  app.put(
    path(AUTH.resetPassword),
    docs({ tags, summary: 'Set a new password with a reset token', body: resetBody }),
    async (request) => {
      const lang = requestLang(request);
      const body = parseBody(resetBody, request.body, lang);
      return { data: { message: await service.resetPassword(body, lang) } };
    },
  );
};

// Shares `app.auth` and the `request.user` decoration with sibling plugins (what fastify-plugin does).
(authPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
