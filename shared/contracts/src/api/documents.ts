import { z } from 'zod';
import {
  DOCUMENT_RECORDS,
  DOCUMENT_RECORD_KINDS,
  documentTemplates,
  type DocumentRecordKind,
} from '../entities/documents';
import { permissionKey } from '../permissions';
import { answer, route } from '../route';
import { normalizeDigits } from '../text';

const recordKind = z.enum(DOCUMENT_RECORD_KINDS as [DocumentRecordKind, ...DocumentRecordKind[]], {
  error: (i) => (i.input === undefined ? 'validation.required' : 'validation.enum'),
});

/** `?record=lawsuit|customer|procuration|session`. */
export const documentFieldsQuery = z.object({ record: recordKind }).strip();

/**
 * One merge field: its tag as written in the template (`{lawsuit.court.name}`), or a loop
 * (`{#sessions}…{/sessions}`, `kind: 'loop'`) whose fields are listed after it with `loop` set
 * to its tag (written bare inside it: `{date}`), or an image (`kind: 'image'`, written
 * `{%office.logo}` or `{%invoice.qr}`, drawn where the tag stands; left empty when the record has
 * none). Labels in both languages and an example value
 * in the template's language.
 */
export const documentField = z.object({
  tag: z.string(),
  kind: z.enum(['value', 'loop', 'image']),
  loop: z.string().nullable(),
  label: z.object({ ar: z.string(), en: z.string() }),
  example: z.object({ ar: z.string(), en: z.string() }),
});
export type DocumentField = z.infer<typeof documentField>;
export const documentFields = z.array(documentField);

const positiveId = z.preprocess(
  (v) => (typeof v === 'string' ? Number(normalizeDigits(v)) : v),
  z
    .int({ error: (i) => (i.input == null ? 'validation.required' : 'validation.types.integer') })
    .positive({ error: 'validation.types.integer' }),
);

/**
 * A record a document is filled from: its entity by name (`lawsuits`) or by its record kind
 * (`lawsuit`), and its id.
 */
export const documentRecordRef = z
  .object({
    entity: z
      .string({ error: 'validation.required' })
      .transform((v) => (v in DOCUMENT_RECORDS ? DOCUMENT_RECORDS[v as DocumentRecordKind] : v))
      .pipe(z.enum(Object.values(DOCUMENT_RECORDS) as [string, ...string[]], { error: 'validation.enum' })),
    id: positiveId,
  })
  .strip();

export const DOCUMENT_FORMATS = ['docx', 'pdf'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];
const format = z.enum(DOCUMENT_FORMATS, { error: 'validation.enum' }).default('docx');

/** Most records one archive is generated for. */
export const DOCUMENT_BATCH_MAX = 200;

export const generateDocumentBody = z
  .object({ templateId: positiveId, record: documentRecordRef, format })
  .strip();
export type GenerateDocumentBody = z.input<typeof generateDocumentBody>;

export const documentPreviewBody = z.object({ templateId: positiveId, record: documentRecordRef }).strip();
export type DocumentPreviewBody = z.input<typeof documentPreviewBody>;

export const generateBatchBody = z
  .object({
    templateId: positiveId,
    records: z
      .array(documentRecordRef, { error: 'validation.types.array' })
      .min(1, { error: 'validation.array.min' })
      .max(DOCUMENT_BATCH_MAX, { error: 'validation.array.max' }),
    format,
  })
  .strip();
export type GenerateBatchBody = z.input<typeof generateBatchBody>;

/** A generated document as stored: a file of the record (or of its attachment), with its download URL. */
export const generatedDocument = z.object({
  attachment: z.object({
    /** The row the file belongs to: `attachments` for a lawsuit's or a hearing's, else the record itself. */
    entity: z.string(),
    id: z.number(),
    fileId: z.number(),
    name: z.string(),
    mimeType: z.string(),
    size: z.number(),
  }),
  /** `GET` returns the file (add `?download=1` to save it). */
  url: z.string(),
  /** Merge fields the template uses that the record has no value for: left empty in the document. */
  missing: z.array(z.string()),
});
export type GeneratedDocument = z.infer<typeof generatedDocument>;

/** What the server can produce: PDF needs LibreOffice (`reason` says how to install it). */
export const documentTools = z.object({ pdf: z.boolean(), reason: z.string().nullable() });
export type DocumentTools = z.infer<typeof documentTools>;

const templatesView = permissionKey(documentTemplates.name, 'view');

/**
 * The document routes of templates beyond their CRUD, under `/api`. `preview` answers a PDF's bytes (`X-Missing-Fields`:
 * the merge fields left empty, comma-separated and URI-encoded) and `batch` a ZIP archive (with
 * `missing-fields.json` in it when a field was left empty), not a `{ data }` body: a caller asks
 * for them with `responseType: 'blob'`.
 */
export const DOCUMENT_ROUTES = {
  fields: route({
    method: 'GET',
    path: '/admin/documents/fields',
    permission: templatesView,
    summary: 'The merge fields a template of a record kind may use, with labels and examples',
    query: documentFieldsQuery,
    response: documentFields,
    answer: answer<readonly DocumentField[]>(),
  }),
  tools: route({
    method: 'GET',
    path: '/admin/documents/tools',
    permission: templatesView,
    summary: 'Whether this server makes PDF documents (LibreOffice installed), and why not',
    response: documentTools,
    answer: answer<DocumentTools>(),
  }),
  generate: route({
    method: 'POST',
    path: '/admin/documents/generate',
    permission: templatesView,
    summary: 'A document from a template and a record, stored as a file of the record (201)',
    body: generateDocumentBody,
    response: generatedDocument,
    answer: answer<GeneratedDocument>(),
  }),
  preview: route({
    method: 'POST',
    path: '/admin/documents/generate/preview',
    permission: templatesView,
    summary: 'A document as PDF to look at, stored nowhere (503 without LibreOffice)',
    body: documentPreviewBody,
  }),
  batch: route({
    method: 'POST',
    path: '/admin/documents/generate/batch',
    permission: templatesView,
    summary: 'One document per record, each stored, all in one ZIP archive',
    body: generateBatchBody,
  }),
};
