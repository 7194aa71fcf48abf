import {
  API_BASE,
  DOCUMENT_RECORDS,
  DOCUMENT_ROUTES,
  DOCX_TYPE,
  attachmentGroups,
  attachments,
  documentTemplates,
  permissionKey,
  type DocumentFormat,
  type DocumentRecordKind,
  type GeneratedDocument,
  type StoredFile,
  FILE_ROUTES,
  pathOf,
} from '@mizan/contracts';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeAudit } from '../audit/audit';
import { actorOf, type ActorContext } from '../engine/context';
import { neverWritten } from '../engine/seeding';
import { officeToday } from '../engine/today';
import type { SavedUpload } from '../files/storage';
import { AppError } from '../http/errors';
import { requestLanguage, translate, type Lang } from '../http/messages';
import { defineRoute } from '../http/route';
import { readSettings } from '../settings/repository';
import { ToolMissingError, findTool, runTool, TOOLS } from '../tools';
import { catalogue, recordData } from './fields';

/**
 * Documents generated from the office's templates (`documentTemplates`, a settings list): the
 * field catalogue, the upload check of a template, one document from a template and a record
 * (DOCX, or PDF through LibreOffice), many at once into one ZIP, and the starter templates a new
 * office begins with. A generated document is stored as a file of its record: an attachment in
 * the group "generated documents" for a lawsuit or a hearing, a file of the row otherwise.
 */

/** The attachment group generated documents are filed under (created when first needed). */
export const GENERATED_GROUP = {
  name: 'المستندات المولدة',
  nameEn: 'Generated documents',
  order: 5,
} as const;
/** How long LibreOffice may take over one document. */
const PDF_TIMEOUT_MS = 120_000;
const PDF_TYPE = 'application/pdf';

const recordKindOf = (entity: string) =>
  (Object.entries(DOCUMENT_RECORDS).find(([, name]) => name === entity)?.[0] ??
    null) as DocumentRecordKind | null;

/** A stored file's bytes by its row id. */
async function storedBytes(app: FastifyInstance, fileId: number): Promise<Buffer> {
  const row = await app.db
    .selectFrom('files')
    .select('stored_name')
    .where('id', '=', fileId)
    .executeTakeFirst();
  if (!row) throw new AppError('notFound');
  return uploadBytes(app, String(row.stored_name));
}

async function uploadBytes(app: FastifyInstance, storedName: string): Promise<Buffer> {
  const bytes = await app.fileStore.bytes(storedName);
  if (!bytes) throw new AppError('notFound');
  return bytes;
}

/** Why a PDF cannot be made here, in the request's language; null when it can. */
function pdfUnavailable(lang: Lang): string | null {
  if (findTool('soffice')) return null;
  return translate(lang, 'documents.pdfUnavailable', {
    package: TOOLS.soffice.debian,
    env: TOOLS.soffice.env,
  });
}

/**
 * The DOCX libraries (docxtemplater, pizzip and theirs), loaded with the first template checked or
 * filled: a process that never touches a document does not carry them.
 */
const docx = () => import('./template.js');

/**
 * A DOCX as PDF by LibreOffice, in a folder and a LibreOffice profile of its own (two conversions
 * at once never share a profile, which LibreOffice locks).
 */
export async function docxToPdf(docx: Buffer): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mizan-pdf-'));
  try {
    const input = path.join(dir, 'document.docx');
    await fs.writeFile(input, docx);
    await runTool(
      'soffice',
      [
        `-env:UserInstallation=file://${path.join(dir, 'profile')}`,
        '--headless',
        '--norestore',
        '--convert-to',
        'pdf',
        '--outdir',
        dir,
        input,
      ],
      { timeoutMs: PDF_TIMEOUT_MS, cwd: dir, env: { HOME: dir } },
    );
    return await fs.readFile(path.join(dir, 'document.pdf'));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The "generated documents" attachment group's id, made the first time it is needed. */
async function generatedGroupId(app: FastifyInstance): Promise<number> {
  const find = () =>
    app.db
      .selectFrom(attachmentGroups.table)
      .select('id')
      .where('name', '=', GENERATED_GROUP.name)
      .executeTakeFirst();
  const found = await find();
  if (found) return Number(found.id);
  try {
    return (await app.entities.get(attachmentGroups.name).create({ user: null }, { ...GENERATED_GROUP })).id;
  } catch (error) {
    const meanwhile = await find();
    if (!meanwhile) throw error;
    return Number(meanwhile.id);
  }
}

/** A safe file name from a title (no path separators or control characters). */
const fileName = (title: string, ext: string) => {
  const safe = [...title].map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? ' ' : c)).join('');
  return `${safe.trim().slice(0, 120) || 'document'}.${ext}`;
};

/**
 * Stores a generated document as a file of its record: an attachment (group "generated
 * documents") of a lawsuit or of a hearing's lawsuit, a file of a power of attorney, or a file
 * of a client's own (`field: 'generated'`); each audited.
 */
