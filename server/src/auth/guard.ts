import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { HEADERS } from '@mizan/contracts';
import type { Versions } from '../engine/counts';
import { authDb } from './db';
import { authError } from './errors';
import { policyTtlMs, securityPolicy } from './policy';
import { resolveSession } from './sessions';
import type { AuthUser } from './types';

declare module 'fastify' {
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
 * A preHandler that lets the request through only for a signed-in employee holding `key`
 * (`null`: any signed-in employee, also one who must still change the password).
 *
 * @example
 * app.get('/courts', { preHandler: requirePermission('courts.view') }, handler);
 */
export function requirePermission(key: string | null): preHandlerAsyncHookHandler {
  return async function permissionGuard(request) {
    const user = await authenticate(request);
    if (key === null) return;
    // An employee who must change the password does nothing else first.
    if (user.passwordChangeRequired) throw authError('forbidden', 'passwordChangeRequired');
    if (!user.permissions.has(key)) {
      throw authError('forbidden', 'forbidden');
    }
  };
}
