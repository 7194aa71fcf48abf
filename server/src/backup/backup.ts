import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql, type QueryResult, type RawBuilder } from 'kysely';
import tar from 'tar-stream';
import type { Db, Dialect } from '../db';
import type { FileStore } from '../files/storage';
import { appliedMigrations, readLayout, type TableLayout } from './layout';
import {
  FORMAT,
  FORMAT_VERSION,
  MANIFEST_ENTRY,
  STORED_NAME,
  fileEntry,
  mizanVersion,
  tableEntry,
  type BackupManifest,
} from './manifest';

/** Rows read per query while a table is copied. */
const PAGE = 1000;

export interface BackupSource {
  db: Db;
  dialect: Dialect;
  /** Where the stored files are: on disk or in a bucket (`createFileStore`). */
  files: FileStore;
}

/** A file's SHA-256 (hex) and size, read as a stream. */
export async function digestFile(file: string): Promise<{ sha256: string; size: number }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** Writes `table`'s rows (column order of the layout, one JSON array a line) to `file`, in key order. */
async function dumpTable(
  db: Db,
  table: TableLayout,
  file: string,
): Promise<{ rows: number; sha256: string }> {
  const out = fs.createWriteStream(file);
  const hash = crypto.createHash('sha256');
  const columns = sql.join(table.columns.map((c) => sql.id(c.name)));
  const key = sql.join(table.primaryKey.map((k) => sql.id(k)));
  let after: unknown[] | null = null;
  let rows = 0;
  try {
    for (;;) {
      const from: RawBuilder<unknown> = after
        ? sql`where (${key}) > (${sql.join(after.map((v) => sql`${v}`))})`
        : sql``;
      const page: QueryResult<Record<string, unknown>> = await sql<
        Record<string, unknown>
      >`select ${columns} from ${sql.table(table.name)} ${from}
        order by ${key} limit ${sql.lit(PAGE)}`.execute(db);
      if (page.rows.length === 0) break;
      let text = '';
      for (const row of page.rows)
        text += `${JSON.stringify(table.columns.map((c) => row[c.name] ?? null))}\n`;
      hash.update(text);
      if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', resolve));
      rows += page.rows.length;
      const last: Record<string, unknown> = page.rows[page.rows.length - 1];
      after = table.primaryKey.map((k) => last[k]);
      if (page.rows.length < PAGE) break;
    }
  } finally {
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
  return { rows, sha256: hash.digest('hex') };
}

/**
 * Reads every table from one snapshot (a read transaction on SQLite, REPEATABLE READ on
 * PostgreSQL) into `work`, and copies every stored file the snapshot lists beside them, within
 * the snapshot (from disk as a link when it can: a file deleted after the snapshot keeps its
 * content through the link; from a bucket as a download).
 */
async function snapshot(
  source: BackupSource,
  work: string,
): Promise<Pick<BackupManifest, 'migrations' | 'tables'> & { storedNames: string[] }> {
  const read = async (trx: Db) => {
    const migrations = await appliedMigrations(trx);
    const layouts = await readLayout(trx, source.dialect);
    const tables: BackupManifest['tables'] = [];
    for (const layout of layouts) {
      const entry = tableEntry(layout.name);
      const dumped = await dumpTable(trx, layout, path.join(work, entry));
      tables.push({ ...layout, entry, ...dumped });
    }
    const files = await trx.selectFrom('files').select('stored_name').orderBy('stored_name').execute();
    const storedNames = files.map((f) => String(f.stored_name));
    for (const name of storedNames) {
      if (!STORED_NAME.test(name)) throw new Error(`unexpected stored file name "${name}"`);
      await source.files.copyTo(name, path.join(work, fileEntry(name)));
    }
    return { migrations, tables, storedNames };
  };
  if (source.dialect === 'postgres')
    return source.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await sql`set transaction read only`.execute(trx);
        return read(trx);
      });
  // SQLite (WAL): a read transaction sees the database as of its first read, writers go on.
  return source.db.transaction().execute(read);
}

/**
 * Writes one archive of the whole office to `target` (a `.tar.gz`): every table as JSON lines,
 * every stored file, and last a manifest (Mizan version, migrations applied, tables and columns,
 * row counts, SHA-256 of every entry). Safe while the server runs: the rows come from one
 * snapshot. The archive appears under its name only once complete.
 *
 * @example
 * await createBackup({ db, dialect, files: createFileStore(config) }, 'office.tar.gz');
 */
export async function createBackup(source: BackupSource, target: string): Promise<BackupManifest> {
  const dir = path.dirname(path.resolve(target));
  await fs.promises.mkdir(dir, { recursive: true });
  // Beside the archive: usually the same file system as DATA_DIR, so stored files are linked, not copied.
  const work = await fs.promises.mkdtemp(path.join(dir, '.mizan-backup-'));
  const partial = `${target}.partial`;
  try {
    await fs.promises.mkdir(path.join(work, 'tables'));
    await fs.promises.mkdir(path.join(work, 'files'));
    const createdAt = new Date().toISOString();
    const { migrations, tables, storedNames } = await snapshot(source, work);
    const files: BackupManifest['files'] = [];
    for (const name of storedNames) {
      const entry = fileEntry(name);
      files.push({ name, entry, ...(await digestFile(path.join(work, entry))) });
    }
    const manifest: BackupManifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      mizanVersion: mizanVersion(),
      createdAt,
      dialect: source.dialect,
      migrations,
      tables,
      files,
    };
    const pack = tar.pack();
    const written = pipeline(pack, zlib.createGzip({ level: 6 }), fs.createWriteStream(partial));
    const addFile = async (entry: string, size: number) => {
      await new Promise<void>((resolve, reject) => {
        const sink = pack.entry({ name: entry, size, mode: 0o600, mtime: new Date(createdAt) }, (error) =>
          error ? reject(error) : resolve(),
        );
        fs.createReadStream(path.join(work, entry)).on('error', reject).pipe(sink);
      });
    };
    for (const table of tables)
      await addFile(table.entry, (await fs.promises.stat(path.join(work, table.entry))).size);
    for (const file of files) await addFile(file.entry, file.size);
    pack.entry(
      { name: MANIFEST_ENTRY, mode: 0o600, mtime: new Date(createdAt) },
      JSON.stringify(manifest, null, 1),
    );
    pack.finalize();
    await written;
    await fs.promises.rename(partial, target);
    return manifest;
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    throw error;
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}