async function storeGenerated(
  app: FastifyInstance,
  actor: ActorContext,
  entity: string,
  record: Record<string, unknown> & { id: number },
  title: string,
  name: string,
  mimeType: string,
  content: Buffer,
): Promise<GeneratedDocument['attachment']> {
  const storedName = await app.fileStore.writeNew(content);
  const upload: SavedUpload = {
    field: 'files',
    storedName,
    originalName: name,
    mimeType,
    size: content.length,
  };
  const fileOf = (files: StoredFile[]) =>
    files.find((f) => f.originalName === name) ?? files[files.length - 1]!;
  if (entity === 'lawsuits' || entity === 'sessions') {
    const lawsuitId = entity === 'lawsuits' ? record.id : Number(record.lawsuitId);
    const row = await app.entities.get(attachments.name).create(
      actor,
      {
        lawsuitId,
        ...(entity === 'sessions' ? { sessionId: record.id } : {}),
        groupId: await generatedGroupId(app),
        title: title.slice(0, 200),
      },
      [upload],
    );
    const file = fileOf(row.files as StoredFile[]);
    return { entity: attachments.name, id: row.id, fileId: file.id, name, mimeType, size: content.length };
  }
  if (entity === 'procurations') {
    const row = await app.entities.get(entity).patch(actor, record.id, {}, [upload]);
    const file = fileOf(row.files as StoredFile[]);
    return { entity, id: row.id, fileId: file.id, name, mimeType, size: content.length };
  }
  // A client has no files field: the document is filed under the client's row as its own field.
  try {
    const fileId = await app.entities.transaction(actor, async (ctx) => {
      const inserted = await ctx.trx
        .insertInto('files')
        .values({
          entity,
          owner_id: record.id,
          field: 'generated',
          stored_name: storedName,
          original_name: name,
          mime_type: mimeType,
          size: content.length,
          created_by: actor.user?.id ?? null,
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writeAudit(ctx.trx, {
        employeeId: actor.user?.id ?? null,
        entity,
        entityId: record.id,
        action: 'generate',
        before: null,
        after: { file: name, title },
        ip: actor.ip ?? null,
      });
      return Number(inserted.id);
    });
    await app.fileStore.commit(storedName);
    return { entity, id: record.id, fileId, name, mimeType, size: content.length };
  } catch (error) {
    await app.fileStore.remove(storedName);
    throw error;
  }
}

/**
 * One document: the template filled from the record, stored as the record's file (unless
 * `store` is false: a preview), as the route answers it.
 */
async function generate(
  app: FastifyInstance,
  actor: ActorContext,
  lang: Lang,
  input: { templateId: number; record: { entity: string; id: number }; format: DocumentFormat },
  store = true,
): Promise<GeneratedDocument & { content: Buffer }> {
  const template = await app.entities.get(documentTemplates.name).get(input.templateId, actor);
  const kind = recordKindOf(input.record.entity);
  if (!kind || kind !== template.record)
    throw new AppError('validation', {
      errors: {
        record: [
          {
            key: 'documents.wrongRecord',
            params: {
              kind: translate(lang, `entities.documentTemplates.values.record.${String(template.record)}`),
            },
          },
        ],
      },
    });
  if (input.format === 'pdf') {
    const reason = pdfUnavailable(lang);
    if (reason)
      throw new AppError('unavailable', {
        messageKey: 'documents.pdfUnavailableShort',
        errors: { format: [reason] },
      });
  }
  // Generating writes a file of the record: the employee must be allowed to file it there.
  const filing =
    input.record.entity === 'lawsuits' || input.record.entity === 'sessions'
      ? permissionKey(attachments, 'create')
      : permissionKey(input.record.entity, 'update');
  if (store && actor.user && !actor.user.permissions.has(filing)) throw new AppError('forbidden');
  const file = (template.file as StoredFile[])[0];
  if (!file) throw new AppError('validation', { errors: { templateId: [{ key: 'documents.noFile' }] } });
  const settings = await readSettings(app.db);
  const today = officeToday(settings.timeZone, app.clock()).today;
  const record = await app.entities.get(input.record.entity).get(input.record.id, actor);
  const data = await recordData(
    app,
    actor,
    kind,
    record.id,
    settings,
    template.language === 'en' ? 'en' : 'ar',
    today,
  );
  const { fillTemplate } = await docx();
  const filled = fillTemplate(await storedBytes(app, file.id), data);
  const { missing } = filled;
  const content = input.format === 'pdf' ? await docxToPdf(filled.docx) : filled.docx;
  const entity = app.entities.get(input.record.entity).entity;
  const recordTitle = String(record[entity.titleField ?? 'name'] ?? record.id);
  const title = `${String(template.name)} - ${recordTitle}`;
  const mimeType = input.format === 'pdf' ? PDF_TYPE : DOCX_TYPE;
  if (!store) {
    const name = fileName(title, input.format);
    const unsaved = {
      entity: input.record.entity,
      id: record.id,
      fileId: 0,
      name,
      mimeType,
      size: content.length,
    };
    return { attachment: unsaved, url: '', missing, content };
  }
  const attachment = await storeGenerated(
    app,
    actor,
    input.record.entity,
    record,
    title,
    fileName(title, input.format),
    mimeType,
    content,
  );
  return {
    attachment,
    url: `${API_BASE}${pathOf(FILE_ROUTES.download.path, { id: attachment.fileId })}`,
    missing,
    content,
  };
}

/**
 * Files the starter templates (`STARTERS`) into a list nobody has written to yet (no template
 * stored and none ever audited), through the engine like any upload: a new office starts with
 * them once, and templates it deletes stay deleted.
 */
export async function seedStarterTemplates(app: FastifyInstance): Promise<void> {
  if (!(await neverWritten(app.db, documentTemplates))) return;
  const { STARTERS, starterFile } = await import('./starters.js');
  const service = app.entities.get(documentTemplates.name);
  for (const starter of STARTERS) {
    const content = starterFile(starter);
    const storedName = await app.fileStore.writeNew(content);
    const upload: SavedUpload = {
      field: 'file',
      storedName,
      originalName: starter.file,
      mimeType: DOCX_TYPE,
      size: content.length,
    };
    try {
      await service.create(
        { user: null },
        {
          name: starter.name,
          kind: starter.kind,
          language: 'ar',
          record: starter.record,
          description: starter.description,
        },
        [upload],
      );
    } catch (error) {
      // Another instance starting at the same moment seeded it first (unique names).
      if (!(error instanceof AppError) || error.code !== 'unique') throw error;
    }
  }
}

export const documentsPlugin: FastifyPluginAsync = async (app) => {
  app.entities.hooks(documentTemplates.name, {
    async beforeFiles(_ctx, uploads, row) {
      for (const upload of uploads) {
        const kind = row.record as DocumentRecordKind;
        (await docx()).checkTemplate(
          await uploadBytes(app, upload.storedName),
          catalogue(kind),
          upload.field,
        );
      }
    },
    async beforeUpdate(_ctx, values, before) {
      // A template moved to another record kind must still name only that kind's fields (a new
      // file sent with the change is judged by `beforeFiles`).
      if (values.record === undefined || values.record === before.record) return;
      const file = (before.file as StoredFile[])[0];
      if (file)
        (await docx()).checkTemplate(
          await storedBytes(app, file.id),
          catalogue(values.record as DocumentRecordKind),
          'record',
        );
    },
  });

  const tags = [documentTemplates.name];

  defineRoute(app, DOCUMENT_ROUTES.fields, {
    tags,
    handler: async (_request, { query }) => ({ data: catalogue(query.record) }),
  });

  defineRoute(app, DOCUMENT_ROUTES.tools, {
    tags,
    handler: async (request) => {
      const reason = pdfUnavailable(requestLanguage(request));
      return { data: { pdf: reason === null, reason } };
    },
  });

  defineRoute(app, DOCUMENT_ROUTES.generate, {
    tags,
    labels: 'documents.fields',
    handler: async (request, { body }, reply) => {
      const { content, ...data } = await generate(app, actorOf(request), requestLanguage(request), body);
      void content;
      void reply.status(201);
      return { data };
    },
  });

  defineRoute(app, DOCUMENT_ROUTES.preview, {
    tags,
    labels: 'documents.fields',
    handler: async (request, { body }, reply) => {
      const one = await generate(
        app,
        actorOf(request),
        requestLanguage(request),
        { ...body, format: 'pdf' },
        false,
      );
      return reply
        .type(PDF_TYPE)
        .header('content-disposition', 'inline; filename="preview.pdf"')
        .header('x-missing-fields', encodeURIComponent(one.missing.join(',')))
        .send(one.content);
    },
  });

  defineRoute(app, DOCUMENT_ROUTES.batch, {
    tags,
    labels: 'documents.fields',
    handler: async (request, { body }, reply) => {
      const actor = actorOf(request);
      const { default: PizZip } = await import('pizzip');
      const zip = new PizZip();
      const names = new Set<string>();
      const missing: Record<string, string[]> = {};
      for (const record of body.records) {
        const one = await generate(app, actor, requestLanguage(request), {
          templateId: body.templateId,
          record,
          format: body.format,
        });
        let name = one.attachment.name;
        for (let n = 2; names.has(name); n++) name = one.attachment.name.replace(/(\.\w+)$/, ` (${n})$1`);
        names.add(name);
        zip.file(name, one.content);
        if (one.missing.length) missing[name] = one.missing;
      }
      if (Object.keys(missing).length) zip.file('missing-fields.json', JSON.stringify(missing, null, 2));
      const archive = zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' }) as Buffer;
      return reply
        .type('application/zip')
        .header(
          'content-disposition',
          `attachment; filename="documents-${randomBytes(3).toString('hex')}.zip"`,
        )
        .send(archive);
    },
  });

  await seedStarterTemplates(app);
};
// Hooks and routes belong to the app, not an encapsulated child context.
(documentsPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

export { ToolMissingError };
