import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { HEADERS } from '@mizan/contracts';
import type { Versions } from '../db/counts';
import { authDb } from './db';
import { authError } from './errors';
import { policyTtlMs, securityPolicy } from './policy';
import { resolveSession } from './sessions';
import type { AuthUser } from './types';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers anyone, signed in or not (see `guardRoutes`). */
    public?: boolean;
  }
  interface FastifyRequest {
    /** Set by `requirePermission` on every authenticated route. */
    user: AuthUser;
    /**
     * Every entity's write version, read with the session before the route reads anything: what
     * the route reads afterwards is at least as new (see `readStamp`). Set with `user`.
     */
    versions?: Versions;
  }
}

/** `Authorization: Bearer <token>` (the scheme is case-insensitive), or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

export function fingerprintSessionOf(request: FastifyRequest): string | null {
  const value = request.headers[HEADERS.fingerprintSession];
  return (Array.isArray(value) ? value[0] : value) || null;
}

/** Authenticates the request and sets `request.user`; throws 401/403 as the API conventions say (docs/architecture.md). */
export async function authenticate(request: FastifyRequest): Promise<AuthUser> {
  const result = await resolveSession(
    authDb(request.server),
    bearerToken(request),
    fingerprintSessionOf(request),
    new Date(),
    async () => policyTtlMs(await securityPolicy(request.server.db)),
  );
  if (!result.ok) throw authError(result.status === 401 ? 'unauthorized' : 'forbidden', result.reason);
  request.user = result.user;
  request.versions = result.versions;
  return result.user;
}

/**
 * An `onRequest` hook that lets the request through only for a signed-in employee holding `key`
 * (`null`: any signed-in employee, also one who must still change the password; a list: any one of
 * its keys, the route choosing among them by its input). It runs first in the request's life,
 * before the body is read and before anything is validated: without a token a route answers 401,
 * without the permission 403, whatever was sent with it.
 *
 * @example
 * app.get('/courts', { onRequest: requirePermission('courts.view') }, handler);
 */
export function requirePermission(key: string | readonly string[] | null): onRequestAsyncHookHandler {
  const guard: Guard = async function permissionGuard(request) {
    const user = await authenticate(request);
    if (key === null) return;
    // An employee who must change the password does nothing else first.
    if (user.passwordChangeRequired) throw authError('forbidden', 'passwordChangeRequired');
    const keys = typeof key === 'string' ? [key] : key;
    if (!keys.some((k) => user.permissions.has(k))) {
      throw authError('forbidden', 'forbidden');
    }
  };
  guard[GUARDED] = key;
  return guard;
}

/** What a guard made by `requirePermission` lets through, kept on the function for `guardRoutes`. */
const GUARDED = Symbol('permission');
type Guard = onRequestAsyncHookHandler & { [GUARDED]?: string | readonly string[] | null };

/** The permission of a route's guard, or undefined when none of its `onRequest` hooks is one. */
function guardOf(hooks: unknown): { permission: string | readonly string[] | null } | undefined {
  for (const hook of [hooks].flat()) {
    if (typeof hook === 'function' && GUARDED in hook) return { permission: (hook as Guard)[GUARDED]! };
  }
  return undefined;
}

/**
 * Every `/api` route declares who may call it, or the app does not start: a guard from
 * `requirePermission` in its `onRequest` (so authentication and the permission come before the
 * body is read or validated), or `config: { public: true }`. The WebSocket endpoint checks its
 * query's token itself; the documentation is public. The guard's permission is written into the
 * route's OpenAPI entry as `x-permission` (`null`: any signed-in employee) with its bearer
 * security, where the tests generated from the route table read them.
 */
export function guardRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const guard = guardOf(route.onRequest);
    if (guard) {
      route.schema = {
        ...route.schema,
        security: [{ bearerAuth: [] }],
        'x-permission': guard.permission,
      } as typeof route.schema;
      return;
    }
    if (route.config?.public || (route as { websocket?: boolean }).websocket) return;
    throw new Error(
      `${String(route.method)} ${route.url}: declare its permission (requirePermission) or public`,
    );
  });
}
