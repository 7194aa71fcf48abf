import type { FastifyPluginAsync } from 'fastify';
import { setPublicSettingsSource } from '../auth/publicSettings';
import { registerFileAccess } from '../files/routes';
import { auditRoutes } from './audit/routes';
import { documentOnly } from './docs';
import { logsRoutes } from './logs/routes';
import { toPublic } from './settings/model';
import { readSettings } from './settings/repository';
import { settingsRoutes } from './settings/routes';
import { SettingsService } from './settings/service';
import './messages';

export { systemMigrations } from './migrations';
export { getSecurityPolicy, readSettings } from './settings/repository';
export {
  defaultSettings,
  type SecurityPolicy,
  type SystemSettings,
  type PublicSystemSettings,
} from './settings/model';
export type { AuditItem } from './audit/routes';

/**
 * System settings, appearance, system logs and the audit trail. Register at the root (no prefix):
 * the paths are absolute (`/api/admin/settings/system/...`, `/api/auth/systemSettings/logo|favicon`).
 * Also feeds `GET /api/auth/systemSettings` (auth module) from the settings row.
 */
export const systemPlugin: FastifyPluginAsync = async (app) => {
  documentOnly(app);
  // The logo and favicon are public (the login page shows them): any signed-in user may read them too.
  registerFileAccess('systemSettings', () => true);
  setPublicSettingsSource(async (db) => toPublic(await readSettings(db)));
  const settings = new SettingsService(app);
  settingsRoutes(app, settings);
  logsRoutes(app);
  auditRoutes(app);
};

/** `getPublicSettings` for callers outside the auth module: the login page's settings from the row. */
export { getPublicSettings } from '../auth/publicSettings';
