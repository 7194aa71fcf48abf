import { createCounterSequences } from '../counters';
import type { Migration } from './types';

/**
 * PostgreSQL takes generated numbers from a sequence per series and year (counters.ts), so a
 * create does not hold the year's counter row until it commits: the functions that make, take
 * from and raise those sequences. SQLite keeps `number_counters`.
 */
export const counterSequencesMigration: Migration = {
  name: '011_counter_sequences',
  up: (db, dialect) => createCounterSequences(db, dialect),
};
