import type { FastifyPluginAsync } from 'fastify';
import { auditRoutes } from './audit/routes';
import { logsRoutes } from './logs/routes';
import { settingsRoutes } from './settings/routes';
import { SettingsService } from './settings/service';

export { systemMigrations } from './migrations';
export { getPublicSettings, getSecurityPolicy, readSettings, readTimeZone } from '../settings/repository';
export {
  defaultSettings,
  type SecurityPolicy,
  type SystemSettings,
  type PublicSystemSettings,
} from '../settings/model';
export type { AuditItem } from './audit/routes';

/**
 * System settings, appearance, system logs and the audit trail. Register at the root (no prefix):
 * the paths are absolute (`/api/admin/settings/system/...`, `/api/auth/systemSettings/logo|favicon`).
 * `getPublicSettings` (settings repository) answers `GET /api/auth/systemSettings` for the auth module.
 */
export const systemPlugin: FastifyPluginAsync = async (app) => {
  // The logo and favicon are public (the login page shows them): any signed-in user may read them too.
  app.fileAccess.set('systemSettings', () => true);
  const settings = new SettingsService(app);
  settingsRoutes(app, settings);
  logsRoutes(app);
  auditRoutes(app);
};
