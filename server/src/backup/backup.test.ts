import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import FormData from 'form-data';
import tar from 'tar-stream';
import { employees, registry } from '@mizan/contracts';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createDatabase, type Dialect } from '../db';
import { DiskFileStore } from '../files/storage';
import { createRow, entityUrl, nextSeq, TEST_PASSWORD } from '../test/fixtures';
import {
  createTestApp,
  dialects,
  freshDatabase,
  splitDialects,
  TEST_ADMIN,
  type TestApp,
} from '../test/harness';
import { createBackup } from './backup';
import { BackupRefused, type BackupManifest } from './manifest';
import { restoreBackup } from './restore';

const PDF = Buffer.from('%PDF-1.7\n% عقد الوكالة\n%%EOF\n');

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-backup-test-'));

async function uploadEmployeeFile(
  t: TestApp,
  headers: Record<string, string>,
  content: Buffer,
): Promise<void> {
  const seq = nextSeq();
  const form = new FormData();
  for (const [k, v] of Object.entries({
    name: `موظف ${seq}`,
    email: `b${seq}@mizan.test`,
    username: `backup${seq}`,
    password: TEST_PASSWORD,
  }))
    form.append(k, v);
  form.append('files', content, { filename: `عقد ${seq}.pdf`, contentType: 'application/pdf' });
  const res = await t.app.inject({
    method: 'POST',
    url: entityUrl(employees),
    headers: { ...headers, ...form.getHeaders() },
    payload: form,
  });
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
}

/** A backup of `t`'s database and files into a new archive, on a connection of its own as `npm run backup`. */
async function backupOf(t: TestApp, file: string): Promise<BackupManifest> {
  const database = createDatabase(t.config.databaseUrl);
  try {
    return await createBackup(
      { db: database.db, dialect: database.dialect, files: new DiskFileStore(t.config.dataDir) },
      file,
    );
  } finally {
    await database.destroy();
  }
}

/** A restore of `archive` into a new empty database of `dialect` and a new files folder. */
async function restoreInto(dialect: Dialect, archive: string) {
  const database = await freshDatabase(dialect, 'mizan-restore-');
  const dataDir = tmp();
  const report = await restoreBackup(archive, {
    databaseUrl: database.url,
    files: new DiskFileStore(dataDir, { create: false }),
    workDir: dataDir,
  });
  return { database, dataDir, report };
}

/** Rewrites an archive with `change` applied to each entry's bytes. */
async function rewrite(
  from: string,
  to: string,
  change: (name: string, data: Buffer) => Buffer,
): Promise<void> {
  const entries: { name: string; data: Buffer }[] = [];
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c) => chunks.push(c as Buffer));
    stream.on('end', () => {
      entries.push({ name: header.name, data: change(header.name, Buffer.concat(chunks)) });
      next();
    });
  });
  await new Promise<void>((resolve, reject) => {
    extract.on('finish', resolve).on('error', reject);
    fs.createReadStream(from).pipe(zlib.createGunzip()).pipe(extract);
  });
  const pack = tar.pack();
  for (const e of entries) pack.entry({ name: e.name }, e.data);
  pack.finalize();
  await new Promise<void>((resolve, reject) => {
    pack.pipe(zlib.createGzip()).pipe(fs.createWriteStream(to)).on('finish', resolve).on('error', reject);
  });
}

/** The manifest inside an archive. */
async function manifestOf(archive: string): Promise<BackupManifest> {
  let manifest: BackupManifest | null = null;
  await rewrite(archive, `${archive}.copy`, (name, data) => {
    if (name === 'manifest.json') manifest = JSON.parse(data.toString()) as BackupManifest;
    return data;
  });
  fs.rmSync(`${archive}.copy`);
  return manifest!;
}

const SERVER = path.resolve(__dirname, '..', '..');

