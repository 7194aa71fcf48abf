import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { API_BASE, SYSTEM, fileDownloadQuery, fileParams, findEntity, permissionKey } from '@mizan/contracts';
import { pathId } from '../http/params';
import { AppError } from '../http/errors';
import { defineRoute } from '../http/route';
import type { FileRow } from './access';
import type { SweepResult } from './storage';

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
 * `GET /api/files/:id` (`?download=1` for an attachment): a stored file, to whoever may view the
 * row it belongs to. Stored names never leave the server.
 */
export async function registerFileRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    method: 'GET',
    url: `${API_BASE}${SYSTEM.files}/:id`,
    // Any signed-in employee; whether this one may read this file is decided below, per owner.
    permission: null,
    tags: ['files'],
    summary: 'Download a stored file (?download=1 for an attachment)',
    params: fileParams,
    query: fileDownloadQuery,
    handler: async (request, { params, query }, reply) => {
      const id = pathId(params.id);
      const file = (await app.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst()) as
        FileRow | undefined;
      if (!file) throw new AppError('notFound');
      const rule = app.fileAccess.get(file.entity);
      const entity = findEntity(file.entity);
      const allowed = rule
        ? await rule(request.user, file)
        : entity
          ? request.user.permissions.has(permissionKey(entity, 'view'))
          : false;
      if (!allowed) throw new AppError('forbidden');
      const filePath = app.fileStore.pathOf(file.stored_name);
      const stat = await fs.promises.stat(filePath).catch(() => null);
      if (!stat) throw new AppError('notFound');
      const inline = query.download !== '1' && INLINE.has(file.mime_type);
      return reply
        .header('content-type', file.mime_type)
        .header('content-length', stat.size)
        .header(
          'content-disposition',
          contentDisposition(inline ? 'inline' : 'attachment', file.original_name),
        )
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=0, must-revalidate')
        .send(fs.createReadStream(filePath));
    },
  });
}
