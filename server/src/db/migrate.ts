import { Migrator, type Migration as KyselyMigration } from 'kysely/migration';
import type { Db, Dialect } from './index';
import type { Migration } from './migrations';

export interface MigrationGroup {
  group: string;
  migrations: Migration[];
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/**
 * Runs every pending migration of `groups` (both dialects) and throws on the first failure. The
 * app passes the kernel's group then each module's (app.ts `MIGRATION_GROUPS`).
 * Kysely orders migrations by name, so each is recorded as `<group #>-<step #>-<group>-<name>`:
 * the order of `groups` and of each group's array (both append-only), whatever the step names.
 * A step appended to an earlier group still runs on a database where later groups already ran.
 */
export async function runMigrations(
  db: Db,
  dialect: Dialect,
  groups: readonly MigrationGroup[],
): Promise<string[]> {
  const ordered: [string, KyselyMigration][] = groups.flatMap(({ group, migrations }, g) =>
    migrations.map((m, i): [string, KyselyMigration] => [
      `${pad(g, 2)}-${pad(i, 3)}-${group}-${m.name}`,
      { up: (trx) => m.up(trx, dialect) },
    ]),
  );
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => Object.fromEntries(ordered) },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(
      `Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error).message ?? error)}`,
      {
        cause: error,
      },
    );
  }
  return (results ?? []).map((r) => r.migrationName);
}
