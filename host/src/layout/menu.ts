import { MENU, isMenuGroup, type MenuEntry, type MenuGroup, type MenuItem } from '@mizan/contracts';

/**
 * The side menu as the user may see it: every item needs its permission, and a group with
 * no visible item is hidden. Order and grouping stay as written in contracts `MENU`.
 */
export function visibleMenu(
  permissions: ReadonlySet<string>,
  menu: readonly MenuEntry[] = MENU,
): MenuEntry[] {
  const visible: MenuEntry[] = [];
  for (const entry of menu) {
    if (isMenuGroup(entry)) {
      const items = entry.items.filter((item) => permissions.has(item.permission));
      if (items.length > 0) visible.push({ ...entry, items } satisfies MenuGroup);
    } else if (permissions.has(entry.permission)) {
      visible.push(entry);
    }
  }
  return visible;
}

/** Every visible item, groups flattened (dashboard quick links). */
export function visibleItems(
  permissions: ReadonlySet<string>,
  menu: readonly MenuEntry[] = MENU,
): MenuItem[] {
  return visibleMenu(permissions, menu).flatMap((entry) => (isMenuGroup(entry) ? entry.items : [entry]));
}

/** The menu item whose route is the longest prefix of the path (the one to highlight). */
export function activeItem(pathname: string, items: readonly MenuItem[]): MenuItem | undefined {
  let best: MenuItem | undefined;
  for (const item of items) {
    if (pathname === item.route || pathname.startsWith(`${item.route}/`)) {
      if (!best || item.route.length > best.route.length) best = item;
    }
  }
  return best;
}

/** The group holding an item, to open it in the side menu. */
export function groupOf(itemKey: string, menu: readonly MenuEntry[] = MENU): MenuGroup | undefined {
  return menu.filter(isMenuGroup).find((group) => group.items.some((item) => item.key === itemKey));
}
