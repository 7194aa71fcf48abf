import { ROUTES } from '@mizan/contracts/light';
import { permissionsAtom, tokenAtom, userAtom } from '@mizan/sdk';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { ForbiddenPage } from '../pages/LazyStatusPages';

/**
 * A `redirect` value is followed only when it is a path of this app: an absolute or
 * protocol-relative URL would let a crafted link send the user to another site after sign-in.
 */
export function safeRedirect(value: string | null | undefined, fallback: string = ROUTES.dashboard): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  if (value === ROUTES.login || value.startsWith(`${ROUTES.authPrefix}/`)) return fallback;
  return value;
}

export function loginPathFor(returnTo: string): string {
  return `${ROUTES.login}?${ROUTES.redirectParam}=${encodeURIComponent(returnTo)}`;
}

/** Signed-in area: without a session, to the login page with the way back in `redirect`. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useAtomValue(tokenAtom);
  const user = useAtomValue(userAtom);
  const location = useLocation();
  if (!token || !user) return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  // An employee who must change the password cannot continue before doing so.
  if (user.passwordChangeRequired) return <Navigate to={ROUTES.changePassword} replace />;
  return <>{children}</>;
}

/** Renders the screen only with its permission; the 403 page otherwise (the URL stays). */
export function RequirePermission({ permission, children }: { permission: string; children: ReactNode }) {
  const permissions = useAtomValue(permissionsAtom);
  if (!permissions.has(permission)) return <ForbiddenPage />;
  return <>{children}</>;
}
