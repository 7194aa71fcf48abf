import type { Multipart } from '@fastify/multipart';
import { uploadLimitBytes } from '@mizan/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../http/errors';
import { readUploadLimitMb } from '../settings/repository';
import { cleanName, type FileStore, type SavedUpload, type UploadRule } from './storage';

/**
 * The one multipart reader: every part of the body in order, handed to `onPart` (which must
 * consume or `resume()` each file stream). A body that is not multipart is 415 (`unsupported`);
 * the parser's own errors (no boundary, a cut or garbled body) carry no status and become 400,
 * for every multipart route alike.
 *
 * @example
 * await readParts(request, async (part) => { if (part.type === 'file') part.file.resume(); });
 */
export async function readParts(
  request: FastifyRequest,
  onPart: (part: Multipart) => Promise<void>,
  unsupported: AppError = new AppError('unsupportedMediaType'),
): Promise<void> {
  if (!request.isMultipart()) throw unsupported;
  try {
    for await (const part of request.parts()) await onPart(part);
  } catch (error) {
    const status = (error as { statusCode?: unknown } | null)?.statusCode;
    const code = (error as { code?: unknown } | null)?.code;
    // Errors with a status or a Fastify code (413 limits) are mapped by the error handler.
    if (error instanceof AppError || typeof status === 'number' || typeof code === 'string') throw error;
    throw new AppError('malformed', { cause: error });
  }
}

/**
 * A file part read into memory, at most `maxSize` bytes kept; the rest is read and dropped so the
 * client receives the answer (413) rather than a reset connection.
 */
export async function partBuffer(
  part: Extract<Multipart, { type: 'file' }>,
  maxSize: number,
): Promise<{ buffer: Buffer; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= maxSize) chunks.push(chunk);
  }
  return { buffer: Buffer.concat(chunks), tooLarge: size > maxSize || part.file.truncated };
}

/** What a file part may be: its types, how many, and a bound of its kind's own below the office's limit. */
export interface FilePartRule {
  accept: readonly string[];
  maxCount: number;
  /** Bytes; left out (the usual case), the office's upload limit alone applies (`maxUploadMb`). */
  maxSize?: number;
}

export interface MultipartRules {
  /** File fields accepted in this body, by part name. */
  files: Record<string, FilePartRule>;
}

export interface MultipartBody {
  /** Plain form fields; a key sent several times keeps every value in order. `tags[]` is `tags`. */
  fields: Record<string, string[]>;
  uploads: SavedUpload[];
}

/**
 * A file refused for its size (413) or type (415), as the same status naming the file: the message
 * and the field error `<field>.<index>` (its place among that field's files, in request order), so
 * the form marks that file only. Other errors pass unchanged.
 */
function namedFileError(error: unknown, key: string, filename: string, rule: UploadRule): unknown {
  if (!(error instanceof AppError)) return error;
  const name = cleanName(filename);
  const named: { key: string; params: Record<string, string | number> } | null =
    error.code === 'payloadTooLarge'
      ? {
          key: 'http.fileTooLargeNamed',
          params: { name, max: Math.round((rule.maxSize / 1024 / 1024) * 10) / 10 },
        }
      : error.code === 'unsupportedMediaType'
        ? { key: 'http.fileTypeNamed', params: { name } }
        : null;
  if (!named) return error;
  return new AppError(error.code, {
    messageKey: named.key,
    params: named.params,
    errors: { [key]: [named] },
    cause: error,
  });
}

/**
 * Reads a multipart body: plain fields into `fields`, file parts written to the store (size and
 * type checked). When anything fails, the files already written are removed and the error thrown.
 * The size limit is the office's (`maxUploadMb`), read from the settings row at each request, so
 * a change applies to the next upload on every instance; a field's own `maxSize` may only lower it.
 *
 * @example
 * const { fields, uploads } = await readMultipart(request, store, { files: { files: rule } });
 */
export async function readMultipart(
  request: FastifyRequest,
  store: FileStore,
  rules: MultipartRules,
): Promise<MultipartBody> {
  const fields: Record<string, string[]> = {};
  const uploads: SavedUpload[] = [];
  const counts: Record<string, number> = {};
  const officeMb = await readUploadLimitMb(request.server.db);
  try {
    await readParts(request, async (part) => {
      const name = part.fieldname.replace(/\[\]$/, '');
      if (part.type === 'file') {
        const given = rules.files[name];
        if (!given) {
          part.file.resume();
          throw new AppError('validation', {
            errors: { [name]: [{ key: 'http.unknownFilePart', params: { field: name } }] },
          });
        }
        // An empty file input still sends a part with no name and no bytes: skip it.
        if (!part.filename) {
          part.file.resume();
          return;
        }
        const rule = { ...given, maxSize: uploadLimitBytes(officeMb, given.maxSize) };
        counts[name] = (counts[name] ?? 0) + 1;
        if (counts[name] > rule.maxCount) {
          part.file.resume();
          throw new AppError('validation', {
            errors: { [name]: [{ key: 'http.tooManyFiles', params: { max: rule.maxCount } }] },
          });
        }
        const index = counts[name] - 1;
        try {
          uploads.push(
            await store.save(
              part.file,
              { field: name, filename: part.filename, mimetype: part.mimetype },
              rule,
            ),
          );
        } catch (error) {
          throw namedFileError(error, `${name}.${index}`, part.filename, rule);
        }
      } else {
        (fields[name] ??= []).push(typeof part.value === 'string' ? part.value : String(part.value));
      }
    });
  } catch (error) {
    await Promise.all(uploads.map((u) => store.remove(u.storedName)));
    throw error;
  }
  return { fields, uploads };
}
