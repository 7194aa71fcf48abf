import type { DocumentRecordKind, MessageEvent } from '@mizan/contracts';
import { catalogue } from '../documents/fields';

/**
 * The record an event's message reads its merge fields from (the document templates' catalogue of
 * that kind): the hearing for hearing events and judgments, the lawsuit for deadlines and shared
 * documents, the client for invoices.
 */
export const EVENT_RECORDS: Record<MessageEvent, DocumentRecordKind> = {
  hearingScheduled: 'session',
  hearingPostponed: 'session',
  judgmentRecorded: 'session',
  deadlineApproaching: 'lawsuit',
  documentShared: 'lawsuit',
  invoiceIssued: 'customer',
};

/** Values every message offers beside the record's: the recipient and the event's own. */
export const MESSAGE_TAGS = ['client.name', 'event.newDate', 'event.reason', 'event.text'] as const;

/**
 * Values only some events offer: an issued invoice's number and its total in its currency, a shared
 * document's title.
 */
export const EVENT_TAGS: Partial<Record<MessageEvent, readonly string[]>> = {
  invoiceIssued: ['event.invoiceNumber', 'event.total'],
  documentShared: ['event.document'],
};

/**
 * A merge field, `{a.b.c}`; and a section's marks, `{#a.b.c}` opening and `{/a.b.c}` closing it:
 * the text between them shows only when the field has a value (the document templates' section, so
 * that an optional field takes its words with it: `{#session.lawsuit.court} before
 * {session.lawsuit.court}{/session.lawsuit.court}`). Sections may hold others.
 */
const TAG = /\{([A-Za-z][A-Za-z0-9_.]*)\}/g;
const SECTION_MARK = /\{([#/])([A-Za-z][A-Za-z0-9_.]*)\}/g;
/** A section that holds no other: its field and its text. */
const INNER_SECTION = /\{#([A-Za-z][A-Za-z0-9_.]*)\}((?:(?!\{[#/][A-Za-z])[\s\S])*?)\{\/\1\}/g;

/**
 * The tags of a template's text, its sections' included, that neither the event's record nor the
 * message offers.
 */
export function unknownTags(event: MessageEvent, ...texts: (string | null | undefined)[]): string[] {
  const known = new Set<string>([
    ...catalogue(EVENT_RECORDS[event])
      .filter((f) => f.kind === 'value' && f.loop === null)
      .map((f) => f.tag),
    ...MESSAGE_TAGS,
    ...(EVENT_TAGS[event] ?? []),
  ]);
  const unknown = new Set<string>();
  for (const text of texts) {
    const tags = [...(text ?? '').matchAll(TAG)].map(([, tag]) => tag!);
    const sections = [...(text ?? '').matchAll(SECTION_MARK)].map(([, , tag]) => tag!);
    for (const tag of [...tags, ...sections]) if (!known.has(tag)) unknown.add(tag);
  }
  return [...unknown];
}

/**
 * The fields of a template's sections that are not closed in order: opened and never closed, or
 * closed without being open (or inside another section that closes first).
 */
export function unclosedSections(...texts: (string | null | undefined)[]): string[] {
  const unclosed = new Set<string>();
  for (const text of texts) {
    const open: string[] = [];
    for (const [, mark, tag] of (text ?? '').matchAll(SECTION_MARK)) {
      if (mark === '#') open.push(tag!);
      else if (open.at(-1) === tag) open.pop();
      else unclosed.add(tag!);
    }
    for (const tag of open) unclosed.add(tag);
  }
  return [...unclosed];
}

function valueOf(tag: string, data: Record<string, unknown>): string {
  let value: unknown = data;
  for (const part of tag.split('.')) {
    if (value === null || typeof value !== 'object') return '';
    value = (value as Record<string, unknown>)[part];
  }
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

const filled = (tag: string, data: Record<string, unknown>) => valueOf(tag, data).trim() !== '';

/**
 * The text with each section's marks dropped when its field has a value in `data`, and the whole
 * section when it has none (innermost first, so a section inside a dropped one goes with it).
 */
function withSections(template: string, data: Record<string, unknown>): string {
  let text = template;
  for (let previous = ''; text !== previous;) {
    previous = text;
    text = text.replace(INNER_SECTION, (_, tag: string, inner: string) => (filled(tag, data) ? inner : ''));
  }
  return text;
}

/**
 * A template's text with its sections kept or dropped by `data` and each `{a.b.c}` replaced by its
 * value (empty when it has none).
 */
export function renderText(template: string, data: Record<string, unknown>): string {
  return withSections(template, data).replace(TAG, (_, tag: string) => valueOf(tag, data));
}

/**
 * The tags of a template's texts that have no value in `data` (rendered empty), outside the
 * sections `data` drops.
 */
export function emptyTags(data: Record<string, unknown>, ...texts: (string | null | undefined)[]): string[] {
  const empty = new Set<string>();
  for (const text of texts)
    for (const [, tag] of withSections(text ?? '', data).matchAll(TAG))
      if (!filled(tag!, data)) empty.add(tag!);
  return [...empty];
}
