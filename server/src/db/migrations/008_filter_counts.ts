import { registry, type Entity, type Fields } from '@mizan/contracts';
import { createFilterCountTriggers, createFilterCountsTable, recountFilterCounts } from './filterCounts';
import type { Migration } from './types';
import { tableNames } from '../index';

/**
 * Kept filter totals (filterCounts.ts): the table, and the triggers and first counts of every
 * definition declaring `counts` on tables that exist already (tables created later get their
 * triggers from `createEntityTable`). A group declared after this step runs needs a migration of
 * its own calling `createFilterCountTriggers` and `recountFilterCounts` for that entity.
 */
export const filterCountsMigration: Migration = {
  name: '008_filter_counts',
  up: async (db, dialect) => {
    await createFilterCountsTable(db);
    const existing = await tableNames(db);
    const counted = (registry as readonly Entity<Fields>[]).filter(
      (e) => e.counts?.length && existing.has(e.table),
    );
    for (const entity of counted) await createFilterCountTriggers(db, dialect, entity);
    await recountFilterCounts(db, dialect, counted);
  },
};
