import type { Migration } from '../db/migrations';
import { addEntityFields } from '../db/migrations';
import { instantType } from '../db/migrations/entityTables';

/** Columns and tables of the office's money (group `finance` in app.ts). Append only. */
export const financeMigrations: Migration[] = [
  {
    // Hourly rates: an employee's own, and a lawsuit's override (time entries' default rate).
    name: 'finance_001_hourly_rates',
    async up(db, dialect) {
      await addEntityFields(db, dialect, 'employees', ['hourlyRate']);
      await addEntityFields(db, dialect, 'lawsuits', ['hourlyRate']);
    },
  },
  {
    // One timer per employee: the lawsuit, the seconds of earlier runs, the current run's start.
    name: 'finance_002_timers',
    async up(db, dialect) {
      await db.schema
        .createTable('finance_timers')
        .addColumn('employee_id', 'integer', (c) =>
          c.primaryKey().references('employees.id').onDelete('cascade'),
        )
        .addColumn('lawsuit_id', 'integer', (c) => c.notNull())
        .addColumn('elapsed_seconds', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('running_since', instantType(dialect))
        .addColumn('updated_at', instantType(dialect), (c) => c.notNull())
        .execute();
    },
  },
];
