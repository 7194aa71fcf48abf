import {
  loadRemote,
  preloadRemote,
  registerPlugins,
  registerRemotes,
} from '@module-federation/enhanced/runtime';
import type { RemoteRoute } from '@mizan/build/routes';
import { fetchRemotesManifest, type RemotesManifest } from './manifest';
import { isUnavailableModule, mizanFederationPlugin } from './federationPlugin';
import { setRemoteStatus } from './remoteStatus';
import { HOST_BUILD, fetchRemoteInfo, incompatibilities, type BuildInfo } from './compat';
import { setLoadedRemote } from './loadedRemotes';

/** A remote that did not answer in time counts as down (the WebSocket's time-out is 10 s too). */
export const REMOTE_TIMEOUT_MS = 10_000;

export class RemoteUnavailableError extends Error {
  constructor(
    readonly remote: string,
    readonly reason: 'not-configured' | 'manifest' | 'load' | 'timeout' | 'invalid' | 'incompatible',
    override readonly cause?: unknown,
  ) {
    super(`Remote "${remote}" is unavailable (${reason})`);
    this.name = 'RemoteUnavailableError';
  }
}

/** Loads one remote's route list; `fresh` drops every cached piece of a previous failed attempt. */
export interface RemoteRoutesLoader {
  (name: string, options?: { fresh?: boolean }): Promise<RemoteRoute[]>;
  /**
   * Fetches ahead, one remote after another, what loading each remote of `remotes.json` starts
   * with: the manifest, the remote's declaration (checked), its `mf-manifest.json` and its
   * `remoteEntry.js`, without running any module the remote exposes (no screen, no menu section,
   * no status change while it goes well). A later load starts from there. Never rejects.
   */
  prepare?: () => Promise<void>;
}

/** Keeps only well-formed routes: one bad entry must not hide the remote's other screens. */
export function validRoutes(name: string, value: unknown): RemoteRoute[] {
  if (!Array.isArray(value)) throw new RemoteUnavailableError(name, 'invalid');
  return value.filter(
    (route): route is RemoteRoute =>
      typeof route === 'object' &&
      route !== null &&
      typeof route.path === 'string' &&
      route.path.startsWith('/admin/') &&
      typeof route.permission === 'string' &&
      route.permission !== '' &&
      'element' in route,
  );
}

/**
 * Checked before the remote's entry runs: once it runs, its shared singletons are negotiated
 * and a remote built against another major React or SDK would break the page, not just its area.
 */
function refuseIncompatible(name: string, info: BuildInfo | null, host: BuildInfo): void {
  if (!info) {
    console.warn(`Remote "${name}" declares no versions: loaded without a compatibility check`);
    return;
  }
  const problems = incompatibilities(host, info);
  if (problems.length === 0) return;
  console.error(`Remote "${name}" ${info.version} refused: ${problems.join('; ')}`);
  throw new RemoteUnavailableError(name, 'incompatible', new Error(problems.join('; ')));
}

/**
 * The remote's own menu section (`./menu`). A remote without one, or a broken one, keeps the
 * host's copy of its items: the menu is not worth losing the screens over.
 */
