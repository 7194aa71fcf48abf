import { getEntity } from '@mizan/contracts';
import type { Migration } from './types';
import { ENTITIES_002 } from './002_entities';
import { createSortIndexes } from './entityTables';

/**
 * Every sortable column of the first release's entities gets a `(column, id)` index (002 indexed
 * only the default order's), so sorting a long list by a column does not scan the table. Entities
 * created later get theirs from `createEntityTables`.
 */
export const sortIndexesMigration: Migration = {
  name: '003_sort_indexes',
  up: async (db) => {
    for (const name of ENTITIES_002) await createSortIndexes(db, getEntity(name));
  },
};
