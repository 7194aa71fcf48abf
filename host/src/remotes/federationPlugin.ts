import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { setRemoteStatus } from './remoteStatus';

/** Marker of the stand-in module the runtime returns for a remote that failed to load. */
export const UNAVAILABLE = '__mizanRemoteUnavailable';

export interface UnavailableModule {
  [UNAVAILABLE]: true;
  error: unknown;
}

export function isUnavailableModule(value: unknown): value is UnavailableModule {
  return typeof value === 'object' && value !== null && UNAVAILABLE in value;
}

/** `settings/routes` → `settings`; the runtime sometimes reports the manifest URL instead. */
function remoteNameOf(args: { id: string; remote?: { name?: string } }): string {
  return args.remote?.name ?? args.id.split('/')[0] ?? args.id;
}

/**
 * Runtime plugin: every way a remote can fail (stopped, 404 manifest, broken script, bad module)
 * ends here. At the `onLoad` stage it answers a stand-in module instead of throwing inside the
 * runtime, so the host turns it into the "unavailable, retry" screen and nothing else is affected.
 * Earlier stages (manifest fetch) are left to fail so that they reach `onLoad` once.
 */
export function mizanFederationPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'mizan-remote-fallback',
    errorLoadRemote(args) {
      setRemoteStatus(remoteNameOf(args), 'unavailable');
      if (args.lifecycle !== 'onLoad') return undefined;
      const fallback: UnavailableModule = { [UNAVAILABLE]: true, error: args.error };
      return fallback;
    },
  };
}