async function loadMenu(name: string): Promise<void> {
  try {
    // ./remoteMenu (with the contracts' whole menu) loads with the first remote, not with the
    // login page (login page weight).
    const [module, { isRemoteMenu, setRemoteMenu }] = await Promise.all([
      loadRemote<{ default?: unknown }>(`${name}/menu`),
      import('./remoteMenu'),
    ]);
    if (!isUnavailableModule(module) && isRemoteMenu(module?.default)) setRemoteMenu(name, module.default);
  } catch (error) {
    console.warn(`Remote "${name}" has no usable ./menu; the host's copy stays`, error);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * The loader the host uses in the browser: reads `/remotes.json` once (again after a failure),
 * registers the remote with the federation runtime, then loads its `./routes`.
 */
export function createFederationLoader({
  fetchManifest = () => fetchRemotesManifest(),
  fetchInfo = fetchRemoteInfo,
  host = HOST_BUILD,
  timeoutMs = REMOTE_TIMEOUT_MS,
}: {
  fetchManifest?: () => Promise<RemotesManifest>;
  /** The remote's declaration beside its manifest (`null`: it has none). */
  fetchInfo?: (manifestUrl: string) => Promise<BuildInfo | null>;
  host?: BuildInfo;
  timeoutMs?: number;
} = {}): RemoteRoutesLoader {
  let manifest: Promise<RemotesManifest> | null = null;
  const infos = new Map<string, Promise<BuildInfo | null>>();
  const registered = new Set<string>();
  registerPlugins([mizanFederationPlugin()]);

  const readManifest = () => {
    manifest ??= fetchManifest().catch((error: unknown) => {
      manifest = null;
      throw error;
    });
    return manifest;
  };
  /** The remote's declaration, read once (again after a failure or for a retry). */
  const readInfo = (name: string, entry: string) => {
    const kept = infos.get(name);
    if (kept) return kept;
    const reading = fetchInfo(entry);
    infos.set(name, reading);
    reading.catch(() => infos.get(name) === reading && infos.delete(name));
    return reading;
  };
  const register = (name: string, entry: string, fresh: boolean) => {
    if (!fresh && registered.has(name)) return;
    // `force` drops the runtime's cached entry and module of a failed attempt.
    registerRemotes([{ name, entry }], { force: registered.has(name) });
    registered.add(name);
  };

  /**
   * One load per remote at a time: the page starts loading the remote of a direct link while the
   * session is still being checked, and the screen's own call then joins that load.
   */
  const inflight = new Map<string, Promise<RemoteRoute[]>>();

  const load = async (name: string, fresh: boolean): Promise<RemoteRoute[]> => {
    setRemoteStatus(name, 'loading');
    // A retry also re-reads remotes.json: the remote may have been released at a new URL meanwhile.
    if (fresh) {
      manifest = null;
      infos.delete(name);
    }
    try {
      const entries = await readManifest().catch((error: unknown) => {
        throw new RemoteUnavailableError(name, 'manifest', error);
      });
      const entry = entries[name];
      if (!entry) throw new RemoteUnavailableError(name, 'not-configured');
      const info = await withTimeout(
        readInfo(name, entry).catch((error: unknown) => {
          throw new RemoteUnavailableError(name, 'manifest', error);
        }),
        timeoutMs,
        () => new RemoteUnavailableError(name, 'timeout'),
      );
      refuseIncompatible(name, info, host);
      register(name, entry, fresh);
      // The menu section downloads beside the routes, not after them.
      const menu = loadMenu(name);
      const module = await withTimeout(
        loadRemote<unknown>(`${name}/routes`),
        timeoutMs,
        () => new RemoteUnavailableError(name, 'timeout'),
      );
      if (isUnavailableModule(module)) throw new RemoteUnavailableError(name, 'load', module.error);
      const routes = validRoutes(name, (module as { default?: unknown } | null)?.default);
      await menu;
      setLoadedRemote(name, info);
      setRemoteStatus(name, 'ready');
      return routes;
    } catch (error) {
      setRemoteStatus(name, 'unavailable');
      throw error instanceof RemoteUnavailableError ? error : new RemoteUnavailableError(name, 'load', error);
    }
  };

  /** What `prepare` fetches for one remote; a remote already loading or loaded is left alone. */
  const prepareOne = async (name: string, entry: string) => {
    if (inflight.has(name)) return;
    const info = await readInfo(name, entry);
    if (info && incompatibilities(host, info).length > 0) return; // its load refuses and says why
    register(name, entry, false);
    // Every exposed module's files filtered out: the manifest and the entry only.
    await preloadRemote([{ nameOrAlias: name, filter: () => false }]);
  };

  const loader: RemoteRoutesLoader = (name, { fresh = false } = {}) => {
    const running = inflight.get(name);
    if (running && !fresh) return running;
    const attempt = load(name, fresh);
    inflight.set(name, attempt);
    // A failed load is not kept: the next call (the retry button) starts again.
    attempt.catch(() => {
      if (inflight.get(name) === attempt) inflight.delete(name);
    });
    return attempt;
  };
  loader.prepare = async () => {
    const entries = await readManifest().catch(() => ({}) as RemotesManifest);
    // One at a time: each entry is a script to run, and the page is in use meanwhile.
    for (const [name, entry] of Object.entries(entries)) {
      await prepareOne(name, entry).catch(() => undefined);
    }
  };
  return loader;
}
