import type { Migration } from '../db/migrations';
import { idColumn, instantType } from '../db/migrations/entityTables';

/** The job queue's table (group `jobs` in app.ts). Append only. */
export const jobsMigrations: Migration[] = [
  {
    name: 'jobs_001_jobs',
    async up(db, dialect) {
      // One row per one-off job: what to do, when, who holds it while it runs, how far it is.
      await idColumn(db.schema.createTable('jobs'), dialect)
        .addColumn('kind', 'varchar(100)', (c) => c.notNull())
        // Enqueueing is idempotent by key: one job per key, ever (NULL: no key, no limit).
        .addColumn('key', 'varchar(300)', (c) => c.unique())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('state', 'varchar(10)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('run_at', instantType(dialect), (c) => c.notNull())
        .addColumn('lease_owner', 'varchar(200)')
        .addColumn('lease_until', instantType(dialect))
        .addColumn('last_error', 'text')
        .addColumn('progress_done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('progress_total', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', instantType(dialect), (c) => c.notNull())
        .addColumn('updated_at', instantType(dialect), (c) => c.notNull())
        .addColumn('finished_at', instantType(dialect))
        .execute();
      // The claim's reads: a kind's due or running rows.
      await db.schema.createIndex('jobs_claim_idx').on('jobs').columns(['kind', 'state', 'run_at']).execute();
    },
  },
];
