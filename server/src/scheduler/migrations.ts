import type { Migration } from '../db/migrations';
import { instantType } from '../db/migrations/entityTables';

/** The job scheduler's table (group `scheduler` in app.ts). Append only. */
export const schedulerMigrations: Migration[] = [
  {
    name: 'scheduler_001_jobs',
    async up(db, dialect) {
      // One row per recurring job defined in code: when it runs next, and who holds it while it runs.
      await db.schema
        .createTable('scheduled_jobs')
        .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
        .addColumn('next_run_at', instantType(dialect), (c) => c.notNull())
        // The instance running it and until when: a crashed instance's lease runs out, another takes over.
        .addColumn('lease_owner', 'varchar(200)')
        .addColumn('lease_until', instantType(dialect))
        .addColumn('last_run_at', instantType(dialect))
        .addColumn('last_error', 'text')
        .execute();
    },
  },
];
