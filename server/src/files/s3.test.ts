import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { API_BASE, employees, SYSTEM_SETTINGS_ROUTES } from '@mizan/contracts';
import { createBackup } from '../backup/backup';
import { restoreBackup } from '../backup/restore';
import { createDatabase } from '../db';
import { createRow, entityUrl, nextSeq, TEST_PASSWORD } from '../test/fixtures';
import { createTestApp, dialects, freshDatabase, type Session, type TestApp } from '../test/harness';
import { S3_BUCKET, S3_CREDENTIALS, startS3Server } from '../test/s3Server';
import { sweepFiles } from './routes';
import { S3FileStore } from './s3';
import { DiskFileStore } from './storage';
import { parseFilesUrl } from '../config';

/** The compiled CLI of `npm run files:migrate` (`tsc -b` builds it before the tests run). */
const MIGRATE_CLI = path.join(__dirname, '..', '..', 'dist', 'files', 'migrate.js');

/** A PDF of 6 MB and a bit: more than one 5 MB part on its way up. */
const BIG_PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n'),
  crypto.randomBytes(6 * 1024 * 1024 + 12_345),
  Buffer.from('\n%%EOF\n'),
]);

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-s3-test-'));
const hex = () => crypto.randomBytes(16).toString('hex');

type S3 = Awaited<ReturnType<typeof startS3Server>>;

function clientOf(s3: S3): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3_CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** The object keys under `prefix/`, without it, sorted. */
async function keysUnder(client: S3Client, prefix: string): Promise<string[]> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: S3_BUCKET, Prefix: `${prefix}/` }));
  return (page.Contents ?? []).map((o) => o.Key!.slice(prefix.length + 1)).sort();
}

async function objectBytes(client: S3Client, key: string): Promise<Buffer> {
  const answer = await client.send(new GetObjectCommand({ Bucket: S3_BUCKET, Key: key }));
  return Buffer.from(await answer.Body!.transformToByteArray());
}

/** An employee with one file, created through the real route over HTTP. */
async function uploadEmployee(
  base: string,
  session: Session,
  content: Buffer,
  language = 'en',
): Promise<Response> {
  const seq = nextSeq();
  const form = new FormData();
  form.append('name', `موظف ${seq}`);
  form.append('email', `s3-${seq}@mizan.test`);
  form.append('username', `s3user${seq}`);
  form.append('password', TEST_PASSWORD);
  form.append('files', new Blob([content], { type: 'application/pdf' }), `عقد ${seq}.pdf`);
  return fetch(`${base}${entityUrl(employees)}`, {
    method: 'POST',
    headers: { ...session.headers, 'accept-language': language },
    body: form,
  });
}

describe('MIZAN_FILES_URL', () => {
  it('reads the bucket, prefix, endpoint, region, path style and keys', () => {
    expect(
      parseFilesUrl(
        's3://key%2F1:se%40cret@office-files/mizan/prod/?endpoint=http://127.0.0.1:9000&forcePathStyle=true',
      ),
    ).toEqual({
      bucket: 'office-files',
      prefix: 'mizan/prod',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'key/1', secretAccessKey: 'se@cret' },
    });
    expect(parseFilesUrl('s3://files', { AWS_REGION: 'me-south-1' })).toMatchObject({
      prefix: '',
      region: 'me-south-1',
      credentials: null,
      forcePathStyle: false,
    });
    expect(parseFilesUrl('  ')).toBeNull();
    expect(() => parseFilesUrl('https://files/x')).toThrow(/s3:\/\/bucket/);
    expect(() => parseFilesUrl('s3://files?endpont=x')).toThrow(/unknown option "endpont"/);
    expect(() => parseFilesUrl('s3://files?forcePathStyle=yes')).toThrow(/true or false/);
    expect(() => parseFilesUrl('s3://key@files')).toThrow(/both the access key and the secret/);
  });
});

