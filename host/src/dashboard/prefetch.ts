import { AREA_PERMISSIONS, ROUTES } from '@mizan/contracts/light';
import { permissionsAtom, queryClient, sdkStore, userAtom } from '@mizan/sdk';

/** Paths a signed-in user goes on from to the dashboard (the sign-in form, the admin root, itself). */
const TOWARDS_DASHBOARD = new Set<string>([ROUTES.login, '/', ROUTES.adminBase, ROUTES.dashboard]);

/** Whether the page the user is on (or is sent back to after signing in) is the unfiltered dashboard. */
function boundForDashboard(location: Location): boolean {
  const params = new URLSearchParams(location.search);
  const redirect = params.get(ROUTES.redirectParam);
  if (redirect) return redirect.split('?')[0] === ROUTES.dashboard && !redirect.includes('?');
  if (location.pathname === ROUTES.dashboard) return params.size === 0;
  return TOWARDS_DASHBOARD.has(location.pathname);
}

/**
 * Starts the dashboard's request and its page and chart chunks the moment a user who may see it is
 * signed in (a restored session, or the sign-in answer) on the way to it, instead of after the
 * admin layout and the page have loaded and rendered: the three load side by side, and the page
 * finds its figures in the query cache. Returns the unsubscribe.
 */
export function prefetchDashboardOnSignIn(location: Location = window.location): () => void {
  let started = false;
  const start = () => {
    const user = sdkStore.get(userAtom);
    if (!user) {
      started = false;
      return;
    }
    if (started || user.passwordChangeRequired || !boundForDashboard(location)) return;
    if (!sdkStore.get(permissionsAtom).has(AREA_PERMISSIONS.dashboardView)) return;
    started = true;
    // ./dashboardQuery (the contracts' dashboard schema) loads here, not with the login page.
    void import('./dashboardQuery').then(({ dashboardQuery }) =>
      queryClient.prefetchQuery(dashboardQuery({})),
    );
    void import('../pages/DashboardPage');
    void import('./DashboardCharts');
  };
  start();
  return sdkStore.sub(userAtom, start);
}
