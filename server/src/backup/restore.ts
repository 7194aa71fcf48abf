import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import tar from 'tar-stream';
import { registry, type Entity, type Fields } from '@mizan/contracts';
import { MIGRATION_GROUPS } from '../app';
import { createDatabase, type Db, type Dialect } from '../db';
import { migrationNames, runMigrations } from '../db/migrate';
import { createMissingEntityTables, recountFilterCounts } from '../db/migrations';
import { recountEntities } from '../db/counts';
import type { FileStore } from '../files/storage';
import { readLayout, tableNames } from './layout';
import {
  BackupRefused,
  FORMAT,
  FORMAT_VERSION,
  MANIFEST_ENTRY,
  STORED_NAME,
  fileEntry,
  tableEntry,
  type BackupManifest,
} from './manifest';

/** Most parameters in one INSERT (SQLite allows 32,766, PostgreSQL 65,535). */
const MAX_PARAMETERS = 30_000;

export interface RestoreTarget {
  /** `sqlite:<file>` or `postgres://...`: an empty database. */
  databaseUrl: string;
  /** Where stored files go (on disk or in a bucket): holding none yet. */
  files: FileStore;
  /** A folder for the unpacked archive; on disk, best on the files' file system (they are moved in). */
  workDir: string;
}

export interface RestoreReport {
  manifest: BackupManifest;
  rows: number;
  files: number;
}

const ENTRY = /^(tables\/[a-z0-9_]+\.jsonl|files\/[a-f0-9]{32}|manifest\.json)$/;

/**
 * Unpacks `archive` into `work`, hashing every entry as it goes, and checks it whole against its
 * manifest: a truncated or altered archive is refused before anything is touched.
 */
async function unpackAndCheck(archive: string, work: string): Promise<BackupManifest> {
  const seen = new Map<string, { sha256: string; size: number; lines: number }>();
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const name = header.name;
    if (!ENTRY.test(name) || seen.has(name) || header.type !== 'file') {
      stream.resume();
      extract.destroy(new BackupRefused('checksum', `The archive holds an unexpected entry "${name}".`));
      return;
    }
    const hash = crypto.createHash('sha256');
    let size = 0;
    let lines = 0;
    const target = path.join(work, name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const out = fs.createWriteStream(target);
    stream.on('data', (data) => {
      const chunk = data as Buffer;
      hash.update(chunk);
      size += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    });
    pipeline(stream, out)
      .then(() => {
        seen.set(name, { sha256: hash.digest('hex'), size, lines });
        next();
      })
      .catch((error: unknown) => next(error as Error));
  });
  try {
    await pipeline(fs.createReadStream(archive), zlib.createGunzip(), extract);
  } catch (error) {
    if (error instanceof BackupRefused) throw error;
    throw new BackupRefused('damaged', `The archive is truncated or damaged (${(error as Error).message}).`);
  }
  const manifestFile = seen.has(MANIFEST_ENTRY) ? path.join(work, MANIFEST_ENTRY) : null;
  if (!manifestFile)
    throw new BackupRefused('damaged', 'The archive has no manifest: it is truncated or not a Mizan backup.');
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await fs.promises.readFile(manifestFile, 'utf8')) as BackupManifest;
  } catch {
    throw new BackupRefused('damaged', 'The archive’s manifest cannot be read.');
  }
  if (manifest.format !== FORMAT) throw new BackupRefused('damaged', 'This file is not a Mizan backup.');
  if (!(manifest.formatVersion <= FORMAT_VERSION))
    throw new BackupRefused(
      'newer',
      `The archive was made by a newer Mizan (${manifest.mizanVersion}, archive format ${manifest.formatVersion}): upgrade Mizan before restoring it.`,
    );
  const expected = new Map<string, { sha256: string; size?: number; lines?: number }>();
  for (const t of manifest.tables) {
    if (t.entry !== tableEntry(t.name))
      throw new BackupRefused('checksum', `The manifest names table ${t.name} wrongly.`);
    expected.set(t.entry, { sha256: t.sha256, lines: t.rows });
  }
  for (const f of manifest.files) {
    if (!STORED_NAME.test(f.name) || f.entry !== fileEntry(f.name))
      throw new BackupRefused('checksum', `The manifest names file ${f.name} wrongly.`);
    expected.set(f.entry, { sha256: f.sha256, size: f.size });
  }
  for (const [entry, want] of expected) {
    const got = seen.get(entry);
    if (!got) throw new BackupRefused('damaged', `The archive lacks ${entry}: it is truncated.`);
    if (got.sha256 !== want.sha256 || (want.size !== undefined && got.size !== want.size))
      throw new BackupRefused(
        'checksum',
        `${entry} does not match its checksum: the archive was altered or damaged.`,
      );
    if (want.lines !== undefined && got.lines !== want.lines)
      throw new BackupRefused(
        'checksum',
        `${entry} holds ${got.lines} rows, the manifest says ${want.lines}.`,
      );
  }
  for (const entry of seen.keys())
    if (entry !== MANIFEST_ENTRY && !expected.has(entry))
      throw new BackupRefused('checksum', `The archive holds ${entry}, which its manifest does not list.`);
  return manifest;
}

/** Refuses an archive whose migrations this Mizan does not have (made by a newer one). */
function checkKnown(manifest: BackupManifest): Set<string> {
  const known = new Set(migrationNames(MIGRATION_GROUPS));
  const unknown = manifest.migrations.filter((m) => !known.has(m));
  if (unknown.length > 0)
    throw new BackupRefused(
      'newer',
      `The archive was made by a newer Mizan (${manifest.mizanVersion}): its schema has steps this version does not know (${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', …' : ''}). Upgrade Mizan before restoring it.`,
    );
  return new Set(manifest.migrations);
}

