import { registry, type Entity, type Fields } from '@mizan/contracts';
import { hasSearch, joinStoredCompounds } from './searchColumn';
import type { Migration } from './types';
import { tableNames } from '../index';

/**
 * Folding joins compound names (`عبد الله` → `عبدالله`, `أبو بكر` → `ابوبكر`) so either spelling
 * finds the other: the search text stored before is refolded the same way, or a query folded
 * the new way would miss the rows written the old way.
 */
export const compoundNamesMigration: Migration = {
  name: '009_compound_names_folded',
  up: async (db) => {
    const existing = await tableNames(db);
    for (const entity of registry as readonly Entity<Fields>[])
      if (hasSearch(entity) && existing.has(entity.table)) await joinStoredCompounds(db, entity.table);
  },
};
