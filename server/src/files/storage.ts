import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../http/errors';
import { acceptedType } from './sniff';
import { svgProblem } from './svg';

/** How many first bytes are read to sniff a type. */
const SNIFF_BYTES = 4100;

/** A file written to disk by an upload, not yet (or no longer) attached to a row. */
export interface SavedUpload {
  field: string;
  storedName: string;
  originalName: string;
  mimeType: string;
  size: number;
}

export interface UploadRule {
  accept: readonly string[];
  maxSize: number;
}

/** Stored names are ours: 32 hex digits, `.part` while the row that names it is not committed. */
export const STORED = /^([a-f0-9]{32})(\.part)?$/;

/** What a sweep found and did. */
export interface SweepResult {
  /** Temporary files whose row had committed (the process died before the rename): now final. */
  completed: number;
  /** Temporary files no row names, and stored files no row names: removed. */
  removed: number;
}

/** One stored object as a listing sees it. */
export interface StoredEntry {
  name: string;
  temporary: boolean;
  size: number;
  modifiedMs: number;
}

/** Bytes `start` to `end` of a file, both included (an HTTP byte range). */
export interface ByteRange {
  start: number;
  end: number;
}

/** A file as found: its size, and whether it still has its temporary name (see `FileStore.stat`). */
export interface FoundFile {
  size: number;
  temporary: boolean;
  /** The SHA-256 recorded with it when it was copied in (`files:migrate`), if any. */
  sha256?: string;
}

/**
 * The storage could not be reached (S3 down, a bucket gone): uploads and downloads answer 503 with
 * a message saying so, and nothing is kept.
 */
export function storageUnavailable(cause: unknown): AppError {
  return new AppError('unavailable', { messageKey: 'http.storageUnavailable', cause });
}

/**
 * Where uploaded files live: on disk (`DiskFileStore`, the default) or in an S3-compatible bucket
 * (`S3FileStore`, `MIZAN_FILES_URL`), chosen by `createFileStore`. Each file has a random name;
 * the original name and type live in the `files` table. Files are only ever served through
 * authorised routes.
 *
 * An upload is written as `<name>.part` and renamed to `<name>` by `commit` once the transaction
 * that inserted its row has committed, so a final name always has its row; a process killed (or a
 * storage lost) in between leaves temporary files, which `sweep` completes (row committed) or
 * removes. Reads of a name whose row exists fall back to the temporary name meanwhile.
 *
 * Subclasses give the primitives on objects (`<name>` or `<name>.part`); checks, the two-step
 * write and the sweep are here, the same for every storage.
 */
export abstract class FileStore {
  /** Where files go, for messages: a folder or `s3://bucket/prefix`. */
  abstract readonly location: string;

  /** Streams `source` into the object `key` (created, never replacing one of ours). */
  protected abstract writeObject(
    key: string,
    source: Readable,
    size?: number,
    sha256?: string,
  ): Promise<void>;
  /** The object's size, or null when absent. */
  protected abstract statObject(key: string): Promise<{ size: number; sha256?: string } | null>;
  /** The object's bytes (a range of them), as a stream. */
  protected abstract readObject(key: string, range?: ByteRange): Promise<Readable>;
  /** Gives `from` the name `to` (replacing it). */
  protected abstract renameObject(from: string, to: string): Promise<void>;
  /** Removes objects; absent ones are not an error. */
  protected abstract removeObjects(keys: string[]): Promise<void>;
  /** Every object whose name is ours (32 hex digits, `.part` or not). */
  protected abstract listObjects(): AsyncIterable<StoredEntry>;
  /** Whether files can be stored: the folder is writable, or the bucket answers. */
  abstract reachable(): Promise<boolean>;

  /** Lets go of what the storage holds open (an S3 client's sockets). */
  close(): void {}

  protected static checkName(storedName: string): void {
    // Stored names are ours (hex); refuse anything that could leave the folder or prefix.
    if (!/^[a-f0-9]{32}$/.test(storedName)) throw new Error(`Invalid stored file name "${storedName}"`);
  }

