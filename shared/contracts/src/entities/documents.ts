import { defineEntity } from '../entity';

/** The DOCX type, the one a template is written in (Word or LibreOffice). */
export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
/**
 * Largest template file: 5 MB, below the office's upload limit whatever it is. A template is read
 * whole in memory and unpacked to check its tags on every upload and every generation, so its
 * bound is about that work, not about storage (a letterhead with a logo is well under).
 */
export const TEMPLATE_FILE_MAX_SIZE = 5 * 1024 * 1024;
/**
 * Largest sum of the uncompressed sizes of a template's parts: 50 MB. A DOCX is a ZIP; one that
 * declares more is refused (413) before anything is unpacked, and one that lies about its sizes is
 * refused once the bytes really inflated pass the limit (a "zip bomb"; inflation stops there).
 */
export const TEMPLATE_UNPACKED_MAX_SIZE = 50 * 1024 * 1024;

/** What a template is for. */
export const DOCUMENT_TEMPLATE_KINDS = [
  'memo',
  'procurationRequest',
  'clientLetter',
  'receipt',
  'invoice',
  'other',
] as const;
export type DocumentTemplateKind = (typeof DOCUMENT_TEMPLATE_KINDS)[number];

/**
 * The kinds of record a template fills from, by the names the field catalogue takes
 * (`?record=lawsuit`), each with the entity it reads.
 */
export const DOCUMENT_RECORDS = {
  lawsuit: 'lawsuits',
  customer: 'customers',
  procuration: 'procurations',
  session: 'sessions',
  invoice: 'invoices',
} as const;
export type DocumentRecordKind = keyof typeof DOCUMENT_RECORDS;
export const DOCUMENT_RECORD_KINDS = Object.keys(DOCUMENT_RECORDS) as DocumentRecordKind[];

/** The languages a template is written in: its dates, digits and amounts in words follow it. */
export const DOCUMENT_LANGUAGES = ['ar', 'en'] as const;

/**
 * The office's document templates: a `.docx` with merge fields (`{lawsuit.number}`), loops
 * (`{#hearings}…{/hearings}`) and conditions (`{#lawsuit.claimAmount}…{/lawsuit.claimAmount}`),
 * filled from one record of its kind (`record`). The file is checked on upload (a DOCX without
 * macros, within `TEMPLATE_UNPACKED_MAX_SIZE` unpacked, every tag well formed and in the field
 * catalogue: 415, 413 or 422 naming the tag otherwise). A fresh office starts with Arabic starter
 * templates (the documents module).
 */
export const documentTemplates = defineEntity({
  name: 'documentTemplates',
  path: '/admin/documents/templates',
  remote: 'settings',
  menu: { group: 'systemSettings', order: 6 },
  fileDeletePath: '/files/:fileId',
  fields: {
    name: { type: 'string', required: true, unique: true, max: 150, search: true, sort: true },
    kind: { type: 'enum', values: DOCUMENT_TEMPLATE_KINDS, required: true, default: 'other', filter: true },
    language: { type: 'enum', values: DOCUMENT_LANGUAGES, required: true, default: 'ar', filter: true },
    record: {
      type: 'enum',
      values: [
        'lawsuit',
        'customer',
        'procuration',
        'session',
        'invoice',
      ] as const satisfies readonly DocumentRecordKind[],
      required: true,
      default: 'lawsuit',
      filter: true,
    },
    file: { type: 'files', accept: [DOCX_TYPE], maxSize: TEMPLATE_FILE_MAX_SIZE, maxCount: 1, list: false },
    description: { type: 'text', max: 1000, list: false },
  },
});
