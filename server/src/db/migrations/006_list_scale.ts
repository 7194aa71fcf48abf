import { registry, type Entity, type Fields } from '@mizan/contracts';
import type { Migration } from './types';
import { createEntityWriteTriggers, createSortIndexes } from './entityTables';
import { addVersionColumn } from './writeVersions';
import { tableNames } from '../index';

/**
 * Lists at scale on tables that exist already (new tables get both from `createEntityTable`):
 * the write version of every entity (`entity_counts.version` and the triggers raising it, see
 * writeVersions.ts), which keeps cached filtered totals and page boundaries exact, and the
 * `(column, id)` indexes of every filterable column besides the sortable ones.
 */
export const listScaleMigration: Migration = {
  name: '006_list_scale',
  up: async (db, dialect) => {
    await addVersionColumn(db);
    const existing = await tableNames(db);
    for (const entity of registry as readonly Entity<Fields>[]) {
      if (!existing.has(entity.table)) continue;
      await createEntityWriteTriggers(db, dialect, entity);
      await createSortIndexes(db, entity);
    }
  },
};