  protected keyOf(storedName: string, temporary = false): string {
    FileStore.checkName(storedName);
    return temporary ? `${storedName}.part` : storedName;
  }

  /** Writes a whole file (a logo, say) under a new temporary name; `commit` makes it final. */
  async writeNew(content: Buffer): Promise<string> {
    const storedName = crypto.randomBytes(16).toString('hex');
    await this.guard(() =>
      this.writeObject(this.keyOf(storedName, true), Readable.from([content]), content.length),
    );
    return storedName;
  }

  /**
   * Writes a file under its final name at once (a restore, a copy from another storage): for
   * names whose row exists already or is written in the same step.
   */
  async put(storedName: string, source: Readable, size: number, sha256?: string): Promise<void> {
    await this.writeObject(this.keyOf(storedName), source, size, sha256);
  }

  /**
   * Gives a file its final name, once the row naming it has committed. Never throws: a file
   * already final (a sweep got there first) is done, and one the storage could not rename now
   * stays readable under its temporary name until the sweep completes it.
   */
  async commit(storedName: string): Promise<void> {
    await this.complete(storedName).catch(() => undefined);
  }

  private async complete(storedName: string): Promise<void> {
    if (!(await this.statObject(this.keyOf(storedName, true)))) return;
    await this.renameObject(this.keyOf(storedName, true), this.keyOf(storedName));
  }

  /**
   * Removes a stored file, final or temporary. Never throws: a file already gone is done, and one
   * the storage could not remove now (no row names it any more) goes at the next sweep.
   */
  async remove(storedName: string): Promise<void> {
    await this.removeObjects([this.keyOf(storedName), this.keyOf(storedName, true)]).catch(() => undefined);
  }

  /**
   * A stored file's size, under its final name or, while its commit is pending, its temporary
   * one (ask only for names whose row exists); null when it has neither.
   */
  async stat(storedName: string): Promise<FoundFile | null> {
    return this.guard(async () => {
      const final = await this.statObject(this.keyOf(storedName));
      if (final) return { ...final, temporary: false };
      const temporary = await this.statObject(this.keyOf(storedName, true));
      return temporary ? { ...temporary, temporary: true } : null;
    });
  }

  /** A stored file's bytes, whole or a range, as `stat` found it. */
  async read(storedName: string, found: FoundFile, range?: ByteRange): Promise<Readable> {
    return this.guard(() => this.readObject(this.keyOf(storedName, found.temporary), range));
  }

  /**
   * Copies a stored file (whose row exists) into the local file `target` (a backup's snapshot);
   * throws when the storage has no such file.
   */
  async copyTo(storedName: string, target: string): Promise<void> {
    const found = await this.stat(storedName);
    if (!found)
      throw new Error(
        `stored file ${storedName} is listed in the database but missing from ${this.location}`,
      );
    await pipeline(await this.read(storedName, found), fs.createWriteStream(target, { flags: 'wx' }));
  }

  /** Stores the local file `source` under its final name (a restore); the local file may be moved. */
  async adopt(storedName: string, source: string): Promise<void> {
    const { size } = await fs.promises.stat(source);
    await this.put(storedName, fs.createReadStream(source), size);
  }

