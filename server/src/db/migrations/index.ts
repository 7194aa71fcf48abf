import { systemMigration } from './001_system';
import { entitiesMigration } from './002_entities';
import type { Migration } from './types';
import { authMigrations } from '../../auth/migrations';
import { systemMigrations } from '../../system/migrations';

export type { Migration } from './types';
export { createEntityTables, addEntityFields, columnName, joinTableName, columnType } from './entityTables';

/**
 * Every migration group, in dependency order. Within a group, steps run in array order; groups
 * run one after another. Append only: a new step goes at the end of its group.
 */
export const migrationGroups: { group: string; migrations: Migration[] }[] = [
  { group: 'core', migrations: [systemMigration, entitiesMigration] },
  { group: 'auth', migrations: authMigrations },
  { group: 'system', migrations: systemMigrations },
];
