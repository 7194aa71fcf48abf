import { AREA_PERMISSIONS, ROUTES } from '@mizan/contracts/light';
import { loadAppTexts } from '@mizan/i18n';
import { followResync, sessionEvents, tokenAtom, userAtom, wsClient } from '@mizan/sdk';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, useNavigate, type RouteObject } from 'react-router-dom';
import { RequireAuth, RequirePermission } from '../auth/guards';
import { LoginPage } from '../auth/LoginPage';
import { checkStoredSession } from '../auth/session';
import { FullPageSpinner } from '../pages/LazySpinners';
import { ForbiddenPage, NotFoundPage, RouteErrorPage } from '../pages/LazyStatusPages';
import { loadRemoteAreaModule } from '../remotes/remoteAreaModule';

// The main application view loads lazily behind a large centred spinner, with the texts
// the signed-out pages do not need (menu, entities, dashboard, screens: login page weight).
const AdminLayout = lazy(async () => {
  const [{ AdminLayout: Component }] = await Promise.all([import('../layout/AdminLayout'), loadAppTexts()]);
  return { default: Component };
});
const DashboardPage = lazy(() =>
  import('../pages/DashboardPage').then((m) => ({ default: m.DashboardPage })),
);
const ProfilePage = lazy(() => import('../pages/ProfilePage').then((m) => ({ default: m.ProfilePage })));
// The login page downloads only itself; the other sign-in pages (and their antd
// components) load when their route is first visited.
const changePassword = async () => ({
  Component: (await import('../auth/ChangePasswordPage')).ChangePasswordPage,
});
const forgotPassword = async () => ({
  Component: (await import('../auth/ForgotPasswordPage')).ForgotPasswordPage,
});
const resetPassword = async () => ({
  Component: (await import('../auth/ResetPasswordPage')).ResetPasswordPage,
});
const RemoteArea = lazy(() => loadRemoteAreaModule().then((m) => ({ default: m.RemoteArea })));

/** Checks the stored token once per page load. */
let sessionChecked = false;

/** Allows a test to start a fresh page. */
export function resetSessionCheck(): void {
  sessionChecked = false;
}

/** Close reason of the server's socket hub (an auth message key) when the session signed out. */
const SIGNED_OUT_REASON = 'loggedOut';

/** Root of every route: the one-time session check, and going home when a session is cleared. */
function Root() {
  const navigate = useNavigate();
  useEffect(() => {
    if (sessionChecked) return;
    sessionChecked = true;
    void checkStoredSession(navigate);
  }, [navigate]);
  useEffect(
    () =>
      sessionEvents.on('cleared', ({ reason }) => {
        // A 401 or a failed settings load leaves the signed-in area through its guard (with redirect).
        if (reason === 'checkFailed') navigate(ROUTES.home, { replace: true });
      }),
    [navigate],
  );
  useEffect(
    () =>
      wsClient.events.on('rejected', ({ reason }) => {
        // The server closed the socket for this session (ban, deactivation, expiry): ask it why at
        // once, so the person reads "your account was banned" now rather than at the next click.
        // Our own sign-out closes it too; that needs no check.
        if (reason !== SIGNED_OUT_REASON) void checkStoredSession(navigate);
      }),
    [navigate],
  );
  // The server's link to the other instances came back: what they published meanwhile is read again.
  useEffect(() => followResync(), []);
  return <Outlet />;
}

/** `/`: the dashboard when signed in, the login page otherwise. */
function HomeRedirect() {
  const token = useAtomValue(tokenAtom);
  const user = useAtomValue(userAtom);
  return <Navigate to={token && user ? ROUTES.dashboard : ROUTES.login} replace />;
}

const rel = (path: string) => path.replace(/^\//, '');
const adminRel = (path: string) => path.slice(`${ROUTES.adminBase}/`.length);

/**
 * Every route of the host (the side menu, contracts `ROUTES`). Remote screens mount under `/admin/*`
 * through `RemoteArea`; there is one router in the page.
 */
export const appRoutes: RouteObject[] = [
  {
    path: ROUTES.home,
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <HomeRedirect /> },
      { path: rel(ROUTES.login), element: <LoginPage /> },
      { path: rel(ROUTES.changePassword), lazy: changePassword },
      { path: rel(ROUTES.forgotPassword), lazy: forgotPassword },
      { path: rel(ROUTES.resetPassword), lazy: resetPassword },
      { path: rel(ROUTES.forbidden), element: <ForbiddenPage /> },
      {
        path: rel(ROUTES.adminBase),
        element: (
          <RequireAuth>
            <Suspense fallback={<FullPageSpinner />}>
              <AdminLayout />
            </Suspense>
          </RequireAuth>
        ),
        children: [
          { index: true, element: <Navigate to={ROUTES.dashboard} replace /> },
          {
            path: adminRel(ROUTES.dashboard),
            element: (
              <RequirePermission permission={AREA_PERMISSIONS.dashboardView}>
                <DashboardPage />
              </RequirePermission>
            ),
          },
          { path: adminRel(ROUTES.profile), element: <ProfilePage /> },
          { path: '*', element: <RemoteArea /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
