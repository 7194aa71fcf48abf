import type { Entity, Fields } from './entity';
import { registry } from './registry';

/** The standard actions; a definition's own `actions` add theirs (`courts.archive`). */
export type StandardAction =
  'view' | 'create' | 'update' | 'delete' | 'status' | 'baned' | 'import' | 'export';
// `string & {}` keeps the standard names in editor completion while any declared action is accepted.
export type EntityAction = StandardAction | (string & {});

/** `<entity>.<action>`, e.g. `courts.view`. */
export function permissionKey(entity: Pick<Entity<Fields>, 'name'> | string, action: EntityAction): string {
  return `${typeof entity === 'string' ? entity : entity.name}.${action}`;
}

/** The actions an entity's definition gives it, its declared custom actions last. */
export function entityActions(entity: Entity<Fields>): EntityAction[] {
  const actions: EntityAction[] = ['view', 'create', 'update', 'delete', 'export'];
  if (entity.status) actions.push('status');
  if (entity.baned) actions.push('baned');
  if (entity.importable) actions.push('import');
  actions.push(...Object.keys(entity.actions ?? {}));
  return actions;
}

/** Permissions of whole areas rather than of one entity. */
export const AREA_PERMISSIONS = {
  dashboardView: 'dashboard.view',
  systemSettingsView: 'systemSettings.view',
  systemSettingsUpdate: 'systemSettings.update',
  logsView: 'logs.view',
  auditView: 'audit.view',
  chatUse: 'chat.use',
} as const;

export interface PermissionSeed {
  key: string;
  group: string;
}

/** Every permission key, seeded into the `permissions` table at start. */
export const ALL_PERMISSIONS: PermissionSeed[] = [
  ...registry.flatMap((entity) =>
    entityActions(entity as Entity<Fields>).map((action) => ({
      key: permissionKey(entity.name, action),
      group: entity.name,
    })),
  ),
  ...Object.values(AREA_PERMISSIONS).map((key) => ({ key, group: key.split('.')[0] ?? key })),
];

/** Roles created on first start. Administrator holds every permission. */
export const SEEDED_ROLES: { name: string; permissions: (key: string) => boolean }[] = [
  { name: 'Administrator', permissions: () => true },
  {
    name: 'Lawyer',
    permissions: (key) =>
      key === AREA_PERMISSIONS.dashboardView ||
      key === AREA_PERMISSIONS.chatUse ||
      (!key.startsWith('employees.') &&
        !key.startsWith('roles.') &&
        !key.startsWith('permissions.') &&
        !key.startsWith('systemSettings.') &&
        !key.startsWith('logs.') &&
        !key.startsWith('audit.') &&
        (key.endsWith('.view') || key.endsWith('.export'))),
  },
  {
    name: 'Secretary',
    permissions: (key) =>
      key === AREA_PERMISSIONS.dashboardView ||
      key === AREA_PERMISSIONS.chatUse ||
      ['customers', 'customerTypes', 'procurations', 'sessions', 'tasks'].some(
        (area) => key.startsWith(`${area}.`) && !key.endsWith('.delete'),
      ) ||
      (key.endsWith('.view') && !/^(employees|roles|permissions|logs|audit|systemSettings)\./.test(key)),
  },
];
