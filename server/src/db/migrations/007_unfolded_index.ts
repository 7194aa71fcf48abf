import { registry, type Entity, type Fields } from '@mizan/contracts';
import { createUnfoldedIndex } from './searchColumn';
import type { Migration } from './types';
import { tableNames } from '../index';

/**
 * The partial index of rows without folded search text on tables that exist already (new tables
 * get it with their search index): the fold at each start then reads an empty index instead of
 * scanning every row.
 */
export const unfoldedIndexMigration: Migration = {
  name: '007_unfolded_index',
  up: async (db) => {
    const existing = await tableNames(db);
    for (const entity of registry as readonly Entity<Fields>[])
      if (existing.has(entity.table)) await createUnfoldedIndex(db, entity);
  },
};