describe.each(dialects())('files in an S3 bucket on %s', (dialect) => {
  let s3: S3;
  let client: S3Client;
  let t: TestApp;
  let base: string;
  let admin: Session;
  const prefix = `office-${dialect}`;

  beforeAll(async () => {
    s3 = await startS3Server();
    client = clientOf(s3);
    t = await createTestApp({ dialect, env: { MIZAN_FILES_URL: s3.filesUrl(prefix) } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await t.login();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    client?.destroy();
    await s3?.close();
  });

  /** What this office keeps on its own disk: nothing, its files are in the bucket. */
  const localFiles = () => {
    const dir = path.join(t.config.dataDir, 'files');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };
  const fileRows = () => t.app.db.selectFrom('files').selectAll().orderBy('id').execute();

  it('stores an upload in the bucket and serves it whole and by ranges over HTTP', async () => {
    expect(t.app.fileStore).toBeInstanceOf(S3FileStore);
    const ready = await fetch(`${base}/api/ready`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { data: { checks: Record<string, string> } }).data.checks.storage).toBe(
      'ok',
    );

    // The office's starter templates, stored in its bucket at its first start.
    const before = await keysUnder(client, prefix);
    const created = await uploadEmployee(base, admin, BIG_PDF);
    expect(created.status).toBe(201);
    const row = (await fileRows()).at(-1)!;
    expect(Number(row.size)).toBe(BIG_PDF.length);
    // Final under its name in the bucket, no temporary left, nothing on this disk.
    expect(await keysUnder(client, prefix)).toEqual([...before, row.stored_name].sort());
    expect((await objectBytes(client, `${prefix}/${row.stored_name}`)).equals(BIG_PDF)).toBe(true);
    expect(localFiles()).toEqual([]);

    const whole = await fetch(`${base}/api/files/${row.id}`, { headers: admin.headers });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-length')).toBe(String(BIG_PDF.length));
    expect(Buffer.from(await whole.arrayBuffer()).equals(BIG_PDF)).toBe(true);

    const part = await fetch(`${base}/api/files/${row.id}`, {
      headers: { ...admin.headers, range: 'bytes=5242870-5242899' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 5242870-5242899/${BIG_PDF.length}`);
    expect(part.headers.get('content-length')).toBe('30');
    expect(Buffer.from(await part.arrayBuffer()).equals(BIG_PDF.subarray(5242870, 5242900))).toBe(true);

    const tail = await fetch(`${base}/api/files/${row.id}`, {
      headers: { ...admin.headers, range: 'bytes=-7' },
    });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).toString()).toBe('\n%%EOF\n');

    const past = await fetch(`${base}/api/files/${row.id}`, {
      headers: { ...admin.headers, range: `bytes=${BIG_PDF.length}-` },
    });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${BIG_PDF.length}`);
  }, 60_000);

  it('removes the object with its file', async () => {
    const created = await uploadEmployee(base, admin, BIG_PDF.subarray(0, 5000));
    expect(created.status).toBe(201);
    const owner = ((await created.json()) as { data: { id: number } }).data.id;
    const row = (await fileRows()).at(-1)!;
    expect(await keysUnder(client, prefix)).toContain(row.stored_name);
    const removed = await fetch(`${base}${entityUrl(employees)}/delete/file/${owner}/${row.id}`, {
      method: 'DELETE',
      headers: admin.headers,
    });
    expect(removed.status).toBe(200);
    expect(await keysUnder(client, prefix)).not.toContain(row.stored_name);
    const gone = await fetch(`${base}/api/files/${row.id}`, { headers: admin.headers });
    expect(gone.status).toBe(404);
  });

  it('refuses a file of another type (415) or too large (413) and leaves nothing in the bucket', async () => {
    const rows = await fileRows();
    const keys = await keysUnder(client, prefix);
    const wrongType = await uploadEmployee(base, admin, Buffer.concat([Buffer.from('MZ'), BIG_PDF]));
    expect(wrongType.status).toBe(415);
    // The office's upload limit lowered to 10 MB: the 12 MB file is over it.
    const limit = (maxUploadMb: number) =>
      t.app.inject({
        method: 'PUT',
        url: API_BASE + SYSTEM_SETTINGS_ROUTES.get.path,
        headers: admin.headers,
        payload: { maxUploadMb },
      });
    expect((await limit(10)).statusCode).toBe(200);
    try {
      const tooLarge = await uploadEmployee(base, admin, Buffer.concat([BIG_PDF, BIG_PDF]));
      expect(tooLarge.status).toBe(413);
    } finally {
      await limit(25);
    }
    expect(await fileRows()).toEqual(rows);
    expect(await keysUnder(client, prefix)).toEqual(keys);
  }, 60_000);

  it('sweeps the bucket: completes a committed upload, removes orphans, keeps the rest', async () => {
    const before = await keysUnder(client, prefix);
    const put = (name: string, body: Buffer) =>
      client.send(new PutObjectCommand({ Bucket: S3_BUCKET, Key: `${prefix}/${name}`, Body: body }));
    const pending = hex(); // its row committed, the rename not done (the bucket was lost in between)
    const orphanPart = hex(); // no row: an upload whose request died
    const orphanFinal = hex(); // no row: deleted by a process killed before removing its file
    await put(`${pending}.part`, BIG_PDF.subarray(0, 1000));
    await put(`${orphanPart}.part`, Buffer.from('x'));
    await put(orphanFinal, Buffer.from('x'));
    await put('not-ours.txt', Buffer.from('x'));
    const inserted = await t.app.db
      .insertInto('files')
      .values({
        entity: 'employees',
        owner_id: 1,
        field: 'files',
        stored_name: pending,
        original_name: 'pending.pdf',
        mime_type: 'application/pdf',
        size: 1000,
        created_by: null,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Readable under its temporary name until the sweep completes it.
    const early = await fetch(`${base}/api/files/${inserted.id}`, { headers: admin.headers });
    expect(early.status).toBe(200);
    expect(Buffer.from(await early.arrayBuffer()).equals(BIG_PDF.subarray(0, 1000))).toBe(true);

    // The job's own sweep, with no grace: every unfinished upload here is a dead request's.
    (t.app.config as { fileOrphanGraceSeconds: number }).fileOrphanGraceSeconds = 0;
    const result = await sweepFiles(t.app);
    expect(result).toEqual({ completed: 1, removed: 2 });
    expect(await keysUnder(client, prefix)).toEqual([...before, pending, 'not-ours.txt'].sort());
    const later = await fetch(`${base}/api/files/${inserted.id}`, { headers: admin.headers });
    expect(Buffer.from(await later.arrayBuffer()).equals(BIG_PDF.subarray(0, 1000))).toBe(true);
  });

  it('answers 503 in the reader’s language when the bucket is down, and stores nothing', async () => {
    const rows = await fileRows();
    const keys = await keysUnder(client, prefix);
    const people = await t.app.db.selectFrom('employees').select('id').execute();
    await s3.stop();
    try {
      for (const [language, message] of [
        ['en', /file storage cannot be reached/],
        ['ar', /تعذّر الوصول إلى مخزن الملفات/],
      ] as const) {
        const refused = await uploadEmployee(base, admin, BIG_PDF, language);
        expect(refused.status).toBe(503);
        expect(((await refused.json()) as { message: string }).message).toMatch(message);
      }
      const ready = await fetch(`${base}/api/ready`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { data: { missing: string[] } }).data.missing).toEqual(['storage']);
      // A download while it is down is 503 too, not a broken answer.
      const download = await fetch(`${base}/api/files/${rows.at(-1)!.id}`, { headers: admin.headers });
      expect(download.status).toBe(503);
    } finally {
      await s3.start();
    }
    expect(await fileRows()).toEqual(rows);
    expect(await t.app.db.selectFrom('employees').select('id').execute()).toEqual(people);
    expect(await keysUnder(client, prefix)).toEqual(keys);
    expect(localFiles()).toEqual([]);
  }, 60_000);

  it('backs up the bucket’s files and restores them into another bucket prefix', async () => {
    const dir = tmp();
    const archive = path.join(dir, 'office.tar.gz');
    const database = createDatabase(t.config.databaseUrl);
    let manifest;
    try {
      manifest = await createBackup(
        { db: database.db, dialect: database.dialect, files: t.app.fileStore },
        archive,
      );
    } finally {
      await database.destroy();
    }
    const rows = await fileRows();
    expect(manifest.files.map((f) => f.name).sort()).toEqual(rows.map((r) => String(r.stored_name)).sort());

    const target = await freshDatabase(dialect, 'mizan-s3-restore-');
    const restoredPrefix = `restored-${dialect}`;
    const files = new S3FileStore(parseFilesUrl(s3.filesUrl(restoredPrefix))!);
    try {
      const report = await restoreBackup(archive, { databaseUrl: target.url, files, workDir: dir });
      expect(report.files).toBe(rows.length);
      expect(await keysUnder(client, restoredPrefix)).toEqual(rows.map((r) => String(r.stored_name)).sort());
      const big = rows.find((r) => Number(r.size) === BIG_PDF.length)!;
      expect((await objectBytes(client, `${restoredPrefix}/${big.stored_name}`)).equals(BIG_PDF)).toBe(true);
      // Into a bucket prefix that holds files already: refused.
      const again = await freshDatabase(dialect, 'mizan-s3-restore-');
      try {
        const error = await restoreBackup(archive, { databaseUrl: again.url, files, workDir: dir }).catch(
          (e: unknown) => e,
        );
        expect((error as Error).message).toMatch(/already holds files/);
      } finally {
        await again.drop();
      }
    } finally {
      files.close();
      await target.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('keeps the disk store for an office without MIZAN_FILES_URL', async () => {
    const local = await createTestApp({ dialect });
    try {
      expect(local.app.fileStore).toBeInstanceOf(DiskFileStore);
      const { headers } = await local.login();
      const row = await createRow(local.app, headers, 'employees');
      expect(row.id).toBeGreaterThan(0);
    } finally {
      await local.close();
    }
  });
});

describe('npm run files:migrate', () => {
  let s3: S3;
  let client: S3Client;
  const run = promisify(execFile);

  beforeAll(async () => {
    s3 = await startS3Server();
    client = clientOf(s3);
  });
  afterAll(async () => {
    client?.destroy();
    await s3?.close();
  });

  it('copies the local files into the bucket, checks them, and is idempotent', async () => {
    if (!fs.existsSync(MIGRATE_CLI)) throw new Error(`${MIGRATE_CLI} is missing: run tsc -b first`);
    const dataDir = tmp();
    const disk = new DiskFileStore(dataDir);
    const names = [hex(), hex(), hex()];
    const contents = [BIG_PDF, Buffer.from('%PDF-1.7 small\n'), Buffer.alloc(0)];
    for (const [i, name] of names.entries())
      await disk.put(name, Readable.from([contents[i]!]), contents[i]!.length);
    // An upload whose row is not known: not copied.
    fs.writeFileSync(path.join(disk.dir, `${hex()}.part`), 'x');
    const env = {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      MIZAN_FILES_URL: s3.filesUrl('migrated'),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };
    try {
      const first = await run(process.execPath, [MIGRATE_CLI], { env });
      expect(first.stdout).toMatch(/3 copied \(\d+ bytes\), 0 there already/);
      expect(await keysUnder(client, 'migrated')).toEqual([...names].sort());
      for (const [i, name] of names.entries())
        expect((await objectBytes(client, `migrated/${name}`)).equals(contents[i]!)).toBe(true);

      const second = await run(process.execPath, [MIGRATE_CLI], { env });
      expect(second.stdout).toMatch(/0 copied \(0 bytes\), 3 there already/);

      // A copy that differs (same size, other bytes, no recorded checksum) is found and copied again.
      const damaged = Buffer.from(contents[1]!);
      damaged[0] = 0x21;
      await client.send(
        new PutObjectCommand({ Bucket: S3_BUCKET, Key: `migrated/${names[1]}`, Body: damaged }),
      );
      const third = await run(process.execPath, [MIGRATE_CLI], { env });
      expect(third.stdout).toMatch(/1 copied \(15 bytes\), 2 there already/);
      expect((await objectBytes(client, `migrated/${names[1]}`)).equals(contents[1]!)).toBe(true);

      // The bucket unreachable: said, exit 1, nothing copied.
      const down = await run(process.execPath, [MIGRATE_CLI], {
        env: {
          ...env,
          MIZAN_FILES_URL: 's3://k:s@mizan-files/x?endpoint=http://127.0.0.1:1&forcePathStyle=true',
        },
      }).catch((e: unknown) => e as { code: number; stderr: string });
      expect((down as { code: number }).code).toBe(1);
      expect((down as { stderr: string }).stderr).toMatch(/cannot be reached.*nothing copied/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
