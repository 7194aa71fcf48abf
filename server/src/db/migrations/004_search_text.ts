import { registry, type Entity, type Fields } from '@mizan/contracts';
import type { Migration } from './types';
import { addSearchColumn } from './searchColumn';

/**
 * Arabic-folded search: every existing entity table with search fields gets `search_text` (the
 * folded values of those fields), its existing rows folded in batches, and its trigram index
 * (SQLite FTS5, PostgreSQL pg_trgm). Tables that have the column already (created with it) and
 * entities without a table yet (created at start, column included) are left alone.
 */
export const searchTextMigration: Migration = {
  name: '004_search_text',
  up: async (db, dialect) => {
    for (const entity of registry as readonly Entity<Fields>[]) await addSearchColumn(db, dialect, entity);
  },
};
