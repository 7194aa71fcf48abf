import { AREA_PERMISSIONS, permissionKey } from './permissions';
import type { Entity, Fields, RemoteName } from './entity';
import { registry } from './registry';
import { ROUTES } from './constants';
import { AUDIT_ROUTES } from './api/audit';
import { BACKUP_ROUTES } from './api/backups';
import { DOCUMENT_ROUTES } from './api/documents';
import { LOG_ROUTES } from './api/logs';
import { SYSTEM_SETTINGS_ROUTES } from './api/system';
import { FINANCE_REPORTS, type ReportDefinition } from './api/financeReports';

/**
 * The side-navigation menu of the side menu, grouped as written. Labels are i18n keys of the `menu`
 * namespace; each item shows only with its view permission.
 */
export interface MenuItem {
  key: string;
  route: string;
  permission: string;
  /** Remote that serves the route; absent for host routes. */
  remote?: RemoteName;
}
export interface MenuGroup {
  key: string;
  items: MenuItem[];
}
export type MenuEntry = MenuItem | MenuGroup;

/** Menu items of screens that are not one entity definition, with their place (see `MenuSlot`). */
const screen = (key: string, route: string, permission: string, remote?: RemoteName): MenuItem => ({
  key,
  route,
  permission,
  remote,
});

/**
 * The skeleton of the menu, in the side menu's order: the groups (their key is the `menu.groups.*` label)
 * and the screens that are not an entity. Entities place themselves with `menu: { group, order }`
 * in their definition: into one of these groups by `order`, or on their own between these
 * top-level slots by `order` (group `null`). Only a new group or a non-entity screen is added here.
 */
export interface MenuSlot {
  key: string;
  order: number;
  /** A screen on its own; absent for a group. */
  screen?: MenuItem;
  /** A group's own screens, placed among its entities by `order`. */
  screens?: { order: number; item: MenuItem }[];
}

const SLOTS: MenuSlot[] = [
  {
    key: 'dashboard',
    order: 10,
    screen: screen('dashboard', ROUTES.dashboard, AREA_PERMISSIONS.dashboardView),
  },
  { key: 'employees', order: 20 },
  {
    key: 'systemSettings',
    order: 30,
    screens: [
      {
        order: 1,
        item: screen(
          'generalSystem',
          SYSTEM_SETTINGS_ROUTES.get.path,
          AREA_PERMISSIONS.systemSettingsView,
          'settings',
        ),
      },
      {
        order: 2,
        item: screen(
          'appearance',
          SYSTEM_SETTINGS_ROUTES.appearance.path,
          AREA_PERMISSIONS.systemSettingsView,
          'settings',
        ),
      },
      { order: 3, item: screen('systemLogs', LOG_ROUTES.latest.path, AREA_PERMISSIONS.logsView, 'settings') },
      {
        order: 4,
        item: screen('auditTrail', AUDIT_ROUTES.list.path, AREA_PERMISSIONS.auditView, 'settings'),
      },
      {
        order: 5,
        item: screen('backups', BACKUP_ROUTES.list.path, AREA_PERMISSIONS.backupsView, 'settings'),
      },
      {
        order: 7,
        item: screen(
          'documentFields',
          DOCUMENT_ROUTES.fields.path,
          permissionKey('documentTemplates', 'view'),
          'settings',
        ),
      },
    ],
  },
  { key: 'places', order: 40 },
  { key: 'lawsuitSettings', order: 50 },
  { key: 'courts', order: 70 },
  { key: 'sessionSettings', order: 90 },
  { key: 'offices', order: 100 },
  { key: 'clients', order: 120 },
  { key: 'legal', order: 140 },
  {
    key: 'finance',
    order: 145,
    // The reports after the retainer, before the settings of the group.
    screens: (Object.values(FINANCE_REPORTS) as ReportDefinition[]).map((report, index) => ({
      order: 6 + index / 10,
      item: screen(reportMenuKey(report.key), report.path, report.permission, 'legal'),
    })),
  },
  { key: 'chat', order: 150, screen: screen('chat', '/admin/chats', AREA_PERMISSIONS.chatUse, 'chat') },
];

/** The menu label key (`menu.<key>`) of a finance report's screen. */
export function reportMenuKey(key: string): string {
  return `${key}Report`;
}

/** An entity's list screen as a menu item: its route, its view permission and its remote. */
export const entityMenuItem = (entity: Entity<Fields>): MenuItem => ({
  key: entity.name,
  route: entity.route,
  permission: permissionKey(entity.name, 'view'),
  remote: entity.remote,
});

/**
 * Builds the menu from the slots and the definitions' `menu` placements. A definition naming a
 * group that is not a slot fails here, at start-up; `menu: false` (or none) keeps it out.
 */
export function buildMenu(slots: readonly MenuSlot[], entities: readonly Entity<Fields>[]): MenuEntry[] {
  const groups = new Set(slots.filter((s) => !s.screen).map((s) => s.key));
  const placed = entities.flatMap((entity, index) => {
    const menu = entity.menu;
    if (!menu) return [];
    if (menu.group !== null && !groups.has(menu.group)) {
      throw new Error(
        `Entity "${entity.name}": menu group "${menu.group}" does not exist (groups: ${[...groups].join(', ')})`,
      );
    }
    return [{ group: menu.group, order: menu.order ?? 0, index, item: entityMenuItem(entity) }];
  });
  const byOrder = <T extends { order: number; index: number }>(a: T, b: T) =>
    a.order - b.order || a.index - b.index;
  // Slots come before entities of the same order; entities keep registry order among equals.
  const top = [
    ...slots.map((slot, index) => ({ order: slot.order, index: index - slots.length, slot })),
    ...placed.filter((p) => p.group === null).map((p) => ({ order: p.order, index: p.index, item: p.item })),
  ].sort(byOrder);
  return top.flatMap((entry): MenuEntry[] => {
    if ('item' in entry) return [entry.item];
    const { slot } = entry;
    if (slot.screen) return [slot.screen];
    const items = [
      ...(slot.screens ?? []).map((s, index) => ({ order: s.order, index: index - 1000, item: s.item })),
      ...placed.filter((p) => p.group === slot.key),
    ]
      .sort(byOrder)
      .map((p) => p.item);
    return items.length ? [{ key: slot.key, items }] : [];
  });
}

export const MENU: MenuEntry[] = buildMenu(SLOTS, registry as readonly Entity<Fields>[]);

/** Group keys of the menu (`menu.groups.<key>` labels), for definitions' `menu.group`. */
export const MENU_GROUPS: readonly string[] = SLOTS.filter((s) => !s.screen).map((s) => s.key);

export const isMenuGroup = (entry: MenuEntry): entry is MenuGroup => 'items' in entry;