  /** A whole stored file into memory (a document to send, a template to fill), or null when it is gone. */
  async bytes(storedName: string): Promise<Buffer | null> {
    const found = await this.stat(storedName);
    if (!found) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of (await this.read(storedName, found)) as AsyncIterable<Buffer>)
      chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  /** A whole stored file into memory: for small files only (an SVG judged whole, say). */
  protected async readAll(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of (await this.readObject(key)) as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  /** The final names of every stored file, with their sizes (a migration copies these). */
  async *files(): AsyncIterable<StoredEntry> {
    for await (const entry of this.listObjects()) if (!entry.temporary) yield entry;
  }

  /** Whether the storage holds no file of ours (a restore goes only into an empty one). */
  async isEmpty(): Promise<boolean> {
    for await (const entry of this.listObjects()) {
      void entry;
      return false;
    }
    return true;
  }

  /**
   * Completes or removes what a killed process left: a temporary file whose row committed is
   * renamed; a temporary file no row names, older than `graceMs` (an upload still being written
   * by a live instance is younger), is removed; a final file no row names (its row deleted by a
   * process killed before removing it) is removed at any age, as a final name only ever appears
   * after its row committed. `referenced` answers which of the names given have a row.
   */
  async sweep(
    referenced: (names: string[]) => Promise<Set<string>>,
    graceMs: number,
    now: number = Date.now(),
  ): Promise<SweepResult> {
    // The storage is listed before the rows are read, so a file renamed in between has its row.
    const entries: StoredEntry[] = [];
    for await (const entry of this.listObjects()) entries.push(entry);
    const result: SweepResult = { completed: 0, removed: 0 };
    const CHUNK = 500;
    for (let i = 0; i < entries.length; i += CHUNK) {
      const chunk = entries.slice(i, i + CHUNK);
      const known = await referenced([...new Set(chunk.map((e) => e.name))]);
      const gone: string[] = [];
      for (const entry of chunk) {
        if (known.has(entry.name)) {
          if (entry.temporary) {
            await this.complete(entry.name);
            result.completed++;
          }
          continue;
        }
        if (entry.temporary && now - entry.modifiedMs < graceMs) continue;
        gone.push(this.keyOf(entry.name, entry.temporary));
      }
      await this.removeObjects(gone);
      result.removed += gone.length;
    }
    return result;
  }

  /**
   * Streams one upload to the storage, checking its size (413) and its content type (415) as it
   * goes; a storage that cannot be reached is 503. On any failure the partial file is removed
   * before the error is thrown.
   */
  async save(
    stream: Readable,
    meta: { field: string; filename: string; mimetype: string },
    rule: UploadRule,
  ): Promise<SavedUpload> {
    const storedName = crypto.randomBytes(16).toString('hex');
    const key = this.keyOf(storedName, true);
    // What the checks saw as the bytes went by, and their own error whatever the storage wraps it in.
    const seen: { size: number; mimeType: string | null; refused: unknown } = {
      size: 0,
      mimeType: null,
      refused: null,
    };
    const judge = (head: Buffer) => {
      const type = acceptedType(head.subarray(0, SNIFF_BYTES), meta.mimetype, rule.accept);
      if (!type) throw new AppError('unsupportedMediaType', { messageKey: 'http.fileType' });
      return type;
    };
    let head = Buffer.alloc(0);
    const check = (chunk: Buffer) => {
      seen.size += chunk.length;
      if (seen.size > rule.maxSize) {
        throw new AppError('payloadTooLarge', {
          messageKey: 'http.fileTooLarge',
          params: { max: Math.round((rule.maxSize / 1024 / 1024) * 10) / 10 },
        });
      }
      if (seen.mimeType === null) {
        head = Buffer.concat([head, chunk]);
        if (head.length >= SNIFF_BYTES) seen.mimeType = judge(head);
      }
    };
    const checked = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        try {
          check(chunk);
          done(null, chunk);
        } catch (error) {
          seen.refused = error;
          done(error as Error);
        }
      },
      flush(done) {
        try {
          // @fastify/multipart truncates silently when its own limit is hit.
          if ((stream as Readable & { truncated?: boolean }).truncated) throw new AppError('payloadTooLarge');
          if (seen.mimeType === null) seen.mimeType = judge(head);
          done();
        } catch (error) {
          seen.refused = error;
          done(error as Error);
        }
      },
    });
    // Piped, not handed over: when the storage fails and drops what it reads, the upload itself
    // is not destroyed but drained, so the request's other parts and its answer still come.
    stream.pipe(checked);
    // Its errors reach `writeObject` through the stream it reads (and `seen.refused`); without a
    // listener of its own, the pipe above would throw them again once the reader has let go.
    checked.on('error', () => undefined);
    try {
      try {
        await this.writeObject(key, checked);
      } catch (error) {
        throw seen.refused ?? (error instanceof AppError ? error : storageUnavailable(error));
      }
      // An SVG is text that a browser may run: judged whole, like the logo (at most maxSize bytes).
      if (seen.mimeType === 'image/svg+xml' && svgProblem(await this.guard(() => this.readAll(key))) !== null)
        throw new AppError('unsupportedMediaType', { messageKey: 'http.fileType' });
    } catch (error) {
      stream.unpipe(checked);
      checked.destroy();
      stream.resume();
      await this.remove(storedName);
      throw error;
    }
    return {
      field: meta.field,
      storedName,
      originalName: cleanName(meta.filename),
      mimeType: seen.mimeType!,
      size: seen.size,
    };
  }

  /** Runs a storage call; a failure of the storage itself becomes 503 (`storageUnavailable`). */
  protected async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw storageUnavailable(error);
    }
  }
}

