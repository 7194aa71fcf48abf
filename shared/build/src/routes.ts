import type { ReactNode } from 'react';

/**
 * One screen a remote contributes to the host's router: the contract of every remote's `./routes`.
 * The host mounts these inside its one `createBrowserRouter` (remotes never create routers), wraps
 * each `element` in its permission guard (403 page without `permission`) and in the admin layout.
 *
 * @example
 * // remotes/settings/src/routes.tsx
 * import type { RemoteRoute } from '@mizan/build/routes';
 * export const routes: RemoteRoute[] = [
 *   { path: '/admin/settings/places/continents', element: <EntityPage entity={continents} />, permission: 'continents.view' },
 *   { path: '/admin/settings/places/continents/:id', element: <ContinentView />, permission: 'continents.view' },
 * ];
 * export default routes;
 */
export interface RemoteRoute {
  /** Absolute path beginning with `/admin/`; react-router syntax (`:id`, trailing `*`). */
  path: string;
  element: ReactNode;
  /** Permission key the signed-in user must hold, e.g. `continents.view`. */
  permission: string;
}

/** The module a remote exposes as `./routes`: its default export is the route list. */
export interface RemoteRoutesModule {
  default: RemoteRoute[];
}
