import type { FastifyRequest } from 'fastify';
import { AppError } from '../http/errors';
import type { FileStore, SavedUpload, UploadRule } from './storage';

export interface MultipartRules {
  /** File fields accepted in this body, by part name. */
  files: Record<string, UploadRule & { maxCount: number }>;
}

export interface MultipartBody {
  /** Plain form fields; a key sent several times keeps every value in order. `tags[]` is `tags`. */
  fields: Record<string, string[]>;
  uploads: SavedUpload[];
}

/**
 * Reads a multipart body: plain fields into `fields`, file parts written to the store (size and
 * type checked). When anything fails, the files already written are removed and the error thrown.
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
  try {
    for await (const part of request.parts()) {
      const name = part.fieldname.replace(/\[\]$/, '');
      if (part.type === 'file') {
        const rule = rules.files[name];
        if (!rule) {
          part.file.resume();
          throw new AppError('validation', {
            errors: { [name]: [{ key: 'http.unknownFilePart', params: { field: name } }] },
          });
        }
        // An empty file input still sends a part with no name and no bytes: skip it.
        if (!part.filename) {
          part.file.resume();
          continue;
        }
        counts[name] = (counts[name] ?? 0) + 1;
        if (counts[name] > rule.maxCount) {
          part.file.resume();
          throw new AppError('validation', {
            errors: { [name]: [{ key: 'http.tooManyFiles', params: { max: rule.maxCount } }] },
          });
        }
        uploads.push(
          await store.save(
            part.file,
            { field: name, filename: part.filename, mimetype: part.mimetype },
            rule,
          ),
        );
      } else {
        (fields[name] ??= []).push(typeof part.value === 'string' ? part.value : String(part.value));
      }
    }
  } catch (error) {
    await Promise.all(uploads.map((u) => store.remove(u.storedName)));
    throw error;
  }
  return { fields, uploads };
}
