import { ROUTES } from '@mizan/contracts/light';
import type { RemoteRoutesLoader } from './loadRemoteRoutes';
import { loadRemoteAreaModule } from './remoteAreaModule';

/**
 * Opening a screen by direct link or refresh: starts downloading the signed-in shell and the
 * screen's remote (remotes.json, its manifest, entry and routes) at once, beside the session
 * restore and the first render, instead of one after the other once the route renders. The route
 * later joins the same load (the loader keeps one load per remote). Errors are left to that route,
 * which shows "unavailable, retry".
 *
 * @example preloadScreenOf('/admin/settings/places/countries', loader) // loads 'settings'
 */
export function preloadScreenOf(pathname: string, loader: RemoteRoutesLoader): void {
  if (!pathname.startsWith(`${ROUTES.adminBase}/`)) return;
  void import('../layout/AdminLayout');
  // ./remoteForPath reads the contracts' registry and menu: loaded here, not with the login page.
  void import('./remoteForPath').then(({ remoteForPath }) => {
    const remote = remoteForPath(pathname);
    if (!remote) return;
    void loadRemoteAreaModule();
    loader(remote).catch(() => undefined);
  });
}
