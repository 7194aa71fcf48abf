import { defineEntity } from '../entity';

/**
 * What the office tells its clients about: hearings and judgments (their hooks), an invoice issued
 * (`{event.invoiceNumber}`, `{event.total}`), a deadline falling due (the deadlines module's morning
 * job), a document shared (staff share a lawsuit's attachment, `MESSAGE_ROUTES.share`:
 * `{event.document}` is its title; the files go attached by email and as WhatsApp documents, an SMS
 * carries the text only).
 */
export const MESSAGE_EVENTS = [
  'hearingScheduled',
  'hearingPostponed',
  'judgmentRecorded',
  'deadlineApproaching',
  'documentShared',
  'invoiceIssued',
] as const;
export type MessageEvent = (typeof MESSAGE_EVENTS)[number];

/** How a message reaches a client. */
export const MESSAGE_CHANNELS = ['email', 'sms', 'whatsapp'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** The languages a client reads, and a template is written in. */
export const MESSAGE_LANGUAGES = ['ar', 'en'] as const;
export type MessageLanguage = (typeof MESSAGE_LANGUAGES)[number];

/**
 * The text a client receives for an event, one per event and language (the first one by id is
 * used when there are several). `body` (and `subject`, for email) hold merge fields in braces, the
 * same catalogue as document templates (`GET /api/admin/documents/fields?record=session`):
 * `{session.date}`, `{session.lawsuit.fileNumber}`, `{office.name}`; the event's extra values are
 * `{event.reason}` and `{event.newDate}` (a deadline's due date), and an issued invoice's
 * `{event.invoiceNumber}` and `{event.total}`, a shared document's `{event.document}` (say in its SMS
 * text that the document itself comes by email or WhatsApp). A section, `{#field}…{/field}` as in a
 * document template, shows its text only when the field has a value, so that words about a field
 * the record may leave blank go with it (`{#session.lawsuit.court} before
 * {session.lawsuit.court}{/session.lawsuit.court}`); one not closed in order is refused (422). A
 * WhatsApp message is sent as the approved template named in `whatsappTemplate` (in the language of
 * this row), the rendered body its one parameter.
 * A new office starts with one per event and language, without a WhatsApp template name
 * (`server/src/messages/defaults.ts`, filed once: those it edits or deletes stay so).
 */
export const messageTemplates = defineEntity({
  name: 'messageTemplates',
  path: '/admin/settings/messageTemplates',
  remote: 'settings',
  menu: { group: 'systemSettings', order: 7 },
  fields: {
    name: { type: 'string', required: true, unique: true, max: 150, search: true, sort: true },
    event: {
      type: 'enum',
      values: MESSAGE_EVENTS,
      required: true,
      default: 'hearingScheduled',
      filter: true,
    },
    language: { type: 'enum', values: MESSAGE_LANGUAGES, required: true, default: 'ar', filter: true },
    subject: { type: 'string', max: 200, list: false },
    body: { type: 'text', required: true, max: 1000, search: true },
    whatsappTemplate: { type: 'string', max: 100, code: true, list: false },
  },
});
