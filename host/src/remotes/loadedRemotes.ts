import { useSyncExternalStore } from 'react';
import type { BuildInfo } from './compat';

/**
 * The declaration of each remote this page has loaded (the about dialog lists their versions).
 * `null`: loaded, but its build declares no version (built before declarations existed).
 */
const loaded = new Map<string, BuildInfo | null>();
const listeners = new Set<() => void>();
let snapshot: Readonly<Record<string, BuildInfo | null>> = {};

export function setLoadedRemote(name: string, info: BuildInfo | null): void {
  loaded.set(name, info);
  snapshot = Object.fromEntries(loaded);
  for (const listener of [...listeners]) listener();
}

export function getLoadedRemotes(): Readonly<Record<string, BuildInfo | null>> {
  return snapshot;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLoadedRemotes(): Readonly<Record<string, BuildInfo | null>> {
  return useSyncExternalStore(subscribe, getLoadedRemotes, getLoadedRemotes);
}
