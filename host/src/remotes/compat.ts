/**
 * What a build says about itself (shared/build/versions.js): its release version and the version of
 * every shared singleton, @mizan/sdk included, it was compiled against. A remote writes it beside
 * its `mf-manifest.json` as `mizan-remote.json`; the host's own is compiled in.
 */
export interface BuildInfo {
  name: string;
  version: string;
  builtAt?: string;
  shared: Record<string, string>;
}

export const REMOTE_INFO_FILE = 'mizan-remote.json';

declare const __MIZAN_BUILD__: BuildInfo | undefined;

/** The host's declaration; jest has no webpack, so an empty one there. */
export const HOST_BUILD: BuildInfo =
  typeof __MIZAN_BUILD__ === 'undefined' ? { name: 'host', version: 'dev', shared: {} } : __MIZAN_BUILD__;

const SEMVER = /^(\d+)\.(\d+)\.(\d+)/;

/**
 * Whether code built against `built` runs on the page's `running` copy of a singleton: the same
 * major version, and for 0.x (where a minor may break) the same minor too.
 *
 * @example compatibleVersions('19.3.1', '19.0.0') // true
 * @example compatibleVersions('0.1.0', '0.2.0') // false
 */
export function compatibleVersions(running: string, built: string): boolean {
  const a = SEMVER.exec(running);
  const b = SEMVER.exec(built);
  if (!a || !b) return running === built;
  if (a[1] !== b[1]) return false;
  return a[1] !== '0' || a[2] === b[2];
}

/** Why a remote cannot run on this host, one line per singleton; empty when it can. */
export function incompatibilities(host: BuildInfo, remote: BuildInfo): string[] {
  return Object.entries(remote.shared).flatMap(([pkg, built]) => {
    const running = host.shared[pkg];
    if (running === undefined || compatibleVersions(running, built)) return [];
    return [`${pkg} ${built} (remote) is not compatible with ${running} (host)`];
  });
}

function isBuildInfo(value: unknown): value is BuildInfo {
  if (!value || typeof value !== 'object') return false;
  const { name, version, shared } = value as Record<string, unknown>;
  return (
    typeof name === 'string' &&
    typeof version === 'string' &&
    !!shared &&
    typeof shared === 'object' &&
    Object.values(shared).every((v) => typeof v === 'string')
  );
}

/**
 * Reads a remote's declaration next to its manifest. `null` when it has none (a build older than
 * the declaration: loaded as before); a declaration that is there but unreadable throws.
 */
export async function fetchRemoteInfo(manifestUrl: string): Promise<BuildInfo | null> {
  const response = await fetch(new URL(REMOTE_INFO_FILE, manifestUrl), { cache: 'no-cache' });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`${REMOTE_INFO_FILE} answered ${response.status}`);
  const value: unknown = await response.json();
  if (!isBuildInfo(value)) throw new Error(`${REMOTE_INFO_FILE} is malformed`);
  return value;
}
