import { MENU, isMenuGroup, registry, type RemoteName } from '@mizan/contracts';

/** Route prefixes each remote serves, from the entity definitions and the menu (one source). */
function collectPrefixes(): [string, RemoteName][] {
  const pairs = new Map<string, RemoteName>();
  for (const entity of registry) pairs.set(entity.route, entity.remote);
  for (const entry of MENU) {
    for (const item of isMenuGroup(entry) ? entry.items : [entry]) {
      if (item.remote) pairs.set(item.route, item.remote);
    }
  }
  // Longest first, so `/admin/lawsuits/tasks` (tasks) wins over `/admin/lawsuits` (legal).
  return [...pairs.entries()].sort((a, b) => b[0].length - a[0].length);
}

const PREFIXES = collectPrefixes();

/**
 * The remote that owns a URL, by longest route prefix on a segment boundary.
 *
 * @example remoteForPath('/admin/settings/places/continents/12') // 'settings'
 */
export function remoteForPath(pathname: string): RemoteName | undefined {
  const path = pathname.replace(/\/+$/, '');
  for (const [prefix, remote] of PREFIXES) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return remote;
  }
  return undefined;
}
