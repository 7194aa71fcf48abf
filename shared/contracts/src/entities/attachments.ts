import { DOCUMENT_FILE_TYPES, defineEntity } from '../entity';

/** What a lawsuit's attachment may hold: PDF, images, Word (pleadings, memoranda, evidence, judgments). */
export const ATTACHMENT_FILE_TYPES = DOCUMENT_FILE_TYPES;
/** Most files one attachment holds. */
export const ATTACHMENT_FILE_MAX_COUNT = 20;

/**
 * The groups a fresh database starts with, in their order: the kinds of papers a lawsuit's file
 * holds. Stored with both names (`name` Arabic, `nameEn` English); the office may rename, reorder,
 * add or delete them like any row.
 */
export const ATTACHMENT_GROUP_SEEDS: readonly { key: string; name: string; nameEn: string; order: number }[] =
  [
    { key: 'pleadings', name: 'صحف الدعوى', nameEn: 'Statements of claim', order: 1 },
    { key: 'memoranda', name: 'المذكرات', nameEn: 'Memoranda', order: 2 },
    { key: 'evidence', name: 'المستندات والأدلة', nameEn: 'Documents and evidence', order: 3 },
    { key: 'judgments', name: 'الأحكام', nameEn: 'Judgments', order: 4 },
  ];

/**
 * The groups a lawsuit's attachments are filed under (statements of claim, memoranda, evidence,
 * judgments…), in their own `order`. Shown inside the attachments screen, not in the menu; a fresh
 * database starts with `ATTACHMENT_GROUP_SEEDS`.
 */
export const attachmentGroups = defineEntity({
  name: 'attachmentGroups',
  path: '/admin/lawsuits/attachments/groups',
  remote: 'legal',
  menu: false,
  defaultSort: 'order:asc',
  fields: {
    name: { type: 'string', required: true, unique: true, max: 150, search: true, sort: true },
    nameEn: { type: 'string', max: 150, search: true, sort: true },
    order: { type: 'integer', min: 0, max: 10000, sort: true, default: 0 },
  },
});

/**
 * The papers of a lawsuit: each attachment belongs to one lawsuit (set on create), is filed under
 * a group, may concern one hearing of that lawsuit (another lawsuit's hearing is 422 on
 * `sessionId`), and carries a title, notes and several files (`ATTACHMENT_FILE_TYPES`, at most
 * `ATTACHMENT_FILE_MAX_COUNT`, each within the office's upload limit), sent as multipart on create and
 * update; one file is removed with `DELETE /admin/lawsuits/attachments/files/:fileId`, and
 * deleting the attachment removes its files.
 */
export const attachments = defineEntity({
  name: 'attachments',
  path: '/admin/lawsuits/attachments',
  remote: 'legal',
  menu: { group: 'legal', order: 4 },
  titleField: 'title',
  status: false,
  fileDeletePath: '/files/:fileId',
  fields: {
    lawsuitId: { type: 'ref', entity: 'lawsuits', required: true, filter: true, createOnly: true },
    sessionId: { type: 'ref', entity: 'sessions', filter: true },
    groupId: { type: 'ref', entity: 'attachmentGroups', required: true, filter: true },
    title: { type: 'string', required: true, max: 200, search: true, sort: true },
    files: {
      type: 'files',
      accept: ATTACHMENT_FILE_TYPES,
      maxCount: ATTACHMENT_FILE_MAX_COUNT,
      list: false,
    },
    notes: { type: 'text', max: 2000, list: false },
  },
});
