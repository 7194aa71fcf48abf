import { useMemo, useSyncExternalStore } from 'react';

export type RemoteStatus = 'idle' | 'loading' | 'ready' | 'unavailable';

/**
 * Load state of each remote, outside React so the federation runtime plugin can report into it.
 * The menu reads it to mark a section that is down; the screens read it through their own loader.
 */
const statuses = new Map<string, RemoteStatus>();
const listeners = new Set<() => void>();
let snapshot: Readonly<Record<string, RemoteStatus>> = {};

export function setRemoteStatus(name: string, status: RemoteStatus): void {
  if (statuses.get(name) === status) return;
  statuses.set(name, status);
  snapshot = Object.fromEntries(statuses);
  for (const listener of [...listeners]) listener();
}

export function getRemoteStatuses(): Readonly<Record<string, RemoteStatus>> {
  return snapshot;
}

export function resetRemoteStatuses(): void {
  statuses.clear();
  snapshot = {};
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Names of the remotes that are down, joined: a string, so that equal lists are equal snapshots. */
function unavailableNames(): string {
  return Object.keys(snapshot)
    .filter((name) => snapshot[name] === 'unavailable')
    .sort()
    .join(' ');
}

/**
 * Whether each remote is down, re-rendering only when that changes: the menu must not re-render
 * while a remote loads (pointing at a menu item starts loading its remote, and a re-render between
 * the pointer's arrival and its click is what the click would land on).
 */
export function useUnavailableRemotes(): ReadonlySet<string> {
  const names = useSyncExternalStore(subscribe, unavailableNames, unavailableNames);
  return useMemo(() => new Set(names ? names.split(' ') : []), [names]);
}
