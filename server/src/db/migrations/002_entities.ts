import type { Migration } from './types';
import { createEntityTables } from './entityTables';

/**
 * The entities of the first release, named explicitly (referenced entities first) so that this
 * migration never changes when the registry grows: a new entity's tables are created at start
 * (`createMissingEntityTables`).
 */
export const ENTITIES_002 = [
  'permissions',
  'roles',
  'continents',
  'countries',
  'governorates',
  'policeStations',
  'branches',
  'administrativeSections',
  'employees',
  'lawsuitTypes',
  'lawsuitOwners',
  'lawsuitCases',
  'procurationCases',
  'courts',
  'circuits',
  'judicialRanks',
  'judges',
  'taskTypes',
  'sessionTypes',
  'sessionAttendances',
  'customerTypes',
] as const;

export const entitiesMigration: Migration = {
  name: '002_entities',
  up: (db, dialect) => createEntityTables(db, dialect, ENTITIES_002),
};
