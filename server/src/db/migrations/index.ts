import { systemMigration } from './001_system';
import { entitiesMigration } from './002_entities';
import { sortIndexesMigration } from './003_sort_indexes';
import { searchTextMigration } from './004_search_text';
import { declaredIndexesMigration } from './005_declared_indexes';
import { listScaleMigration } from './006_list_scale';
import { unfoldedIndexMigration } from './007_unfolded_index';
import { filterCountsMigration } from './008_filter_counts';
import { compoundNamesMigration } from './009_compound_names';
import { numberCountersMigration } from './010_number_counters';
import { counterSequencesMigration } from './011_counter_sequences';
import { keptAtCommitMigration } from './012_kept_at_commit';
import type { Migration } from './types';

export type { Migration } from './types';
export {
  createEntityTables,
  createMissingEntityTables,
  addEntityFields,
  columnName,
  joinTableName,
  columnType,
  createDeclaredIndexes,
  declaredIndexColumns,
  sortIndexName,
} from './entityTables';
export { SEARCH_COLUMN, foldRows, foldUnfoldedRows, joinStoredCompounds } from './searchColumn';
export { readFilterCount, recountFilterCounts } from './filterCounts';

/**
 * The kernel's own migrations (audit trail, files, counts, the registry's entity tables): the
 * first group. Each feature module brings its own group, listed in app.ts (`MIGRATION_GROUPS`).
 * Append only: a new step goes at the end.
 */
export const coreMigrations: Migration[] = [
  systemMigration,
  entitiesMigration,
  sortIndexesMigration,
  searchTextMigration,
  declaredIndexesMigration,
  listScaleMigration,
  unfoldedIndexMigration,
  filterCountsMigration,
  compoundNamesMigration,
  numberCountersMigration,
  counterSequencesMigration,
  keptAtCommitMigration,
];
