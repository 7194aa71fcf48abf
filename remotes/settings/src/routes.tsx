import type { RemoteRoute } from '@mizan/build/routes';
import {
  AREA_PERMISSIONS,
  documentTemplates,
  permissionKey,
  AUDIT_ROUTES,
  BACKUP_ROUTES,
  DOCUMENT_ROUTES,
  LOG_ROUTES,
  SYSTEM_SETTINGS_ROUTES,
} from '@mizan/contracts';
import { entityRoutes } from '@mizan/ui';
import { AuditPage } from './audit/AuditPage';
import { DocumentFieldsPage } from './documents/DocumentFieldsPage';
import { BackupsPage } from './backups/BackupsPage';
import { ENTITY_OVERRIDES } from './entityScreens';
import { LogsPage } from './logs/LogsPage';
import { AppearancePage } from './system/AppearancePage';
import { GeneralSettingsPage } from './system/GeneralSettingsPage';

/**
 * The settings remote's screens (contract of `@mizan/build/routes`): one screen per registry entity
 * of this remote (the generic page with its overrides; a new settings list needs no code here), then
 * the system screens.
 */
export const routes: RemoteRoute[] = [
  ...entityRoutes('settings', ENTITY_OVERRIDES),
  {
    path: SYSTEM_SETTINGS_ROUTES.get.path,
    permission: AREA_PERMISSIONS.systemSettingsView,
    element: <GeneralSettingsPage />,
  },
  {
    path: SYSTEM_SETTINGS_ROUTES.appearance.path,
    permission: AREA_PERMISSIONS.systemSettingsView,
    element: <AppearancePage />,
  },
  { path: LOG_ROUTES.latest.path, permission: AREA_PERMISSIONS.logsView, element: <LogsPage /> },
  { path: AUDIT_ROUTES.list.path, permission: AREA_PERMISSIONS.auditView, element: <AuditPage /> },
  {
    path: DOCUMENT_ROUTES.fields.path,
    permission: permissionKey(documentTemplates, 'view'),
    element: <DocumentFieldsPage />,
  },
  { path: BACKUP_ROUTES.list.path, permission: AREA_PERMISSIONS.backupsView, element: <BackupsPage /> },
];

export default routes;
