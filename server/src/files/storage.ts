import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
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

/**
 * Uploaded files under `DATA_DIR/files/`, each under a random name; the original name and type
 * live in the `files` table. Files are only ever served through authorised routes.
 */
export class FileStore {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'files');
    fs.mkdirSync(this.dir, { recursive: true });
  }

  pathOf(storedName: string): string {
    // Stored names are ours (hex); refuse anything that could leave the folder.
    if (!/^[a-f0-9]{32}$/.test(storedName)) throw new Error(`Invalid stored file name "${storedName}"`);
    return path.join(this.dir, storedName);
  }

  /**
   * Streams one upload to disk, checking its size (413) and its content type (415) as it goes.
   * On any failure the partial file is removed before the error is thrown.
   */
  async save(
    stream: Readable,
    meta: { field: string; filename: string; mimetype: string },
    rule: UploadRule,
  ): Promise<SavedUpload> {
    const storedName = crypto.randomBytes(16).toString('hex');
    const target = this.pathOf(storedName);
    const out = fs.createWriteStream(target, { flags: 'wx' });
    let size = 0;
    let head = Buffer.alloc(0);
    let mimeType: string | null = null;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > rule.maxSize) {
          throw new AppError('payloadTooLarge', {
            messageKey: 'http.fileTooLarge',
            params: { max: Math.round((rule.maxSize / 1024 / 1024) * 10) / 10 },
          });
        }
        if (mimeType === null) {
          head = Buffer.concat([head, chunk]);
          if (head.length >= SNIFF_BYTES) mimeType = this.judge(head, meta.mimetype, rule);
        }
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
      }
      // @fastify/multipart truncates silently when its own limit is hit.
      if ((stream as Readable & { truncated?: boolean }).truncated) throw new AppError('payloadTooLarge');
      if (mimeType === null) mimeType = this.judge(head, meta.mimetype, rule);
      await new Promise<void>((resolve, reject) =>
        out.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      // An SVG is text that a browser may run: judged whole, like the logo (at most maxSize bytes).
      if (mimeType === 'image/svg+xml' && svgProblem(await fs.promises.readFile(target)) !== null)
        throw new AppError('unsupportedMediaType', { messageKey: 'http.fileType' });
    } catch (error) {
      stream.resume();
      // The file may still be opening: wait for the stream to close, or the removal could run first.
      await new Promise<void>((resolve) => {
        if (out.closed) return resolve();
        out.once('close', () => resolve());
        out.destroy();
      });
      await this.remove(storedName);
      throw error;
    }
    return { field: meta.field, storedName, originalName: cleanName(meta.filename), mimeType, size };
  }

  private judge(head: Buffer, declared: string, rule: UploadRule): string {
    const type = acceptedType(head.subarray(0, SNIFF_BYTES), declared, rule.accept);
    if (!type) throw new AppError('unsupportedMediaType', { messageKey: 'http.fileType' });
    return type;
  }

  /** Whether files can be stored: the folder exists and this process may write in it. */
  async reachable(): Promise<boolean> {
    try {
      await fs.promises.access(this.dir, fs.constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }

  /** Removes a stored file; a file already gone is not an error. */
  async remove(storedName: string): Promise<void> {
    await fs.promises.rm(this.pathOf(storedName), { force: true });
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
