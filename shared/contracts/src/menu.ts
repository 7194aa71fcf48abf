import { AREA_PERMISSIONS, permissionKey } from './permissions';
import type { RemoteName } from './entity';
import { getEntity } from './registry';
import { ROUTES } from './constants';
import { SYSTEM } from './endpoints';

/**
 * The side-navigation menu of seed §2, grouped as written. Labels are i18n keys of the `menu`
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

const item = (name: string): MenuItem => {
  const entity = getEntity(name);
  return { key: name, route: entity.route, permission: permissionKey(name, 'view'), remote: entity.remote };
};

/** Menu items of screens that are not one entity definition. */
const screen = (key: string, route: string, permission: string, remote?: RemoteName): MenuItem => ({
  key,
  route,
  permission,
  remote,
});

export const MENU: MenuEntry[] = [
  screen('dashboard', ROUTES.dashboard, AREA_PERMISSIONS.dashboardView),
  { key: 'employees', items: [item('employees'), item('roles'), item('permissions')] },
  {
    key: 'systemSettings',
    items: [
      screen('generalSystem', SYSTEM.general, AREA_PERMISSIONS.systemSettingsView, 'settings'),
      screen('appearance', SYSTEM.appearances, AREA_PERMISSIONS.systemSettingsView, 'settings'),
      screen('systemLogs', SYSTEM.logs, AREA_PERMISSIONS.logsView, 'settings'),
      screen('auditTrail', SYSTEM.audit, AREA_PERMISSIONS.auditView, 'settings'),
    ],
  },
  {
    key: 'places',
    items: [item('continents'), item('countries'), item('governorates'), item('policeStations')],
  },
  { key: 'lawsuitSettings', items: [item('lawsuitTypes'), item('lawsuitOwners'), item('lawsuitCases')] },
  item('procurationCases'),
  { key: 'courts', items: [item('courts'), item('circuits'), item('judges'), item('judicialRanks')] },
  item('taskTypes'),
  { key: 'sessionSettings', items: [item('sessionTypes'), item('sessionAttendances')] },
  { key: 'offices', items: [item('branches')] },
  item('administrativeSections'),
  {
    key: 'clients',
    items: [screen('customers', '/admin/customers', 'customers.view', 'clients'), item('customerTypes')],
  },
  screen('procurations', '/admin/customers/procurations', 'procurations.view', 'clients'),
  {
    key: 'legal',
    items: [
      screen('lawsuits', '/admin/lawsuits', 'lawsuits.view', 'legal'),
      screen('sessions', '/admin/lawsuits/sessions', 'sessions.view', 'legal'),
      screen('opponents', '/admin/lawsuits/opponents', 'opponents.view', 'legal'),
      screen('attachments', '/admin/lawsuits/attachments', 'attachments.view', 'legal'),
      screen('tasks', '/admin/lawsuits/tasks', 'tasks.view', 'tasks'),
    ],
  },
  screen('chat', '/admin/chats', AREA_PERMISSIONS.chatUse, 'chat'),
];

export const isMenuGroup = (entry: MenuEntry): entry is MenuGroup => 'items' in entry;
