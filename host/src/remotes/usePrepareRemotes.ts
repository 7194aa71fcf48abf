import { useContext, useEffect } from 'react';
import { loadRemoteAreaModule } from './remoteAreaModule';
import { RemoteLoaderContext } from './remoteLoaderContext';

/** How long the signed-in shell's first screen has its downloads to itself. */
export const PREPARE_DELAY_MS = 500;

/**
 * Once the signed-in shell has shown its first screen and the page is idle, fetches ahead what
 * opening a remote's screen starts with: the host's remote-area code and, through the loader's
 * `prepare`, each remote's manifests and entry (a remote's list within 500 ms of its menu
 * click). Nothing of a remote runs, so neither the menu nor the screen on view changes.
 */
export function usePrepareRemotes(): void {
  const loader = useContext(RemoteLoaderContext);
  useEffect(() => {
    if (!loader?.prepare) return undefined;
    let idle: number | undefined;
    const run = () => {
      void loadRemoteAreaModule();
      void loader.prepare?.();
    };
    const timer = setTimeout(() => {
      if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(run, { timeout: 2_000 });
      else run();
    }, PREPARE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      if (idle !== undefined) cancelIdleCallback(idle);
    };
  }, [loader]);
}
