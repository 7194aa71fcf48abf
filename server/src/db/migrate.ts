import { Migrator, type Migration as KyselyMigration } from 'kysely/migration';
import type { Db, Dialect } from './index';
import type { Migration } from './migrations';

export interface MigrationGroup {
  group: string;
  migrations: Migration[];
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

const recordedName = (g: number, i: number, group: string, name: string) =>
  `${pad(g, 2)}-${pad(i, 3)}-${group}-${name}`;

/** Every step of `groups` under the name a database records it (see `runMigrations`). */
export function migrationNames(groups: readonly MigrationGroup[]): string[] {
  return groups.flatMap(({ group, migrations }, g) =>
    migrations.map((m, i) => recordedName(g, i, group, m.name)),
  );
}

/**
 * Runs every pending migration of `groups` (both dialects) and throws on the first failure. The
 * app passes the kernel's group then each module's (app.ts `MIGRATION_GROUPS`).
 * Kysely orders migrations by name, so each is recorded as `<group #>-<step #>-<group>-<name>`:
 * the order of `groups` and of each group's array (both append-only), whatever the step names.
 * A step appended to an earlier group still runs on a database where later groups already ran.
 * `only`: run just these steps (a restore brings a database to its archive's layout first).
 */
export async function runMigrations(
  db: Db,
  dialect: Dialect,
  groups: readonly MigrationGroup[],
  options: { only?: ReadonlySet<string> } = {},
): Promise<string[]> {
  const ordered: [string, KyselyMigration][] = groups
    .flatMap(({ group, migrations }, g) =>
      migrations.map((m, i): [string, KyselyMigration] => [
        recordedName(g, i, group, m.name),
        { up: (trx) => m.up(trx, dialect) },
      ]),
    )
    .filter(([name]) => !options.only || options.only.has(name));
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
