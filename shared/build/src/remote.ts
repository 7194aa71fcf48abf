import { MENU, isMenuGroup, registry, type MenuEntry, type RemoteName } from '@mizan/contracts';
import { i18n, LANGUAGES, type Language } from '@mizan/i18n';

/**
 * What makes a remote self-contained when it is released on its own: it brings its
 * own texts and its own menu section, both from the sources it was built with, instead of running
 * on the host's copies of them.
 */

type Json = { [key: string]: unknown };

/** One language's resources a remote ships: its own namespace(s) plus the shared `entities` and `menu`. */
export type RemoteTexts = Record<Language, { entities: Json; menu: Json } & Record<string, Json>>;

const pick = (source: unknown, keys: Iterable<string>): Json => {
  const all = (source ?? {}) as Json;
  return Object.fromEntries([...keys].filter((key) => key in all).map((key) => [key, all[key]]));
};

/** Flattened menu items with the group holding each (null at the top level). */
function ownMenu(remote: RemoteName, menu: readonly MenuEntry[]) {
  const items: string[] = [];
  const groups = new Set<string>();
  for (const entry of menu) {
    for (const item of isMenuGroup(entry) ? entry.items : [entry]) {
      if (item.remote !== remote) continue;
      items.push(item.key);
      if (isMenuGroup(entry)) groups.add(entry.key);
    }
  }
  return { items, groups };
}

/**
 * The part of the shared `entities`/`menu` namespaces that belongs to `remote` (its entities'
 * labels, its menu items and their groups) and the whole of its own namespaces.
 */
export function remoteBundles(remote: RemoteName, texts: RemoteTexts[Language]): Record<string, Json> {
  const entities = registry.filter((entity) => entity.remote === remote).map((entity) => entity.name);
  const { items, groups } = ownMenu(remote, MENU);
  const { entities: allEntities, menu, ...own } = texts;
  return {
    ...own,
    entities: pick(allEntities, entities),
    menu: { items: pick(menu.items, items), groups: pick(menu.groups, groups) },
  };
}

/**
 * Adds the remote's texts to the page's one i18next instance, over the host's (a remote released
 * after the host may have new or changed strings). Called when the remote's `./routes` loads.
 *
 * @example registerRemoteTexts('tasks', { ar: { tasks: arTasks, entities: arEntities, menu: arMenu }, en: … })
 */
export function registerRemoteTexts(remote: RemoteName, texts: RemoteTexts): void {
  for (const lng of LANGUAGES) {
    for (const [ns, bundle] of Object.entries(remoteBundles(remote, texts[lng]))) {
      i18n.addResourceBundle(lng, ns, bundle, true, true);
    }
  }
}
