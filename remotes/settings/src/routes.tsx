import type { RemoteRoute } from '@mizan/build/routes';
import {
  AREA_PERMISSIONS,
  SYSTEM,
  permissionKey,
  registry,
  type Entity,
  type Fields,
} from '@mizan/contracts';
import { AuditPage } from './audit/AuditPage';
import { entityScreen } from './entityScreens';
import { LogsPage } from './logs/LogsPage';
import { AppearancePage } from './system/AppearancePage';
import { GeneralSettingsPage } from './system/GeneralSettingsPage';

/** Every definition the settings remote shows, from the registry (a new settings list needs no code here). */
export const settingsEntities = registry.filter(
  (entity) => entity.remote === 'settings',
) as readonly Entity<Fields>[];

/**
 * The settings remote's screens (contract of `@mizan/build/routes`): one generic entity page per
 * registry entity of this remote, then the system screens.
 */
export const routes: RemoteRoute[] = [
  ...settingsEntities.map((entity) => ({
    path: entity.route,
    permission: permissionKey(entity.name, 'view'),
    element: entityScreen(entity),
  })),
  { path: SYSTEM.general, permission: AREA_PERMISSIONS.systemSettingsView, element: <GeneralSettingsPage /> },
  { path: SYSTEM.appearances, permission: AREA_PERMISSIONS.systemSettingsView, element: <AppearancePage /> },
  { path: SYSTEM.logs, permission: AREA_PERMISSIONS.logsView, element: <LogsPage /> },
  { path: SYSTEM.audit, permission: AREA_PERMISSIONS.auditView, element: <AuditPage /> },
];

export default routes;
