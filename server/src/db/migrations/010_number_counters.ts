import { createNumberCounters } from '../counters';
import type { Migration } from './types';

/**
 * Numbers handed out in turn per series and year (a lawsuit's generated file number): one row
 * each, raised in the writing transaction, instead of reading the largest number in the table.
 */
export const numberCountersMigration: Migration = {
  name: '010_number_counters',
  up: (db) => createNumberCounters(db),
};
