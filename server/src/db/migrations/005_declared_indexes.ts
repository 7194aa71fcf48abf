import { registry, type Entity, type Fields } from '@mizan/contracts';
import type { Migration } from './types';
import { createDeclaredIndexes } from './entityTables';
import { tableNames } from '../index';

/**
 * The composite indexes definitions declare (`indexes`: a lawyer's hearings of a month, a court's
 * lawsuits in one state) on tables created before they were declared; tables created later get
 * theirs from `createEntityTable`. An index declared after this step runs needs a migration of its
 * own calling `createDeclaredIndexes` for that entity.
 */
export const declaredIndexesMigration: Migration = {
  name: '005_declared_indexes',
  up: async (db) => {
    const existing = await tableNames(db);
    for (const entity of registry as readonly Entity<Fields>[])
      if (entity.indexes?.length && existing.has(entity.table)) await createDeclaredIndexes(db, entity);
  },
};