async function checkEmpty(db: Db, dialect: Dialect, files: FileStore): Promise<void> {
  const tables = await tableNames(db, dialect);
  if (tables.length > 0)
    throw new BackupRefused(
      'notEmpty',
      `The database is not empty (${tables.length} tables, e.g. ${tables.slice(0, 3).join(', ')}): restore into a new, empty database.`,
    );
  if (!(await files.isEmpty()))
    throw new BackupRefused(
      'notEmpty',
      `The files storage ${files.location} already holds files: restore into an empty one.`,
    );
}

/** Inserts the rows of one table file, in batches. */
async function loadTable(db: Db, table: BackupManifest['tables'][number], file: string): Promise<void> {
  const batchSize = Math.max(1, Math.min(500, Math.floor(MAX_PARAMETERS / table.columns.length)));
  let batch: Record<string, unknown>[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await db.insertInto(table.name).values(batch).execute();
    batch = [];
  };
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    const values = JSON.parse(line) as unknown[];
    const row: Record<string, unknown> = {};
    table.columns.forEach((c, i) => (row[c.name] = values[i]));
    batch.push(row);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
}

/** PostgreSQL's serial columns continue after the highest id loaded. */
async function resetSequences(db: Db): Promise<void> {
  const { rows } = await sql<{ table: string; column: string }>`
    select table_name as table, column_name as column from information_schema.columns
    where table_schema = current_schema() and column_default like 'nextval(%'`.execute(db);
  for (const { table, column } of rows) {
    const t = sql.table(table);
    const c = sql.id(column);
    await sql`select setval(pg_get_serial_sequence(${sql.lit(`"${table}"`)}, ${column}),
      coalesce((select max(${c}) from ${t}), 1), (select max(${c}) from ${t}) is not null)`.execute(db);
  }
}

/**
 * Loads the archive `archive` (from `createBackup`, of either database) into an empty database of
 * either kind and an empty files storage (disk or bucket), then checks every table's row count. Refused, with the
 * reason and nothing changed: an archive truncated or altered (a checksum differs), one from a
 * newer Mizan (migrations this version does not know), a database or files storage not empty.
 * The database is brought to the archive's schema, loaded in one transaction, then migrated to
 * this version's.
 *
 * @example
 * await restoreBackup('office.tar.gz', { databaseUrl: 'postgres://mizan@db/mizan', files: createFileStore(config), workDir: config.dataDir });
 */
export async function restoreBackup(archive: string, target: RestoreTarget): Promise<RestoreReport> {
  const { files } = target;
  await fs.promises.mkdir(target.workDir, { recursive: true });
  const work = await fs.promises.mkdtemp(path.join(target.workDir, '.mizan-restore-'));
  const database = createDatabase(target.databaseUrl);
  const { db, dialect } = database;
  const moved: string[] = [];
  try {
    const manifest = await unpackAndCheck(archive, work);
    const archived = checkKnown(manifest);
    await checkEmpty(db, dialect, files);

    // The archive's schema first: its rows fit it exactly; later steps then move them on.
    await runMigrations(db, dialect, MIGRATION_GROUPS, { only: archived });
    await createMissingEntityTables(
      db,
      dialect,
      registry.map((e) => e.name),
    );
    const layout = new Map((await readLayout(db, dialect)).map((t) => [t.name, t]));
    for (const table of manifest.tables) {
      const here = layout.get(table.name);
      const missing = here
        ? table.columns.filter((c) => !here.columns.some((h) => h.name === c.name)).map((c) => c.name)
        : ['(the table)'];
      if (missing.length > 0)
        throw new BackupRefused(
          'layout',
          `Table ${table.name} of the archive does not fit this database: ${missing.join(', ')} missing.`,
        );
    }

    let rows = 0;
    await db.transaction().execute(async (trx) => {
      // A self-referring row may come before the row it names: checked at commit instead.
      if (dialect === 'sqlite') await sql`pragma defer_foreign_keys = on`.execute(trx);
      // What the migrations seeded gives way to the archive's rows.
      for (const name of [...layout.keys()].reverse()) await trx.deleteFrom(name).execute();
      for (const table of manifest.tables) {
        await loadTable(trx, table, path.join(work, table.entry));
        const { count } = await trx
          .selectFrom(table.name)
          .select((eb) => eb.fn.countAll().as('count'))
          .executeTakeFirstOrThrow();
        if (Number(count) !== table.rows)
          throw new Error(
            `table ${table.name}: ${Number(count)} rows loaded, the manifest says ${table.rows}`,
          );
        rows += table.rows;
      }
      await recountEntities(trx);
      await recountFilterCounts(trx, dialect, registry as readonly Entity<Fields>[]);
      if (dialect === 'postgres') await resetSequences(trx);
      for (const file of manifest.files) {
        await files.adopt(file.name, path.join(work, file.entry));
        moved.push(file.name);
      }
    });
    // Then the steps this version has beyond the archive's.
    await runMigrations(db, dialect, MIGRATION_GROUPS);
    await createMissingEntityTables(
      db,
      dialect,
      registry.map((e) => e.name),
    );
    return { manifest, rows, files: manifest.files.length };
  } catch (error) {
    await Promise.all(moved.map((name) => files.remove(name)));
    throw error;
  } finally {
    await database.destroy();
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}
