import {
  DOCUMENT_RECORDS,
  attachments,
  messageTemplates,
  toE164,
  type CustomerMessage,
  type MessageChannel,
  type MessageEvent,
  type MessageState,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { writeAudit } from '../audit/audit';
import type { Db } from '../db';
import { dateTexts, moneyText, recordData } from '../documents/fields';
import type { FileRow } from '../files/access';
import type { Trx } from '../engine/context';
import { cols, readRow, selectFields } from '../engine/rows';
import type { ApiRow } from '../engine/serialize';
import { officeToday } from '../engine/today';
import { translate, type Lang } from '../http/messages';
import type { Mailer } from '../mail/mailer';
import { readSettings } from '../settings/repository';
import { ProviderError, providerOf, readProviderConfigs, type OutboundFile } from './providers';
import { EVENT_RECORDS, emptyTags, renderText } from './render';

/** The job that sends one message (payload `{ messageId }`, key `message:<id>`). */
export const SEND_JOB = 'messages.send';
/** The job that turns an event into its messages (payload `EventPayload`, key the event's). */
export const EVENT_JOB = 'messages.event';
/** Tries of a message before it is failed for good: 30 s, 1, 2, 4, 8 min apart (the queue's backoff). */
export const SEND_ATTEMPTS = 6;
/** Rows of one communications tab. */
const LIST_LIMIT = 200;
const AUDIT_ENTITY = 'clientMessages';

export interface EventPayload {
  event: MessageEvent;
  /** The record the event is about, of its kind (`EVENT_RECORDS`). */
  recordId: number;
  /** The clients to tell; omitted: the lawsuit's clients. */
  customerIds?: number[];
  /**
   * `{event.newDate}` (a `YYYY-MM-DD`), `{event.reason}`, `{event.text}`; an invoice's
   * `{event.invoiceNumber}` and `{event.total}` (minor units, written in `currency`).
   */
  extra?: {
    newDate?: string;
    reason?: string;
    text?: string;
    invoiceNumber?: string;
    total?: number;
    currency?: string;
    /** A shared document's title (`{event.document}`). */
    document?: string;
  };
  /** The lawsuit the messages are filed under, for an event about a client (an invoice's). */
  lawsuitId?: number | null;
  /** A shared document: the attachment whose files go with the email and WhatsApp messages. */
  attachmentId?: number;
  /** Who raised it (a staff member sharing a document); null: the office's own event. */
  createdBy?: number | null;
}

interface MessageRow {
  id: number | string;
  customer_id: number | string;
  lawsuit_id: number | string | null;
  event: string | null;
  dedupe_key: string | null;
  channel: string;
  recipient: string;
  language: string;
  subject: string | null;
  body: string;
  whatsapp_template: string | null;
  state: string;
  reason: string | null;
  attempts: number | string;
  provider_id: string | null;
  attachment_id: number | string | null;
  steps: string | null;
  created_by: number | string | null;
  created_at: string | Date;
  updated_at: string | Date;
}
type MessagesDb = Kysely<{ client_messages: MessageRow }>;
const messagesOf = (db: Db | Trx) => db as unknown as MessagesDb;

const iso = (v: string | Date) => (v instanceof Date ? v : new Date(v)).toISOString();
const num = (v: number | string | null) => (v === null ? null : Number(v));

export function toMessage(row: MessageRow): CustomerMessage {
  return {
    id: Number(row.id),
    customerId: Number(row.customer_id),
    lawsuitId: num(row.lawsuit_id),
    event: row.event as MessageEvent | null,
    channel: row.channel as MessageChannel,
    to: row.recipient,
    subject: row.subject,
    body: row.body,
    state: row.state as MessageState,
    reason: row.reason,
    attempts: Number(row.attempts),
    providerId: row.provider_id,
    createdBy: num(row.created_by),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** A client's address on a channel: email, mobile for SMS, WhatsApp number (else the mobile). */
export function addressOf(customer: ApiRow, channel: MessageChannel): string | null {
  const value =
    channel === 'email'
      ? customer.email
      : channel === 'sms'
        ? customer.mobile
        : (customer.whatsapp ?? customer.mobile);
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/** The day the client agreed to `channel`, or null: nothing is sent on a channel without it. */
export const optInOf = (customer: ApiRow, channel: MessageChannel): string | null =>
  (customer[`${channel}OptIn`] as string | null | undefined) ?? null;

/** The client's language, Arabic unless they chose English. */
export const languageOf = (customer: ApiRow): Lang => (customer.language === 'en' ? 'en' : 'ar');

/** What a message to queue holds (its recipient as typed: checked and normalised here). */
export interface NewMessage {
  customerId: number;
  lawsuitId: number | null;
  event: MessageEvent | null;
  dedupeKey: string | null;
  channel: MessageChannel;
  to: string;
  language: Lang;
  subject: string | null;
  body: string;
  whatsappTemplate: string | null;
  createdBy: number | null;
  /** A shared document's attachment: its files go with the message (not by SMS). */
  attachmentId?: number | null;
}

/** The recipient in the form its channel sends to, or null when it is not a valid one. */
export function recipientOf(channel: MessageChannel, to: string): string | null {
  if (channel === 'email') return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(to.trim()) ? to.trim() : null;
  return toE164(to);
}

/** A stored file of an attachment, as a message carries it. */
export interface AttachmentFile {
  id: number;
  storedName: string;
  name: string;
  mimeType: string;
  size: number;
}

/** An attachment's files (the `files` field of `attachments`), in the order they were added. */
export async function attachmentFiles(db: Db | Trx, attachmentId: number): Promise<AttachmentFile[]> {
  const rows = await (db as unknown as Kysely<{ files: FileRow }>)
    .selectFrom('files')
    .select(['id', 'stored_name', 'original_name', 'mime_type', 'size'])
    .where('entity', '=', attachments.name)
    .where('owner_id', '=', attachmentId)
    .where('field', '=', 'files')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    storedName: String(r.stored_name),
    name: String(r.original_name),
    mimeType: String(r.mime_type),
    size: Number(r.size),
  }));
}

/** A message's recorded provider steps (`steps` column), or none. */
function parseSteps(text: string | null): Record<string, string> {
  try {
    const value = text ? (JSON.parse(text) as unknown) : null;
    return value && typeof value === 'object' ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The outbound messages: queueing, sending through the job queue, and what the screens read. */
export class Outbox {
  constructor(
    private readonly app: FastifyInstance,
    private readonly mailer: Mailer,
  ) {}

  private now(): string {
    return this.app.clock().toISOString();
  }

  /**
   * Stores a message and queues its sending, in `trx` when given (so it exists only if that write
   * commits). A recipient that is not E.164 (or an email address) is stored failed with the reason;
   * a repeated `dedupeKey` adds nothing. Answers the message, or null when it was a repeat.
   */
  async queue(message: NewMessage, trx?: Trx): Promise<CustomerMessage | null> {
    const db = messagesOf(trx ?? this.app.db);
    const recipient = recipientOf(message.channel, message.to);
    const at = this.now();
    const row = await db
      .insertInto('client_messages')
      .values({
        customer_id: message.customerId,
        lawsuit_id: message.lawsuitId,
        event: message.event,
        dedupe_key: message.dedupeKey,
        channel: message.channel,
        recipient: recipient ?? message.to.slice(0, 150),
        language: message.language,
        subject: message.subject,
        body: message.body,
        whatsapp_template: message.whatsappTemplate,
        state: recipient ? 'queued' : 'failed',
        reason: recipient
          ? null
          : translate(
              message.language,
              `clients.messages.${message.channel === 'email' ? 'badEmail' : 'badPhone'}`,
            ),
        attempts: 0,
        provider_id: null,
        attachment_id: message.channel === 'sms' ? null : (message.attachmentId ?? null),
        steps: null,
        created_by: message.createdBy,
        created_at: at,
        updated_at: at,
      } as never)
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) return null;
    const stored = toMessage(row as MessageRow);
    await writeAudit(trx ?? this.app.db, {
      employeeId: message.createdBy,
      entity: AUDIT_ENTITY,
      entityId: stored.id,
      action: stored.state === 'queued' ? 'queue' : 'fail',
      after: stored,
    });
    if (stored.state === 'queued')
      await this.app.jobs.enqueue(SEND_JOB, { messageId: stored.id }, { key: `message:${stored.id}`, trx });
    return stored;
  }

  /** One message, or null. */
  async get(id: number): Promise<CustomerMessage | null> {
    const row = await messagesOf(this.app.db)
      .selectFrom('client_messages')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toMessage(row as MessageRow) : null;
  }

  /** A client's or a lawsuit's messages, newest first. */
  async list(by: { customerId: number } | { lawsuitId: number }): Promise<CustomerMessage[]> {
    const rows = await messagesOf(this.app.db)
      .selectFrom('client_messages')
      .selectAll()
      .where(
        'customerId' in by ? 'customer_id' : 'lawsuit_id',
        '=',
        'customerId' in by ? by.customerId : by.lawsuitId,
      )
      .orderBy('id', 'desc')
      .limit(LIST_LIMIT)
      .execute();
    return rows.map((r) => toMessage(r as MessageRow));
  }

  /** Moves a message to `state` (and audits it); `where` guards against an older state. */
  async setState(
    id: number,
    set: { state: MessageState; reason?: string | null; providerId?: string; attempts?: number },
    from: readonly MessageState[],
  ): Promise<boolean> {
    const at = this.now();
    return this.app.db.transaction().execute(async (trx) => {
      const updated = await messagesOf(trx)
        .updateTable('client_messages')
        .set({
          state: set.state,
          ...(set.reason !== undefined ? { reason: set.reason } : {}),
          ...(set.providerId !== undefined ? { provider_id: set.providerId } : {}),
          ...(set.attempts !== undefined ? { attempts: set.attempts } : {}),
          updated_at: at,
        } as never)
        .where('id', '=', id)
        .where('state', 'in', [...from])
        .executeTakeFirst();
      const changed = Number(updated.numUpdatedRows) === 1;
      if (changed && set.state !== 'queued')
        await writeAudit(trx, {
          employeeId: null,
          entity: AUDIT_ENTITY,
          entityId: id,
          action: set.state === 'sent' ? 'send' : set.state === 'delivered' ? 'deliver' : 'fail',
          after: { state: set.state, reason: set.reason ?? null, providerId: set.providerId ?? null },
        });
      return changed;
    });
  }

  /**
   * The send job: hands a queued message to its provider. A provider that is down or answers 5xx
   * leaves it queued with the reason (the job retries after its backoff); a refusal, or the last
   * try, fails it with the provider's reason.
   */
  async send(messageId: number, attempt: number): Promise<void> {
    const message = await this.get(messageId);
    if (!message || message.state !== 'queued') return;
    const row = await messagesOf(this.app.db)
      .selectFrom('client_messages')
      .select(['language', 'whatsapp_template', 'attachment_id', 'steps'])
      .where('id', '=', messageId)
      .executeTakeFirstOrThrow();
    const done = parseSteps(row.steps);
    const configs = await readProviderConfigs(this.app.db);
    const provider = providerOf(message.channel, configs, {
      mailer: this.mailer,
      configured: Boolean(this.app.config.smtpUrl),
    });
    try {
      const files = row.attachment_id === null ? undefined : await this.filesOf(Number(row.attachment_id));
      const { providerId } = await provider.send({
        to: message.to,
        subject: message.subject,
        body: message.body,
        language: String(row.language),
        whatsappTemplate: row.whatsapp_template,
        files,
        steps: {
          done,
          record: async (step, id) => {
            done[step] = id;
            await messagesOf(this.app.db)
              .updateTable('client_messages')
              .set({ steps: JSON.stringify(done) } as never)
              .where('id', '=', messageId)
              .execute();
          },
        },
      });
      await this.setState(messageId, { state: 'sent', reason: null, providerId, attempts: attempt }, [
        'queued',
      ]);
    } catch (error) {
      const reason =
        error instanceof ProviderError ? error.reason : String((error as Error)?.message ?? error);
      const retry = (!(error instanceof ProviderError) || error.retryable) && attempt < SEND_ATTEMPTS;
      await this.setState(messageId, { state: retry ? 'queued' : 'failed', reason, attempts: attempt }, [
        'queued',
      ]);
      if (retry) throw error;
    }
  }

  /**
   * The files of a shared attachment, in their order; a refusal (not retried) when it was deleted
   * or emptied before the message went.
   */
  private async filesOf(attachmentId: number): Promise<OutboundFile[]> {
    const rows = await attachmentFiles(this.app.db, attachmentId);
    if (!rows.length) throw new ProviderError('the shared document no longer exists', false);
    const files: OutboundFile[] = [];
    for (const row of rows) {
      const content = await this.app.fileStore.bytes(row.storedName);
      if (!content) throw new ProviderError(`the file ${row.name} is missing from the storage`, true);
      files.push({ name: row.name, mimeType: row.mimeType, content });
    }
    return files;
  }

  /** A provider's report on a message it took (WhatsApp's status webhook). */
  async report(
    channel: MessageChannel,
    providerId: string,
    state: 'delivered' | 'failed',
    reason: string | null,
  ) {
    const row = await messagesOf(this.app.db)
      .selectFrom('client_messages')
      .select('id')
      .where('channel', '=', channel)
      .where('provider_id', '=', providerId)
      .executeTakeFirst();
    if (!row) return false;
    return this.setState(
      Number(row.id),
      { state, reason },
      state === 'delivered' ? ['sent'] : ['sent', 'delivered'],
    );
  }

  /**
   * The event job: one message per client of the record and channel they agreed to, in their
   * language, from the event's template in that language (the other language's when it has none;
   * no template: nothing). Safe to repeat: each message is made once by its key. Answers the
   * messages made (none on a repeat).
   */
  async raise(payload: EventPayload, jobKey: string): Promise<CustomerMessage[]> {
    return this.queueAll(await this.prepare(payload, jobKey));
  }

  /** Queues prepared messages, in `trx` when given (so they exist only if it commits); answers those made. */
  async queueAll(messages: readonly NewMessage[], trx?: Trx): Promise<CustomerMessage[]> {
    const queued: CustomerMessage[] = [];
    for (const message of messages) {
      const made = await this.queue(message, trx);
      if (made) queued.push(made);
    }
    return queued;
  }

  /**
   * An event's messages as `raise` makes them, read but not stored (the reads outside any write
   * transaction: on SQLite a read beside an open transaction waits for it).
   */
  async prepare(payload: EventPayload, jobKey: string): Promise<NewMessage[]> {
    const { app } = this;
    const actor = { user: null };
    const kind = EVENT_RECORDS[payload.event];
    // A record deleted before its event ran tells no one.
    const [record] = await app.entities.get(DOCUMENT_RECORDS[kind]).getMany([payload.recordId], actor);
    if (!record) return [];
    const lawsuitId =
      kind === 'lawsuit'
        ? record.id
        : kind === 'session'
          ? Number(record.lawsuitId)
          : (payload.lawsuitId ?? null);
    let customerIds = payload.customerIds;
    if (!customerIds) {
      if (kind === 'customer') customerIds = [record.id];
      else {
        const lawsuit = await app.entities.get('lawsuits').get(lawsuitId!, actor);
        customerIds = (lawsuit.customerIds as number[] | undefined) ?? [];
      }
    }
    const customers = await app.entities.get('customers').getMany(customerIds, actor);
    const settings = await readSettings(app.db);
    const today = officeToday(settings.timeZone, app.clock()).today;
    const dataByLang = new Map<Lang, Record<string, unknown>>();
    const messages: NewMessage[] = [];
    for (const customer of customers) {
      for (const channel of ['email', 'sms', 'whatsapp'] as const) {
        if (!optInOf(customer, channel)) continue;
        const to = addressOf(customer, channel);
        if (!to) continue;
        const template = await this.templateOf(payload.event, languageOf(customer));
        if (!template) {
          app.log.warn(
            { event: payload.event, lang: languageOf(customer) },
            'no message template for the event',
          );
          continue;
        }
        const lng = template.language;
        if (!dataByLang.has(lng)) dataByLang.set(lng, await this.mergeData(payload, lng, settings, today));
        const data = { ...dataByLang.get(lng)!, client: { name: String(customer.name ?? '') } };
        const empty = emptyTags(data, template.subject, template.body);
        if (empty.length)
          app.log.warn({ event: payload.event, lang: lng, empty }, 'message template fields without a value');
        const message: NewMessage = {
          customerId: customer.id,
          lawsuitId,
          event: payload.event,
          dedupeKey: `${jobKey}:${customer.id}:${channel}`,
          channel,
          to,
          language: lng,
          subject: template.subject ? renderText(template.subject, data) : null,
          body: renderText(template.body, data),
          whatsappTemplate: template.whatsappTemplate,
          createdBy: payload.createdBy ?? null,
          attachmentId: payload.attachmentId ?? null,
        };
        messages.push(message);
      }
    }
    return messages;
  }

  /**
   * The values an event's template in `lng` renders (its record's merge fields, `documents/fields.ts`,
   * and the event's own under `event`), the recipient's `client` apart; `settings` and `today` read
   * when not given.
   */
  async mergeData(
    payload: EventPayload,
    lng: Lang,
    settings?: Awaited<ReturnType<typeof readSettings>>,
    today?: string,
  ): Promise<Record<string, unknown>> {
    const { app } = this;
    settings ??= await readSettings(app.db);
    today ??= officeToday(settings.timeZone, app.clock()).today;
    const kind = EVENT_RECORDS[payload.event];
    const data = await recordData(app, { user: null }, kind, payload.recordId, settings, lng, today, {
      images: false,
    });
    const style = {
      lng,
      calendar: settings.calendar === 'gregorian' ? ('gregorian' as const) : ('hijri' as const),
      country: settings.officeCountry,
      timeZone: settings.timeZone,
    };
    data.event = {
      newDate: payload.extra?.newDate ? dateTexts(payload.extra.newDate, 'date', style).both : '',
      reason: payload.extra?.reason ?? '',
      text: payload.extra?.text ?? '',
      invoiceNumber: payload.extra?.invoiceNumber ?? '',
      document: payload.extra?.document ?? '',
      total:
        payload.extra?.total === undefined
          ? ''
          : moneyText(payload.extra.total, style, payload.extra.currency),
    };
    return data;
  }

  /** The event's template in `lng`, or in the other language when it has none (null: none at all). */
  async templateOf(event: MessageEvent, lng: Lang) {
    const rows = (
      await selectFields(this.app.db, messageTemplates, ['language', 'subject', 'body', 'whatsappTemplate'])
        .where(cols(messageTemplates).event, '=', event)
        .orderBy('id')
        .execute()
    ).map((raw) => readRow(messageTemplates, raw));
    const row = rows.find((r) => r.language === lng) ?? rows[0];
    if (!row) return null;
    return {
      language: (row.language === 'en' ? 'en' : 'ar') as Lang,
      subject: row.subject,
      body: row.body,
      whatsappTemplate: row.whatsappTemplate,
    };
  }
}
