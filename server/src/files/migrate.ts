import crypto from 'node:crypto';
import { loadConfig } from '../config';
import { AppError } from '../http/errors';
import { S3FileStore } from './s3';
import { DiskFileStore, type FileStore, type FoundFile } from './storage';

export interface MigrationReport {
  /** Files copied by this run (each read back and checked). */
  copied: number;
  /** Files the target held already with the same size and checksum (a run before this one). */
  alreadyThere: number;
  /** Bytes copied by this run. */
  bytes: number;
}

/** A stored file's SHA-256 (hex) and size, read as a stream from its storage. */
async function digest(
  store: FileStore,
  name: string,
  found: FoundFile,
): Promise<{ sha256: string; size: number }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of (await store.read(name, found)) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * Copies every final stored file of `from` into `to` under the same name, then reads each copy
 * back and checks its size and SHA-256 against the original; a file `to` holds already with the
 * same size and checksum is left as it is, so a run cut short is simply run again. The checksum
 * goes with the copy (object metadata on S3), so a second run need not read the copies back.
 * Files still under a temporary name (an upload whose row is not known yet) are not copied: run
 * it with the server stopped, after a start has swept them.
 *
 * @example
 * const report = await migrateFiles(new DiskFileStore(dataDir), new S3FileStore(config.files));
 */
export async function migrateFiles(
  from: FileStore,
  to: FileStore,
  progress: (done: number) => void = () => undefined,
): Promise<MigrationReport> {
  const report: MigrationReport = { copied: 0, alreadyThere: 0, bytes: 0 };
  for await (const entry of from.files()) {
    const source: FoundFile = { size: entry.size, temporary: false };
    const original = await digest(from, entry.name, source);
    const there = await to.stat(entry.name);
    if (there && !there.temporary && there.size === original.size) {
      const sha256 = there.sha256 ?? (await digest(to, entry.name, there)).sha256;
      if (sha256 === original.sha256) {
        report.alreadyThere++;
        progress(report.copied + report.alreadyThere);
        continue;
      }
    }
    await to.put(entry.name, await from.read(entry.name, source), original.size, original.sha256);
    const copied = await to.stat(entry.name);
    const check = copied && (await digest(to, entry.name, copied));
    if (!check || check.size !== original.size || check.sha256 !== original.sha256)
      throw new Error(
        `file ${entry.name} was copied but reads back ${check ? `as ${check.size} bytes, SHA-256 ${check.sha256}` : 'as missing'}, not ${original.size} bytes, SHA-256 ${original.sha256}`,
      );
    report.copied++;
    report.bytes += original.size;
    progress(report.copied + report.alreadyThere);
  }
  return report;
}

/**
 * `npm run files:migrate`: the files of `DATA_DIR/files` into the bucket of `MIZAN_FILES_URL`,
 * checked; the local files stay where they are (remove them once the server runs on the bucket).
 */
async function main(): Promise<number> {
  const config = loadConfig(process.env);
  if (!config.files) {
    console.error('MIZAN_FILES_URL is not set: name the bucket to copy the files of DATA_DIR/files into.');
    return 64;
  }
  const from = new DiskFileStore(config.dataDir, { create: false });
  const to = new S3FileStore(config.files);
  try {
    if (!(await to.reachable())) {
      console.error(`${to.location} cannot be reached (address, credentials, bucket?): nothing copied.`);
      return 1;
    }
    const report = await migrateFiles(from, to, (done) => {
      if (done % 100 === 0) console.info(`${done} files…`);
    });
    console.info(
      `Files of ${from.location} in ${to.location}: ${report.copied} copied (${report.bytes} bytes), ${report.alreadyThere} there already; sizes and SHA-256 checked.`,
    );
    return 0;
  } finally {
    to.close();
  }
}

if (require.main === module)
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      // A storage failure carries the storage's own words in its cause.
      console.error(error instanceof AppError && error.cause ? error.cause : error);
      process.exit(1);
    },
  );
