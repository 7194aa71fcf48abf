import {
  DOCUMENT_FILE_TYPES,
  FILE_TEXT_ROUTES,
  findEntity,
  permissionKey,
  type FileVersion,
  type FilesField,
} from '@mizan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { writeAudit } from '../audit/audit';
import { mayReadFile, type FileRow } from '../files/access';
import { readMultipart } from '../files/multipart';
import { AppError } from '../http/errors';
import { defineRoute } from '../http/route';
import { VERSION_OWNER, fileText, queueText, searchFiles, textStates } from './service';

async function fileRow(app: FastifyInstance, id: number): Promise<FileRow | undefined> {
  return (await app.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst()) as
    FileRow | undefined;
}

/** A current file (not an earlier version) the reader may read; 404 / 403 otherwise. */
async function readable(app: FastifyInstance, request: FastifyRequest, id: number): Promise<FileRow> {
  const file = await fileRow(app, id);
  if (!file || file.entity === VERSION_OWNER) throw new AppError('notFound');
  if (!(await mayReadFile(app.fileAccess, request.user, file))) throw new AppError('forbidden');
  return file;
}

/** A current file the writer may give a new version: readable, and its row's `update` permission. */
async function writable(app: FastifyInstance, request: FastifyRequest, id: number): Promise<FileRow> {
  const file = await readable(app, request, id);
  const entity = findEntity(file.entity);
  if (!entity || !request.user.permissions.has(permissionKey(entity, 'update')))
    throw new AppError('forbidden');
  return file;
}

/** The versions of a file: the current one, then the earlier ones, latest first. */
async function versionsOf(app: FastifyInstance, file: FileRow): Promise<FileVersion[]> {
  const rows = await app.db
    .selectFrom('files')
    .leftJoin('employees', 'employees.id', 'files.created_by')
    .select([
      'files.id',
      'files.entity',
      'files.original_name',
      'files.mime_type',
      'files.size',
      'files.created_by',
      'files.created_at',
      'employees.name as employee_name',
    ])
    .where((eb) =>
      eb.or([
        eb('files.id', '=', file.id),
        eb.and([eb('files.entity', '=', VERSION_OWNER), eb('files.owner_id', '=', file.id)]),
      ]),
    )
    .orderBy('files.created_at', 'desc')
    .orderBy('files.id', 'desc')
    .execute();
  const version = (r: (typeof rows)[number]): FileVersion => ({
    id: Number(r.id),
    current: Number(r.id) === file.id,
    originalName: String(r.original_name),
    mimeType: String(r.mime_type),
    size: Number(r.size),
    createdBy: r.created_by === null ? null : Number(r.created_by),
    createdByName: r.employee_name === null || r.employee_name === undefined ? null : String(r.employee_name),
    createdAt: r.created_at instanceof Date ? r.created_at.toISOString() : String(r.created_at),
  });
  const all = rows.map(version);
  return [...all.filter((v) => v.current), ...all.filter((v) => !v.current)];
}

/**
 * The text of files and their versions: `GET /api/files/text` (a file's state and pages),
 * `GET /api/files/text/states?ids=` (a list's badges), `GET /api/files/text/search` (a list's
 * files by content), and `GET|POST /api/files/:id/versions`, `POST .../:versionId/restore`.
 * Reading needs what downloading the file needs; a new version, the `update` permission of the
 * row the file belongs to.
 */
