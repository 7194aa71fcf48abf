import { useSyncExternalStore } from 'react';

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

export function useRemoteStatuses(): Readonly<Record<string, RemoteStatus>> {
  return useSyncExternalStore(subscribe, getRemoteStatuses, getRemoteStatuses);
}
