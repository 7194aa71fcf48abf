import type { RemoteRoutesLoader } from './loadRemoteRoutes';

type LoaderModule = { createFederationLoader: () => RemoteRoutesLoader };

/**
 * The page's loader of remote route lists, whose code (./loadRemoteRoutes: remotes.json, the
 * compatibility check, the federation runtime's plugin) is downloaded with the first remote asked
 * for rather than with the login page, which asks for none. A failed download is tried
 * again at the next call (a screen's "retry").
 *
 * @example const loader = createLazyFederationLoader(); await loader('settings')
 */
export function createLazyFederationLoader(
  load: () => Promise<LoaderModule> = () => import('./loadRemoteRoutes'),
): RemoteRoutesLoader {
  let loader: Promise<RemoteRoutesLoader> | null = null;
  const ready = () => {
    loader ??= load().then(
      (module) => module.createFederationLoader(),
      (error: unknown) => {
        loader = null;
        throw error;
      },
    );
    return loader;
  };
  const lazyLoader: RemoteRoutesLoader = (name, options) =>
    ready().then((remoteLoader) => remoteLoader(name, options));
  lazyLoader.prepare = () =>
    ready().then(
      (remoteLoader) => remoteLoader.prepare?.(),
      () => undefined,
    );
  return lazyLoader;
}