export function registerFileTextRoutes(app: FastifyInstance): void {
  // Any signed-in employee may call these; the file's own read rule decides in each.
  defineRoute(app, FILE_TEXT_ROUTES.text, {
    handler: async (request, { query }) => {
      const file = await fileRow(app, query.fileId);
      if (!file || file.entity !== query.entity || Number(file.owner_id) !== query.id)
        throw new AppError('notFound');
      if (!(await mayReadFile(app.fileAccess, request.user, file))) throw new AppError('forbidden');
      return { data: await fileText(app.db, file.id) };
    },
  });

  defineRoute(app, FILE_TEXT_ROUTES.states, {
    handler: async (request, { query }) => {
      const ids = [...new Set(query.ids.split(',').map(Number))];
      const rows = (await app.db
        .selectFrom('files')
        .selectAll()
        .where('id', 'in', ids)
        .execute()) as FileRow[];
      const allowed: number[] = [];
      for (const row of rows)
        if (await mayReadFile(app.fileAccess, request.user, row)) allowed.push(Number(row.id));
      return { data: { items: await textStates(app.db, allowed) } };
    },
  });

  defineRoute(app, FILE_TEXT_ROUTES.search, {
    handler: async (request, { query }) => ({
      data: await searchFiles(app, request.user, query.q, {
        limit: 50,
        entity: query.entity,
        ownerIds: query.ownerIds?.split(',').map(Number),
      }),
    }),
  });

  defineRoute(app, FILE_TEXT_ROUTES.versions, {
    handler: async (request, { params }) => {
      const file = await readable(app, request, params.id);
      return { data: { items: await versionsOf(app, file) } };
    },
  });

  // A new version: multipart `file`, checked as the file's own field checks its files.
  defineRoute(app, FILE_TEXT_ROUTES.upload, {
    handler: async (request, { params }, reply) => {
      const file = await writable(app, request, params.id);
      if (!request.isMultipart()) throw new AppError('unsupportedMediaType');
      const field = findEntity(file.entity)?.fields[file.field] as FilesField | undefined;
      const rule = {
        accept: field?.type === 'files' ? field.accept : DOCUMENT_FILE_TYPES,
        // The field's own bound if it has one; the office's upload limit in any case.
        maxSize: field?.type === 'files' ? field.maxSize : undefined,
        maxCount: 1,
      };
      const { uploads } = await readMultipart(request, app.fileStore, { files: { file: rule } });
      const upload = uploads[0];
      if (!upload) throw new AppError('validation', { errors: { file: [{ key: 'validation.required' }] } });
      const at = app.clock().toISOString();
      try {
        await app.db.transaction().execute(async (trx) => {
          const current = (await trx
            .selectFrom('files')
            .selectAll()
            .where('id', '=', file.id)
            .executeTakeFirst()) as (FileRow & { created_by: number | null; created_at: string }) | undefined;
          if (!current) throw new AppError('notFound');
          // The file's row takes the new bytes first: stored names are unique.
          await trx
            .updateTable('files')
            .set({
              stored_name: upload.storedName,
              original_name: upload.originalName,
              mime_type: upload.mimeType,
              size: upload.size,
              created_by: request.user.id,
              created_at: at,
            })
            .where('id', '=', file.id)
            .execute();
          await trx
            .insertInto('files')
            .values({
              entity: VERSION_OWNER,
              owner_id: file.id,
              field: 'version',
              stored_name: current.stored_name,
              original_name: current.original_name,
              mime_type: current.mime_type,
              size: current.size,
              created_by: current.created_by,
              created_at: current.created_at,
            })
            .execute();
          await writeAudit(trx, {
            employeeId: request.user.id,
            entity: file.entity,
            entityId: file.owner_id,
            action: 'fileVersion',
            before: { fileId: file.id, name: current.original_name, size: current.size },
            after: { fileId: file.id, name: upload.originalName, size: upload.size },
            ip: request.ip,
          });
        });
      } catch (error) {
        await app.fileStore.remove(upload.storedName);
        throw error;
      }
      await app.fileStore.commit(upload.storedName);
      await queueText(app, file.id, upload.storedName);
      void reply.status(201);
      return { data: { items: await versionsOf(app, file) } };
    },
  });

  defineRoute(app, FILE_TEXT_ROUTES.restore, {
    handler: async (request, { params }) => {
      const file = await writable(app, request, params.id);
      const versionId = params.versionId;
      const restored = await app.db.transaction().execute(async (trx) => {
        const [current, version] = (await Promise.all([
          trx.selectFrom('files').selectAll().where('id', '=', file.id).executeTakeFirst(),
          trx
            .selectFrom('files')
            .selectAll()
            .where('id', '=', versionId)
            .where('entity', '=', VERSION_OWNER)
            .where('owner_id', '=', file.id)
            .executeTakeFirst(),
        ])) as [Record<string, unknown> | undefined, Record<string, unknown> | undefined];
        if (!current || !version) throw new AppError('notFound');
        const content = (row: Record<string, unknown>) => ({
          stored_name: row.stored_name,
          original_name: row.original_name,
          mime_type: row.mime_type,
          size: row.size,
          created_by: row.created_by,
          created_at: row.created_at,
        });
        // The chosen version's row goes first: its stored name is unique and moves to the file.
        await trx.deleteFrom('files').where('id', '=', versionId).execute();
        await trx.updateTable('files').set(content(version)).where('id', '=', file.id).execute();
        await trx
          .insertInto('files')
          .values({ entity: VERSION_OWNER, owner_id: file.id, field: 'version', ...content(current) })
          .execute();
        await writeAudit(trx, {
          employeeId: request.user.id,
          entity: file.entity,
          entityId: file.owner_id,
          action: 'fileVersionRestore',
          before: { fileId: file.id, name: current.original_name },
          after: { fileId: file.id, name: version.original_name },
          ip: request.ip,
        });
        return String(version.stored_name);
      });
      await queueText(app, file.id, restored);
      return { data: { items: await versionsOf(app, file) } };
    },
  });
}

/** Who reads an earlier version (`GET /api/files/:id` of a version): whoever reads the file. */
export function installVersionAccess(app: FastifyInstance): void {
  app.fileAccess.set(VERSION_OWNER, async (user, version) => {
    const file = await fileRow(app, version.owner_id);
    return file !== undefined && file.entity !== VERSION_OWNER && mayReadFile(app.fileAccess, user, file);
  });
}