/** `npm run backup` / `npm run restore` as an operator runs them: another process, from the sources. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      path.join(SERVER, 'node_modules', '.bin', 'tsx'),
      ['--conditions=mizan:source', 'src/backup/cli.ts', ...args],
      { cwd: SERVER, env: { ...process.env, MIZAN_LOG_STDOUT: 'false', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

const tableSums = (m: BackupManifest) =>
  Object.fromEntries(m.tables.map((t) => [t.name, `${t.rows}:${t.sha256}`]));

// Across databases in this file only; its PostgreSQL twin (backup.postgres.test.ts) runs the
// backup under writes on PostgreSQL beside it (see `splitDialects` in test/harness.ts).
const describeAcross = process.env.MIZAN_TEST_DIALECT === 'postgres' ? describe.skip : describe;

describeAcross('backup and restore across databases', () => {
  let t: TestApp;
  let dir: string;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    dir = tmp();
    t = await createTestApp({ dialect: 'sqlite' });
    const { headers } = await t.login();
    // A row of every entity the API creates (their references come along), files and audit rows.
    for (const entity of registry) await createRow(t.app, headers, entity.name).catch(() => undefined);
    await uploadEmployeeFile(t, headers, PDF);
    await uploadEmployeeFile(t, headers, Buffer.concat([PDF, Buffer.from('second')]));
  }, 180_000);
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const middle: Dialect = process.env.MIZAN_TEST_PG_URL ? 'postgres' : 'sqlite';

  it(`SQLite → archive → ${middle} → archive → SQLite keeps every row and file`, async () => {
    const first = await backupOf(t, path.join(dir, 'first.tar.gz'));
    const rows = Object.fromEntries(first.tables.map((x) => [x.name, x.rows]));
    for (const table of [
      'audit_log',
      'files',
      'employees',
      'lawsuits',
      'tasks',
      'customers',
      'lawsuit_sessions',
    ])
      expect(rows[table]).toBeGreaterThan(0);
    // Every stored file, the two uploads among them (a new office also holds its starter templates).
    const stored = await t.app.db.selectFrom('files').select('stored_name').execute();
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(first.files.map((f) => f.name).sort()).toEqual(stored.map((f) => String(f.stored_name)).sort());

    const there = await restoreInto(middle, path.join(dir, 'first.tar.gz'));
    cleanups.push(async () => {
      await there.database.drop();
      fs.rmSync(there.dataDir, { recursive: true, force: true });
    });
    expect(there.report.files).toBe(first.files.length);
    const thereDb = createDatabase(there.database.url);
    let second: BackupManifest;
    try {
      second = await createBackup(
        { db: thereDb.db, dialect: thereDb.dialect, files: new DiskFileStore(there.dataDir) },
        path.join(dir, 'second.tar.gz'),
      );
    } finally {
      await thereDb.destroy();
    }
    expect(second.tables.map((x) => [x.name, x.rows])).toEqual(first.tables.map((x) => [x.name, x.rows]));
    expect(second.files).toEqual(first.files);

    const back = await restoreInto('sqlite', path.join(dir, 'second.tar.gz'));
    cleanups.push(async () => {
      await back.database.drop();
      fs.rmSync(back.dataDir, { recursive: true, force: true });
    });
    const backDb = createDatabase(back.database.url);
    let third: BackupManifest;
    try {
      third = await createBackup(
        { db: backDb.db, dialect: backDb.dialect, files: new DiskFileStore(back.dataDir) },
        path.join(dir, 'third.tar.gz'),
      );
    } finally {
      await backDb.destroy();
    }
    // Every table byte for byte as it was (same order, same values), every file the same.
    expect(tableSums(third)).toEqual(tableSums(first));
    expect(third.files).toEqual(first.files);

    // The restored office works: the administrator signs in and reads a file.
    const app = await buildApp(
      loadConfig({
        DATA_DIR: back.dataDir,
        DATABASE_URL: back.database.url,
        MIZAN_LOG_STDOUT: 'false',
        MIZAN_STATIC_DIR: path.join(back.dataDir, 'static'),
      }),
    );
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'x-fingerprint-session': 'restored', 'x-fingerprint': 'test-device' },
        payload: TEST_ADMIN,
      });
      expect(login.statusCode).toBe(200);
      // The first upload (the office's starter templates are files too).
      const file = await app.db
        .selectFrom('files')
        .select('id')
        .where('size', '=', PDF.length)
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const res = await app.inject({
        method: 'GET',
        url: `/api/files/${file.id}`,
        headers: {
          authorization: `Bearer ${login.json().data.token}`,
          'x-fingerprint-session': 'restored',
          'x-fingerprint': 'test-device',
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(PDF)).toBe(true);
    } finally {
      await app.close();
    }
  }, 180_000);

  it.each(dialects())(
    'refuses a tampered, truncated or newer archive and a non-empty %s database, changing nothing',
    async (dialect) => {
      const good = path.join(dir, `good-${dialect}.tar.gz`);
      await backupOf(t, good);
      const refusal = async (archive: string, reason: BackupRefused['reason']) => {
        const database = await freshDatabase(dialect, 'mizan-refused-');
        const dataDir = tmp();
        try {
          const error = await restoreBackup(archive, {
            databaseUrl: database.url,
            files: new DiskFileStore(dataDir, { create: false }),
            workDir: dataDir,
          }).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(BackupRefused);
          expect((error as BackupRefused).reason).toBe(reason);
          const db = createDatabase(database.url);
          try {
            const { tableNames } = await import('./layout');
            expect(await tableNames(db.db, db.dialect)).toEqual([]);
          } finally {
            await db.destroy();
          }
          expect(
            fs.existsSync(path.join(dataDir, 'files')) ? fs.readdirSync(path.join(dataDir, 'files')) : [],
          ).toEqual([]);
          return (error as Error).message;
        } finally {
          await database.drop();
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      };

      // One changed character in a table.
      const tampered = path.join(dir, `tampered-${dialect}.tar.gz`);
      await rewrite(good, tampered, (name, data) =>
        name === 'tables/employees.jsonl' ? Buffer.from(data.toString().replace('موظف', 'موضف')) : data,
      );
      expect(await refusal(tampered, 'checksum')).toMatch(/employees\.jsonl does not match its checksum/);

      // A stored file altered.
      const alteredFile = path.join(dir, `altered-${dialect}.tar.gz`);
      await rewrite(good, alteredFile, (name, data) =>
        name.startsWith('files/') ? Buffer.concat([data, Buffer.from('x')]) : data,
      );
      expect(await refusal(alteredFile, 'checksum')).toMatch(/files\/[a-f0-9]{32} does not match/);

      // Cut short.
      const truncated = path.join(dir, `truncated-${dialect}.tar.gz`);
      const bytes = fs.readFileSync(good);
      fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      expect(await refusal(truncated, 'damaged')).toMatch(/truncated/);

      // Made by a newer Mizan: a migration this one does not have.
      const newer = path.join(dir, `newer-${dialect}.tar.gz`);
      await rewrite(good, newer, (name, data) => {
        if (name !== 'manifest.json') return data;
        const manifest = JSON.parse(data.toString()) as BackupManifest;
        manifest.migrations.push('99-000-future-future_001_step');
        manifest.mizanVersion = '9.0.0';
        return Buffer.from(JSON.stringify(manifest));
      });
      expect(await refusal(newer, 'newer')).toMatch(/newer Mizan \(9\.0\.0\).*future_001_step/);

      // Into a database that holds an office already: nothing touched.
      const elsewhere = tmp();
      const files = path.join(elsewhere, 'files');
      const error = await restoreBackup(good, {
        databaseUrl: t.config.databaseUrl,
        files: new DiskFileStore(elsewhere, { create: false }),
        workDir: elsewhere,
      }).catch((e: unknown) => e);
      expect((error as BackupRefused).reason).toBe('notEmpty');
      expect(fs.existsSync(files)).toBe(false);
    },
    180_000,
  );
});

describe.each(splitDialects())('a backup while the office writes, on %s', (dialect) => {
  let t: TestApp;
  const dir = tmp();
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is one consistent snapshot: foreign keys hold and counts match its manifest', async () => {
    t = await createTestApp({ dialect });
    const { headers } = await t.login();
    let writing = true;
    let written = 0;
    const post = async (name: string, payload: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url: entityUrl(name), headers, payload });
      if (res.statusCode !== 201) throw new Error(`create ${name} failed: ${res.statusCode} ${res.body}`);
      written++;
      return res.json().data.id as number;
    };
    // 20 writers, each adding chains of rows that refer to each other (a continent, its country,
    // the country's governorate), each row with its audit entry.
    const writers = Array.from({ length: 20 }, async (_, w) => {
      for (let n = 0; writing; n++) {
        const continentId = await post('continents', { name: `قارة ${w}-${n}` });
        const countryId = await post('countries', { name: `دولة ${w}-${n}`, continentId });
        await post('governorates', { name: `محافظة ${w}-${n}`, countryId });
      }
    });
    // A writer that fails stops the test at once rather than leaving it waiting.
    const done = Promise.all(writers);
    let failure: unknown = null;
    done.catch((error: unknown) => (failure = error));
    while (written < 60 && failure === null) await new Promise((r) => setTimeout(r, 10));
    if (failure) throw failure;
    // `npm run backup` from another process while the server (this one) keeps writing.
    const backup = await cli(['backup', path.join(dir, 'busy.tar.gz')], {
      DATABASE_URL: t.config.databaseUrl,
      DATA_DIR: t.config.dataDir,
    });
    expect(backup).toEqual({
      code: 0,
      out: expect.stringMatching(/^Backup written to .*busy\.tar\.gz: \d+ tables, \d+ rows, \d+ files\.\n$/),
    });
    const manifest = await manifestOf(path.join(dir, 'busy.tar.gz'));
    writing = false;
    await done;
    expect(written).toBeGreaterThan(60);

    // Restored, the archive satisfies every foreign key (SQLite checks them at commit) and holds
    // exactly the rows its manifest counts.
    const { database, dataDir, report } = await restoreInto('sqlite', path.join(dir, 'busy.tar.gz'));
    try {
      expect(report.rows).toBe(manifest.tables.reduce((s, x) => s + x.rows, 0));
      const db = createDatabase(database.url);
      try {
        const { sql } = await import('kysely');
        expect((await sql`pragma foreign_key_check`.execute(db.db)).rows).toEqual([]);
        for (const table of manifest.tables) {
          const { count } = await db.db
            .selectFrom(table.name)
            .select((eb) => eb.fn.countAll().as('count'))
            .executeTakeFirstOrThrow();
          expect([table.name, Number(count)]).toEqual([table.name, table.rows]);
        }
        // Every created row has its audit entry in the same snapshot.
        const audited = await db.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll().as('count'))
          .where('action', '=', 'create')
          .where('entity', '=', 'governorates')
          .executeTakeFirstOrThrow();
        const governorates = manifest.tables.find((x) => x.name === 'governorates')!.rows;
        expect(Number(audited.count)).toBe(governorates);
      } finally {
        await db.destroy();
      }
    } finally {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
