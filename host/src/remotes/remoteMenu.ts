import { MENU, isMenuGroup, type MenuEntry, type MenuItem } from '@mizan/contracts';
import { useSyncExternalStore } from 'react';

/**
 * Menu sections exposed by the remotes (`<remote>/menu`). The host's own copy of the contracts
 * menu stays the fallback for a remote not loaded yet or down; once a remote is loaded, its items
 * and their places come from the menu it was built with, so a remote released alone with a new
 * screen shows it without a new host.
 */

/** The default export of a remote's `./menu`: the whole menu built from the remote's contracts. */
export type RemoteMenu = readonly MenuEntry[];

const GROUP_KEY = (key: string) => `group:${key}`;

/** Top-level entries and each group's items as lists of keys in order, to find predecessors. */
function positions(menu: readonly MenuEntry[]): Map<string | null, string[]> {
  const lists = new Map<string | null, string[]>([[null, []]]);
  for (const entry of menu) {
    if (isMenuGroup(entry)) {
      lists.get(null)!.push(GROUP_KEY(entry.key));
      lists.set(
        entry.key,
        entry.items.map((item) => item.key),
      );
    } else {
      lists.get(null)!.push(entry.key);
    }
  }
  return lists;
}

/** Inserts `value` after the nearest predecessor (in `order`) already present in `list`. */
function insertAfterPredecessor<T>(
  list: T[],
  value: T,
  keyOf: (v: T) => string,
  order: string[],
  key: string,
) {
  const index = order.indexOf(key);
  for (let i = index - 1; i >= 0; i--) {
    const at = list.findIndex((v) => keyOf(v) === order[i]);
    if (at >= 0) {
      list.splice(at + 1, 0, value);
      return;
    }
  }
  list.unshift(value);
}

const entryKey = (entry: MenuEntry) => (isMenuGroup(entry) ? GROUP_KEY(entry.key) : entry.key);

/**
 * The host menu with `remote`'s items taken from `remoteMenu`: the host's items of that remote are
 * removed, then each of the remote's own items is placed after its predecessor in the remote's
 * menu (a group the host does not know yet is added the same way).
 *
 * @example withRemoteMenu(MENU, 'tasks', tasksMenu) // tasks' items as the tasks build defines them
 */
export function withRemoteMenu(
  menu: readonly MenuEntry[],
  remote: string,
  remoteMenu: RemoteMenu,
): MenuEntry[] {
  const own = (item: MenuItem) => item.remote === remote;
  const result: MenuEntry[] = menu.flatMap((entry): MenuEntry[] => {
    if (!isMenuGroup(entry)) return own(entry) ? [] : [entry];
    return [{ ...entry, items: entry.items.filter((item) => !own(item)) }];
  });
  const order = positions(remoteMenu);
  for (const entry of remoteMenu) {
    if (!isMenuGroup(entry)) {
      if (own(entry)) insertAfterPredecessor(result, entry, entryKey, order.get(null)!, entry.key);
      continue;
    }
    for (const item of entry.items.filter(own)) {
      let group = result.find((e) => isMenuGroup(e) && e.key === entry.key);
      if (!group || !isMenuGroup(group)) {
        group = { key: entry.key, items: [] };
        insertAfterPredecessor(result, group, entryKey, order.get(null)!, GROUP_KEY(entry.key));
      }
      insertAfterPredecessor(group.items, item, (i) => i.key, order.get(entry.key)!, item.key);
    }
  }
  return result.filter((entry) => !isMenuGroup(entry) || entry.items.length > 0);
}

/** Whether a remote's `./menu` export is a menu (a broken one leaves the host's copy in place). */
export function isRemoteMenu(value: unknown): value is RemoteMenu {
  return (
    Array.isArray(value) &&
    value.every(
      (entry) =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof entry.key === 'string' &&
        (Array.isArray(entry.items) ||
          (typeof entry.route === 'string' && typeof entry.permission === 'string')),
    )
  );
}

const sections = new Map<string, RemoteMenu>();
const listeners = new Set<() => void>();
let merged: readonly MenuEntry[] = MENU;

function recompute() {
  let menu: MenuEntry[] = [...MENU];
  for (const [remote, remoteMenu] of sections) menu = withRemoteMenu(menu, remote, remoteMenu);
  merged = menu;
  for (const listener of [...listeners]) listener();
}

export function setRemoteMenu(remote: string, remoteMenu: RemoteMenu): void {
  sections.set(remote, remoteMenu);
  recompute();
}

export function resetRemoteMenus(): void {
  sections.clear();
  recompute();
}

export function getMenu(): readonly MenuEntry[] {
  return merged;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The menu to show: the host's copy with every loaded remote's own section. */
export function useMenu(): readonly MenuEntry[] {
  return useSyncExternalStore(subscribe, getMenu, getMenu);
}