/** Uploaded files under `DATA_DIR/files/`. */
export class DiskFileStore extends FileStore {
  readonly dir: string;

  /**
   * `create: false` leaves the folder to be made by the first write (a restore checks it first);
   * `folder` is the folder of `dataDir` the files go in (`files`; the backups' store: `backups`).
   */
  constructor(dataDir: string, options: { create?: boolean; folder?: string } = {}) {
    super();
    this.dir = path.join(dataDir, options.folder ?? 'files');
    if (options.create !== false) fs.mkdirSync(this.dir, { recursive: true });
  }

  get location(): string {
    return this.dir;
  }

  /** The file of a final stored name (tests and same-disk copies). */
  pathOf(storedName: string): string {
    return path.join(this.dir, this.keyOf(storedName));
  }

  /** Linked when it can be (the same file system): a file deleted later keeps its content in the copy. */
  override async copyTo(storedName: string, target: string): Promise<void> {
    try {
      await fs.promises.link(this.pathOf(storedName), target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Missing (or still temporary), or another file system: the general way.
      if (code === 'EEXIST') throw error;
      await super.copyTo(storedName, target);
    }
  }

  /** Moved in by a rename when on the same file system. */
  override async adopt(storedName: string, source: string): Promise<void> {
    await this.ensureDir();
    try {
      await fs.promises.rename(source, this.pathOf(storedName));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await super.adopt(storedName, source);
    }
  }

  private async ensureDir(): Promise<void> {
    await fs.promises.mkdir(this.dir, { recursive: true });
  }

  protected async writeObject(key: string, source: Readable): Promise<void> {
    await this.ensureDir();
    const target = path.join(this.dir, key);
    const temporary = key.endsWith('.part');
    // An upload never replaces a file; a restore or copy writes beside, then renames.
    const out = temporary ? target : `${target}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      await pipeline(source, fs.createWriteStream(out, { flags: 'wx' }));
      if (!temporary) await fs.promises.rename(out, target);
    } catch (error) {
      await fs.promises.rm(out, { force: true });
      throw error;
    }
  }

  protected async statObject(key: string): Promise<{ size: number } | null> {
    const stat = await fs.promises.stat(path.join(this.dir, key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    return stat ? { size: stat.size } : null;
  }

  protected async readObject(key: string, range?: ByteRange): Promise<Readable> {
    const file = path.join(this.dir, key);
    // Opened before it is handed on, so a file gone in between is an error here, not mid-answer.
    const handle = await fs.promises.open(file, 'r');
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  protected async renameObject(from: string, to: string): Promise<void> {
    try {
      await fs.promises.rename(path.join(this.dir, from), path.join(this.dir, to));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  protected async removeObjects(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => fs.promises.rm(path.join(this.dir, key), { force: true })));
  }

  protected async *listObjects(): AsyncIterable<StoredEntry> {
    const files = await fs.promises.readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    for (const file of files) {
      const match = STORED.exec(file);
      if (!match) continue;
      const stat = await fs.promises.stat(path.join(this.dir, file)).catch(() => null);
      if (!stat) continue;
      yield { name: match[1]!, temporary: match[2] !== undefined, size: stat.size, modifiedMs: stat.mtimeMs };
    }
  }

  async reachable(): Promise<boolean> {
    try {
      await fs.promises.access(this.dir, fs.constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }
}

/** Keeps the base name only, without control characters, at most 255 characters. */
export function cleanName(name: string): string {
  const base = path
    .basename(name.replace(/\\/g, '/'))
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return (base || 'file').slice(0, 255);
}
