import { registry, type Entity, type Fields } from '@mizan/contracts';
import { createEntityWriteTriggers } from './entityTables';
import { createFilterCountTriggers } from './filterCounts';
import type { Migration } from './types';
import { tableNames } from '../index';

/**
 * PostgreSQL raises write versions and kept filter totals at commit (deferred triggers,
 * writeVersions.ts and filterCounts.ts), so that concurrent writers of an entity do not wait for
 * each other's whole transactions: the triggers of the tables that exist are made again. SQLite's
 * stay as they are (one writer).
 */
export const keptAtCommitMigration: Migration = {
  name: '012_kept_at_commit',
  up: async (db, dialect) => {
    if (dialect !== 'postgres') return;
    const existing = await tableNames(db);
    for (const entity of registry as readonly Entity<Fields>[]) {
      if (!existing.has(entity.table)) continue;
      await createEntityWriteTriggers(db, dialect, entity);
      await createFilterCountTriggers(db, dialect, entity);
    }
  },
};
