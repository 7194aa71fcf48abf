import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  importRoutes,
  registry,
  uploadLimitBytes,
  type Entity,
  type Fields,
  type ImportPreview,
  type ImportResult,
} from '@mizan/contracts';
import { actorOf } from '../engine/context';
import type { EntityService } from '../engine/service';
import { AppError } from '../http/errors';
import { partBuffer, readParts } from '../files/multipart';
import { defineRoute } from '../http/route';
import { readUploadLimitMb } from '../settings/repository';
import { requestLanguage, translate, type Lang } from '../http/messages';
import { listSeparator } from './mapping';
import { IMPORT_LIMITS, ImportFileError, parseImportFile, type ParsedSheet } from './parse';
import { commitImport, ImportRejected, previewImport, rejectedRows } from './service';
import { csvTemplate, templateHeaders, xlsxTemplate } from './template';

export { IMPORT_LIMITS } from './parse';
export type { ImportPreview, ImportResult, ImportRowError, DuplicateRow } from './service';

const MB = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

const tooLarge = (maxBytes: number) =>
  new AppError('payloadTooLarge', {
    messageKey: 'import.tooLarge',
    params: { max: MB(maxBytes) },
  });

/**
 * The `file` part of a multipart body, in memory; other parts are drained. At most the office's
 * upload limit, and at most `maxFileBytes` whatever that is: an import is parsed whole in memory.
 */
async function readUpload(
  request: FastifyRequest,
): Promise<{ buffer: Buffer; filename: string; mimetype: string }> {
  const maxBytes = uploadLimitBytes(await readUploadLimitMb(request.server.db), IMPORT_LIMITS.maxFileBytes);
  let upload: { buffer: Buffer; filename: string; mimetype: string } | null = null;
  let oversized = false;
  try {
    await readParts(
      request,
      async (part) => {
        if (part.type !== 'file') return;
        if (part.fieldname !== 'file' || upload || oversized) return void part.file.resume();
        const { buffer, tooLarge } = await partBuffer(part, maxBytes);
        if (tooLarge) oversized = true;
        else upload = { buffer, filename: part.filename ?? '', mimetype: part.mimetype ?? '' };
      },
      new AppError('unsupportedMediaType', { messageKey: 'import.unsupported' }),
    );
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
    throw error;
  }
  if (oversized) throw tooLarge(maxBytes);
  if (!upload) {
    throw new AppError('validation', {
      messageKey: 'import.noFile',
      errors: { file: [{ key: 'import.noFile' }] },
    });
  }
  return upload;
}

/** Parses the upload, turning each kind of unusable file into its status and message. */
async function readSheet(request: FastifyRequest, entity: Entity<Fields>, lang: Lang): Promise<ParsedSheet> {
  const { buffer, filename, mimetype } = await readUpload(request);
  try {
    return await parseImportFile(buffer, filename, mimetype);
  } catch (error) {
    if (!(error instanceof ImportFileError)) throw error;
    const fileError = (key: string, params?: Record<string, string | number>) => ({
      errors: { file: [translate(lang, key, params)] },
      messageKey: key,
      params,
    });
    switch (error.kind) {
      case 'unsupported':
        throw new AppError('unsupportedMediaType', { messageKey: 'import.unsupported' });
      case 'unreadable':
        throw new AppError('unsupportedMediaType', { messageKey: 'import.unreadable' });
      case 'tooManyRows':
        throw new AppError('payloadTooLarge', {
          messageKey: 'import.tooManyRows',
          params: { max: IMPORT_LIMITS.maxRows, count: IMPORT_LIMITS.maxRows },
        });
      case 'empty':
        throw new AppError('validation', fileError('import.empty'));
      case 'noRows':
        throw new AppError('validation', fileError('import.noRows'));
      case 'headerless':
        throw new AppError(
          'validation',
          fileError('import.headerless', {
            columns: templateHeaders(entity, lang).join(listSeparator(lang)),
          }),
        );
    }
  }
}

function routesFor(app: FastifyInstance, service: EntityService): void {
  const entity = service.entity;
  const routes = importRoutes(entity);

  /**
   * `POST <path>/import` (multipart `file`): `?dryRun=1` answers the preview (the commit's own
   * run, the entity's hooks included, rolled back); otherwise the whole file is written in one
   * transaction or, when any row is invalid, nothing (422 with the rows). The request is
   * synchronous: the client shows the upload's progress, then waits for the answer (50,000 rows
   * take seconds, not minutes).
   */
  defineRoute(app, routes.upload, {
    tags: ['import'],
    handler: async (request, { query }, reply) => {
      const lang = requestLanguage(request);
      const sheet = await readSheet(request, entity, lang);
      if (query.dryRun === '1' || query.dryRun === 'true') {
        const preview: ImportPreview = await previewImport(
          app.entities,
          actorOf(request),
          service,
          sheet,
          lang,
        );
        return { data: preview };
      }
      try {
        const result: ImportResult = await app.entities.transaction(actorOf(request), (ctx) =>
          commitImport(ctx, service, sheet, lang),
        );
        return reply.status(result.created ? 201 : 200).send({ data: result });
      } catch (error) {
        if (!(error instanceof ImportRejected)) throw error;
        return sendRejected(reply, entity, error, lang);
      }
    },
  });

  /** `GET <path>/import/template?format=csv|xlsx`: the columns to fill, translated. */
  defineRoute(app, routes.template, {
    tags: ['import'],
    handler: async (request, { query }, reply) => {
      const lang = requestLanguage(request);
      const { format } = query;
      const name = `${entity.name}-template.${format}`;
      void reply
        .header('content-disposition', `attachment; filename="${name}"`)
        .header(
          'content-type',
          format === 'csv'
            ? 'text/csv; charset=utf-8'
            : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        );
      return reply.send(format === 'csv' ? csvTemplate(entity, lang) : await xlsxTemplate(entity, lang));
    },
  });
}

/** 422 listing every invalid row; the top message says nothing was written. */
function sendRejected(reply: FastifyReply, entity: Entity<Fields>, error: ImportRejected, lang: Lang) {
  const rejected = rejectedRows(error.prepared.errors, entity, lang);
  const prefix = (row: number) => translate(lang, 'import.rowPrefix', { row });
  return reply.status(422).send({
    message: translate(lang, 'import.invalidRows', { count: rejected.length }),
    code: 'validation',
    errors: { rows: rejected.slice(0, 100).map((r) => `${prefix(r.row)}: ${r.reasons.join('؛ ')}`) },
    rejected,
    rowErrors: error.prepared.errors,
  });
}

/**
 * `POST /api/<path>/import` and `GET /api/<path>/import/template` for every definition with
 * `importable: true`. Register at the root (no prefix): the paths are absolute.
 */
export const importPlugin: FastifyPluginAsync = async (app) => {
  for (const entity of registry as readonly Entity<Fields>[]) {
    if (entity.importable) routesFor(app, app.entities.get(entity.name));
  }
};
