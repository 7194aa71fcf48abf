import { sql } from 'kysely';
import { DEFAULT_MIGRATION_TABLE, Migrator, type Migration as KyselyMigration } from 'kysely/migration';
import { tableNames, type Db, type Dialect } from './index';
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
 *
 * Steps the database records but `groups` does not know belong to a newer release (a rolling
 * upgrade: the new release migrated, an instance of the previous one restarts; see
 * deploy/README.md "Upgrades without downtime"). They are left alone and handed to `onNewer`
 * (Kysely alone would refuse to start: "previously executed migration ... is missing").
 */
export async function runMigrations(
  db: Db,
  dialect: Dialect,
  groups: readonly MigrationGroup[],
  options: { only?: ReadonlySet<string>; onNewer?: (names: string[]) => void } = {},
): Promise<string[]> {
  const known = new Set(migrationNames(groups));
  const executed = await executedMigrations(db);
  const newer = executed.filter((name) => !known.has(name));
  if (newer.length) options.onNewer?.(newer);
  // Every step already run (most starts): nothing for Kysely's migrator to do, nor its lock to take.
  const done = new Set(executed);
  if (!options.only && [...known].every((name) => done.has(name))) return [];
  const ordered: [string, KyselyMigration][] = groups
    .flatMap(({ group, migrations }, g) =>
      migrations.map((m, i): [string, KyselyMigration] => [
        recordedName(g, i, group, m.name),
        { up: (trx) => m.up(trx, dialect) },
      ]),
    )
    .filter(([name]) => !options.only || options.only.has(name));
  // Already executed, so never run: Kysely only needs to find them in the list.
  for (const name of newer)
    ordered.push([
      name,
      {
        up: () => Promise.reject(new Error(`${name} belongs to a newer release`)),
      },
    ]);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => Object.fromEntries(ordered) },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    // No step failed: Kysely refused before running any (its lock, its table, the list).
    const what = failed ? `Migration ${failed.migrationName}` : 'Migrations';
    throw new Error(`${what} failed: ${String((error as Error).message ?? error)}`, { cause: error });
  }
  return (results ?? []).map((r) => r.migrationName);
}

/**
 * The steps the database records as executed (none before its first migration). Read before the
 * migrator takes its lock: a newer instance migrating at that very moment can still make this start
 * fail ("missing"), and the next start succeeds.
 */
async function executedMigrations(db: Db): Promise<string[]> {
  if (!(await tableNames(db)).has(DEFAULT_MIGRATION_TABLE)) return [];
  const { rows } = await sql<{
    name: string;
  }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db);
  return rows.map((r) => r.name);
}
