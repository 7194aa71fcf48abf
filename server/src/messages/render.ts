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

const TAG = /\{([A-Za-z][A-Za-z0-9_.]*)\}/g;

/** The tags of a template's text that neither the event's record nor the message offers. */
export function unknownTags(event: MessageEvent, ...texts: (string | null | undefined)[]): string[] {
  const known = new Set<string>([
    ...catalogue(EVENT_RECORDS[event])
      .filter((f) => f.kind === 'value' && f.loop === null)
      .map((f) => f.tag),
    ...MESSAGE_TAGS,
    ...(EVENT_TAGS[event] ?? []),
  ]);
  const unknown = new Set<string>();
  for (const text of texts)
    for (const [, tag] of (text ?? '').matchAll(TAG)) if (!known.has(tag!)) unknown.add(tag!);
  return [...unknown];
}

function valueOf(tag: string, data: Record<string, unknown>): string {
  let value: unknown = data;
  for (const part of tag.split('.')) {
    if (value === null || typeof value !== 'object') return '';
    value = (value as Record<string, unknown>)[part];
  }
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** A template's text with each `{a.b.c}` replaced by its value in `data` (empty when it has none). */
export function renderText(template: string, data: Record<string, unknown>): string {
  return template.replace(TAG, (_, tag: string) => valueOf(tag, data));
}

/** The tags of a template's texts that have no value in `data` (rendered empty). */
export function emptyTags(data: Record<string, unknown>, ...texts: (string | null | undefined)[]): string[] {
  const empty = new Set<string>();
  for (const text of texts)
    for (const [, tag] of (text ?? '').matchAll(TAG)) if (!valueOf(tag!, data).trim()) empty.add(tag!);
  return [...empty];
}
