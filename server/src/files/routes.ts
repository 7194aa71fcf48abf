import type { FastifyInstance } from 'fastify';
import { FILE_ROUTES } from '@mizan/contracts';
import { AppError } from '../http/errors';
import { defineRoute } from '../http/route';
import { mayReadFile, type FileRow } from './access';
import type { ByteRange, SweepResult } from './storage';

/**
 * Completes or removes the files a killed process left (see `FileStore.sweep`), against the
 * `files` table. main.ts runs it before serving; the `files.sweep` job (app.ts) daily.
 */
export async function sweepFiles(app: FastifyInstance): Promise<SweepResult> {
  const result = await app.fileStore.sweep(async (names) => {
    const rows = await app.db
      .selectFrom('files')
      .select('stored_name')
      .where('stored_name', 'in', names)
      .execute();
    return new Set(rows.map((r) => String(r.stored_name)));
  }, app.config.fileOrphanGraceSeconds * 1000);
  if (result.completed || result.removed) app.log.info({ ...result }, 'stored files swept');
  return result;
}

/** Types a browser may show in the page; everything else is always downloaded. */
const INLINE = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'image/gif']);

function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * The one byte range of a `Range` header (`bytes=a-b`, `bytes=a-`, `bytes=-n`) within `size`
 * bytes: null for the whole file (no header, several ranges, another unit), 'unsatisfiable' for
 * a range that starts past the end.
 */
export function byteRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    // The last n bytes.
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}

/**
 * `GET /api/files/:id` (`?download=1` for an attachment): a stored file, to whoever may view the
 * row it belongs to. Stored names never leave the server. One byte range (`Range: bytes=...`)
 * answers 206 with `Content-Range`, read as a range from the storage (a preview reads a PDF's
 * pages as it shows them); a range past the end answers 416.
 */
export async function registerFileRoutes(app: FastifyInstance): Promise<void> {
  // Whether this employee may read this file is decided below, per owner.
  defineRoute(app, FILE_ROUTES.download, {
    tags: ['files'],
    handler: async (request, { params: { id }, query }, reply) => {
      const file = (await app.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst()) as
        FileRow | undefined;
      if (!file) throw new AppError('notFound');
      if (!(await mayReadFile(app.fileAccess, request.user, file))) throw new AppError('forbidden');
      const found = await app.fileStore.stat(file.stored_name);
      if (!found) throw new AppError('notFound');
      const inline = query.download !== '1' && INLINE.has(file.mime_type);
      const range = byteRange(request.headers.range, found.size);
      void reply
        .header('content-type', file.mime_type)
        .header('accept-ranges', 'bytes')
        .header(
          'content-disposition',
          contentDisposition(inline ? 'inline' : 'attachment', file.original_name),
        )
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=0, must-revalidate');
      if (range === 'unsatisfiable')
        return reply.status(416).header('content-range', `bytes */${found.size}`).send();
      const body = await app.fileStore.read(file.stored_name, found, range ?? undefined);
      if (range)
        void reply
          .status(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${found.size}`)
          .header('content-length', range.end - range.start + 1);
      else void reply.header('content-length', found.size);
      return reply.send(body);
    },
  });
}
