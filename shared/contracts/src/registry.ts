import type { Entity, Fields } from './entity';
import { employees, permissions, roles } from './entities/people';
import { continents, countries, governorates, policeStations } from './entities/places';
import {
  administrativeSections,
  branches,
  circuits,
  courts,
  customerTypes,
  judges,
  judicialRanks,
  lawsuitCases,
  lawsuitOwners,
  lawsuitTypes,
  procurationCases,
  sessionAttendances,
  sessionTypes,
  taskTypes,
} from './entities/settings';

/**
 * Every entity served by the engine, in dependency order: a definition comes after every
 * entity it references, so migrations and seeds can run in this order.
 */
export const registry = [
  permissions,
  roles,
  continents,
  countries,
  governorates,
  policeStations,
  branches,
  administrativeSections,
  employees,
  lawsuitTypes,
  lawsuitOwners,
  lawsuitCases,
  procurationCases,
  courts,
  circuits,
  judicialRanks,
  judges,
  taskTypes,
  sessionTypes,
  sessionAttendances,
  customerTypes,
] as const satisfies readonly Entity<Fields>[];

export type EntityName = (typeof registry)[number]['name'];

const byName = new Map<string, Entity<Fields>>(registry.map((e) => [e.name, e as Entity<Fields>]));

export function getEntity(name: string): Entity<Fields> {
  const entity = byName.get(name);
  if (!entity) throw new Error(`Unknown entity "${name}"`);
  return entity;
}

export function findEntity(name: string): Entity<Fields> | undefined {
  return byName.get(name);
}
