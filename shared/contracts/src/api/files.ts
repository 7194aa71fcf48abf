import { z } from 'zod';
import { answer, route, fullRoute } from '../route';
import { LIGHT_FILE_ROUTES } from '../lightRoutes';
import { globalSearchHit, type GlobalSearchHit } from './search';

/** `?download=1` sends the file as an attachment even when a browser could show it. */
export const fileDownloadQuery = z
  .object({ download: z.enum(['0', '1'], { error: 'validation.enum' }).optional() })
  .strip();

export const FILE_ROUTES = {
  download: fullRoute(LIGHT_FILE_ROUTES.download, {
    summary: 'Download a stored file (?download=1 for an attachment)',
    query: fileDownloadQuery,
  }),
};

/**
 * Where a file's text stands: `queued` (waiting or being read: see `progress`), `extracted` (from
 * the file's own text), `ocr` (some page read by OCR: see `confidence`), `failed` (`error` says
 * why; the file itself is kept), `unavailable` (a page needs OCR and tesseract is not installed
 * here), `none` (a type without text, such as a Word 97 file).
 */
export const FILE_TEXT_STATES = ['queued', 'extracted', 'ocr', 'failed', 'unavailable', 'none'] as const;
export type FileTextState = (typeof FILE_TEXT_STATES)[number];

const idText = z.coerce
  .number({ error: 'validation.types.integer' })
  .int({ error: 'validation.types.integer' })
  .positive({ error: 'validation.types.integer' });

/** `GET /api/files/text?entity=&id=&fileId=`: the file `fileId` of row `id` of `entity`. */
export const fileTextQuery = z.object({
  entity: z
    .string()
    .trim()
    .min(1, { error: 'validation.required' })
    .max(100, { error: 'validation.string.max' }),
  id: idText,
  fileId: idText,
});
export type FileTextQuery = z.infer<typeof fileTextQuery>;

export const fileTextPage = z.object({ page: z.number().int(), text: z.string() });
export type FileTextPage = z.infer<typeof fileTextPage>;

export const fileTextResult = z.object({
  state: z.enum(FILE_TEXT_STATES),
  /** Mean word confidence of the OCR'd pages, 0-100; null when no page was OCR'd. */
  confidence: z.number().nullable(),
  /** Why the text could not be read (`failed`, `unavailable`), in English from the tools. */
  error: z.string().nullable(),
  /** Pages read so far of those to read (a long scan shows its progress). */
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  pages: z.array(fileTextPage),
});
export type FileTextResult = z.infer<typeof fileTextResult>;

/** The text state of each file of a list, by file id (`GET /api/files/text/states?ids=1,2`). */
export const fileTextStatesQuery = z.object({
  ids: z
    .string()
    .trim()
    .regex(/^\d+(,\d+){0,199}$/, { error: 'validation.pattern.mismatch' }),
});
export const fileTextStatus = fileTextResult.omit({ pages: true }).extend({ fileId: z.number().int() });
export type FileTextStatus = z.infer<typeof fileTextStatus>;
export const fileTextStatesResult = z.object({ items: z.array(fileTextStatus) });
export type FileTextStatesResult = z.infer<typeof fileTextStatesResult>;

/** `GET /api/files/:id/versions`: the current version first, then the earlier ones, latest first. */
export const fileVersion = z.object({
  /** The stored file to download (`GET /api/files/:id`): the file's own id for the current one. */
  id: z.number().int(),
  current: z.boolean(),
  originalName: z.string(),
  mimeType: z.string(),
  size: z.number().int(),
  /** Who uploaded this version, and when. */
  createdBy: z.number().int().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
});
export type FileVersion = z.infer<typeof fileVersion>;
export const fileVersionsResult = z.object({ items: z.array(fileVersion) });
export type FileVersionsResult = z.infer<typeof fileVersionsResult>;

/** `GET /api/files/text/search?q=&entity=attachments&ownerIds=1,2`: a list's files found by their content. */
export const fileContentSearchQuery = z.object({
  q: z.string().trim().min(1, { error: 'validation.required' }).max(200, { error: 'validation.string.max' }),
  entity: z
    .string()
    .trim()
    .min(1, { error: 'validation.required' })
    .max(100, { error: 'validation.string.max' }),
  /** Only the files of these rows (`1,2,3`), such as one lawsuit's attachments. */
  ownerIds: z
    .string()
    .trim()
    .regex(/^\d+(,\d+){0,499}$/, { error: 'validation.pattern.mismatch' })
    .optional(),
});
export type FileContentSearchQuery = z.input<typeof fileContentSearchQuery>;
/**
 * Files found by their content are counted up to this many: past it the answer says "more than
 * 200" (`totalCapped`) rather than read every match. Each page counted is read on PostgreSQL (its
 * text checked), so the bound is what keeps a common word fast there (docs/performance.md, search
 * inside files' text).
 */
export const FILE_SEARCH_COUNT_BOUND = 200;

/**
 * The files found (each hit's `file` says the page and the words around what was found), newest
 * pages first. `total`: how many files match, those found refused to the reader left out; when
 * `totalCapped`, more than `total` (`FILE_SEARCH_COUNT_BOUND`) match and the count stopped there.
 */
export const fileContentSearchResult = z.object({
  total: z.number().int(),
  totalCapped: z.boolean(),
  items: z.array(globalSearchHit),
});
export interface FileContentSearchResult {
  total: number;
  totalCapped: boolean;
  items: GlobalSearchHit[];
}

/**
 * The text of stored files (extracted after upload by a background job: DOCX and XLSX from their
 * XML, text PDFs with pdftotext, images and scanned pages by OCR), per page, and their versions,
 * under `/api/files`. Reading needs what downloading
 * the file needs (any signed-in employee; the file's owner decides); a new version or a restored
 * one, also the `update` permission of the row the file belongs to.
 */
export const FILE_TEXT_ROUTES = {
  text: route({
    method: 'GET',
    path: '/files/text',
    permission: null,
    summary: "A file's text, page by page, and where its reading stands",
    query: fileTextQuery,
    response: fileTextResult,
    answer: answer<FileTextResult>(),
  }),
  states: route({
    method: 'GET',
    path: '/files/text/states',
    permission: null,
    summary: 'The text state of several files (those the reader may read)',
    query: fileTextStatesQuery,
    response: fileTextStatesResult,
    answer: answer<FileTextStatesResult>(),
  }),
  search: route({
    method: 'GET',
    path: '/files/text/search',
    permission: null,
    summary: 'Files of one list found by their content (snippet and page), those the reader may read',
    query: fileContentSearchQuery,
    response: fileContentSearchResult,
    answer: answer<FileContentSearchResult>(),
  }),
  versions: route({
    method: 'GET',
    path: '/files/:id/versions',
    permission: null,
    summary: 'The versions of a file, current first (each downloads at /api/files/:versionId)',
    response: fileVersionsResult,
    answer: answer<FileVersionsResult>(),
  }),
  upload: route({
    method: 'POST',
    path: '/files/:id/versions',
    permission: null,
    summary: 'Upload a new version of a file (multipart `file`); earlier ones are kept (201)',
    multipart: { parts: { file: 'file' }, required: ['file'] },
    response: fileVersionsResult,
    answer: answer<FileVersionsResult>(),
  }),
  restore: route({
    method: 'POST',
    path: '/files/:id/versions/:versionId/restore',
    permission: null,
    summary: 'Make an earlier version of a file current again (the current one is kept as a version)',
    response: fileVersionsResult,
    answer: answer<FileVersionsResult>(),
  }),
};
