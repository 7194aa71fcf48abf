import {
  DEADLINE_NOTICE_DAYS,
  SMS_DEFAULTS,
  WHATSAPP_DEFAULTS,
  type MessageChannel,
  type MessagingSettings,
  type MessagingSettingsInput,
} from '@mizan/contracts';
import type { Kysely } from 'kysely';
import type { Db } from '../db';
import type { Trx } from '../engine/context';
import type { Mailer } from '../mail/mailer';
import { readSettingsToChange, writeSettings } from '../settings/repository';

/** One message as a provider receives it. */
export interface OutboundMessage {
  /** An email address, or a phone number in E.164 (`+201001234567`). */
  to: string;
  subject: string | null;
  body: string;
  language: string;
  /** The approved WhatsApp template to send the body in (its one parameter). */
  whatsappTemplate: string | null;
  /** Documents sent with the text (a shared attachment's files): attached by email, WhatsApp documents. */
  files?: OutboundFile[];
  /**
   * The steps of this message a provider already did on an earlier try (step → the provider's id),
   * and how to record one: a provider that sends in several requests (WhatsApp: each file uploaded,
   * the text, each document) skips on a retry what it did, so the client gets nothing twice.
   */
  steps?: SendSteps;
}

/** A file sent with a message. */
export interface OutboundFile {
  name: string;
  mimeType: string;
  content: Buffer;
}

/** What a message's earlier tries did, and how to record a step once done. */
export interface SendSteps {
  done: Readonly<Record<string, string>>;
  record(step: string, id: string): Promise<void>;
}

/**
 * Why a provider did not take a message, in its own words. `retryable`: worth trying again later
 * (the provider is down, busy or answered 5xx); otherwise it refused this message for good.
 */
export class ProviderError extends Error {
  constructor(
    readonly reason: string,
    readonly retryable: boolean,
  ) {
    super(reason);
  }
}

/**
 * A way of sending messages (SMTP, an SMS gateway, WhatsApp): answers the provider's id of the
 * message, or throws a `ProviderError`.
 */
export interface MessageProvider {
  send(message: OutboundMessage): Promise<{ providerId: string }>;
}

const TIMEOUT_MS = 15_000;
const REASON_MAX = 500;

/** A 5xx or 429 is the provider's trouble, worth a retry; another 4xx refuses the message. */
const retryableStatus = (status: number) => status >= 500 || status === 429 || status === 408;

/** Calls a provider over HTTP: a network failure or timeout is retryable, like a 5xx. */
async function call(
  url: string,
  init: RequestInit,
): Promise<{ status: number; body: unknown; text: string }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new ProviderError(
      `${(error as Error).message}${cause?.code ? ` (${cause.code})` : cause?.message ? ` (${cause.message})` : ''}`,
      true,
    );
  }
  const text = await response.text();
  return { status: response.status, body: parseJson(text), text };
}

/** A provider's answer as JSON, or null when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}

const errorText = (status: number, body: unknown, text: string): string => {
  const error = (body as { error?: { message?: string; error_data?: { details?: string } } } | null)?.error;
  const detail =
    error?.error_data?.details ?? error?.message ?? (body as { message?: string } | null)?.message;
  return `HTTP ${status}: ${detail ?? (text.trim() || 'no answer')}`.slice(0, REASON_MAX);
};

/** Email through the server's SMTP (`SMTP_URL`), each message kept in the outbox too. */
export function emailProvider(mailer: Mailer, configured: boolean): MessageProvider {
  return {
    async send(message) {
      if (!configured) throw new ProviderError('SMTP is not configured (SMTP_URL)', false);
      const result = await mailer.send({
        to: message.to,
        subject: message.subject ?? '',
        text: message.body,
        attachments: message.files?.map((f) => ({
          filename: f.name,
          content: f.content,
          contentType: f.mimeType,
        })),
      });
      if (!result.delivered) throw new ProviderError(result.error ?? 'not sent', true);
      return { providerId: `outbox:${result.outboxId}` };
    },
  };
}

/** Settings of the generic HTTP SMS gateway, secrets included. */
export interface SmsConfig {
  url: string;
  method: 'POST' | 'GET' | 'PUT';
  contentType: string;
  bodyTemplate: string;
  authHeader: string;
}

/** `{to}` and `{text}` in the gateway's body or URL, escaped for where they land. */
function fill(template: string, values: { to: string; text: string }, escape: (s: string) => string): string {
  return template.replace(/\{(to|text)\}/g, (_, key: 'to' | 'text') => escape(values[key]));
}

/** A generic HTTP SMS gateway: the URL, method, `Authorization` header and body of the settings. */
export function smsProvider(config: SmsConfig): MessageProvider {
  return {
    async send(message) {
      if (!config.url) throw new ProviderError('the SMS gateway is not configured', false);
      const values = { to: message.to, text: message.body };
      const json = /json/i.test(config.contentType);
      const escape = json ? (s: string) => JSON.stringify(s).slice(1, -1) : encodeURIComponent;
      const withBody = config.method !== 'GET';
      const url = fill(config.url, values, encodeURIComponent);
      const headers: Record<string, string> = {};
      if (config.authHeader) headers.authorization = config.authHeader;
      if (withBody) headers['content-type'] = config.contentType;
      const { status, body, text } = await call(url, {
        method: config.method,
        headers,
        body: withBody ? fill(config.bodyTemplate, values, escape) : undefined,
      });
      if (status < 200 || status > 299)
        throw new ProviderError(errorText(status, body, text), retryableStatus(status));
      const answer = (body ?? {}) as Record<string, unknown>;
      const id = answer.id ?? answer.messageId ?? answer.message_id ?? '';
      return { providerId: String(id) };
    },
  };
}

/** Settings of the WhatsApp Business Cloud API, secrets included. */
export interface WhatsappConfig {
  baseUrl: string;
  apiVersion: string;
  phoneNumberId: string;
  token: string;
  appSecret: string;
  verifyToken: string;
}

/**
 * The WhatsApp Business Cloud API: a template message (`whatsappTemplate`, in the client's language,
 * the text its body parameter), or a plain text message without one (WhatsApp delivers those only
 * within a day of the client's last message). A message with files uploads each
 * (`POST /{phoneNumberId}/media`, multipart) before the text, then sends each as a `document`
 * message by its media id; every step done is recorded (`steps`), so a retry after a failure
 * sends only what is left. The message's id is the text's (the one the status webhook reports).
 */
export function whatsappProvider(config: WhatsappConfig): MessageProvider {
  return {
    async send(message) {
      if (!config.phoneNumberId || !config.token)
        throw new ProviderError('WhatsApp is not configured (phone number id and token)', false);
      const to = message.to.replace(/^\+/, '');
      const base = `${config.baseUrl.replace(/\/+$/, '')}/${config.apiVersion}/${encodeURIComponent(config.phoneNumberId)}`;
      const authorization = `Bearer ${config.token}`;
      const done: Record<string, string> = { ...message.steps?.done };
      const step = async (name: string, run: () => Promise<string>): Promise<string> => {
        if (done[name]) return done[name];
        const id = await run();
        done[name] = id;
        await message.steps?.record(name, id);
        return id;
      };
      const post = async (path: string, body: RequestInit['body'], json: boolean) => {
        const {
          status,
          body: answer,
          text,
        } = await call(`${base}/${path}`, {
          method: 'POST',
          headers: json ? { authorization, 'content-type': 'application/json' } : { authorization },
          body,
        });
        if (status < 200 || status > 299)
          throw new ProviderError(errorText(status, answer, text), retryableStatus(status));
        return { answer, text };
      };
      const sendMessage = async (payload: object) => {
        const { answer, text } = await post(
          'messages',
          JSON.stringify({ messaging_product: 'whatsapp', to, ...payload }),
          true,
        );
        const id = (answer as { messages?: { id?: string }[] } | null)?.messages?.[0]?.id;
        if (!id) throw new ProviderError(`no message id in the answer: ${text.slice(0, 200)}`, false);
        return id;
      };

      const files = message.files ?? [];
      const mediaIds: string[] = [];
      for (const [i, file] of files.entries())
        mediaIds.push(
          await step(`media:${i}`, async () => {
            const form = new FormData();
            form.append('messaging_product', 'whatsapp');
            form.append('type', file.mimeType);
            form.append('file', new Blob([new Uint8Array(file.content)], { type: file.mimeType }), file.name);
            const { answer, text } = await post('media', form, false);
            const id = (answer as { id?: string } | null)?.id;
            if (!id) throw new ProviderError(`no media id in the answer: ${text.slice(0, 200)}`, false);
            return String(id);
          }),
        );
      const providerId = await step('text', () =>
        sendMessage(
          message.whatsappTemplate
            ? {
                type: 'template',
                template: {
                  name: message.whatsappTemplate,
                  language: { code: message.language },
                  components: [{ type: 'body', parameters: [{ type: 'text', text: message.body }] }],
                },
              }
            : { type: 'text', text: { body: message.body } },
        ),
      );
      for (const [i, file] of files.entries())
        await step(`document:${i}`, () =>
          sendMessage({ type: 'document', document: { id: mediaIds[i], filename: file.name } }),
        );
      return { providerId };
    },
  };
}

/** The providers' settings as stored, secrets included (never answered as they are). */
export interface ProviderConfigs {
  sms: SmsConfig;
  whatsapp: WhatsappConfig;
}

interface ProviderRow {
  channel: string;
  settings: string;
  secrets: string;
}

const parse = (text: string | undefined): Record<string, unknown> => {
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** The stored settings of both providers, the defaults where none were saved. */
export async function readProviderConfigs(db: Db | Trx): Promise<ProviderConfigs> {
  const rows = (await (db as Kysely<{ message_providers: ProviderRow }>)
    .selectFrom('message_providers')
    .selectAll()
    .execute()) as ProviderRow[];
  const of = (channel: string) => rows.find((r) => r.channel === channel);
  const sms = of('sms');
  const whatsapp = of('whatsapp');
  return {
    sms: { ...SMS_DEFAULTS, authHeader: '', ...parse(sms?.settings), ...parse(sms?.secrets) } as SmsConfig,
    whatsapp: {
      ...WHATSAPP_DEFAULTS,
      token: '',
      appSecret: '',
      verifyToken: '',
      ...parse(whatsapp?.settings),
      ...parse(whatsapp?.secrets),
    } as WhatsappConfig,
  };
}

/** The settings as `GET` answers them: each secret only as whether it is set. */
export function publicConfigs(
  configs: ProviderConfigs,
  emailConfigured: boolean,
  deadlineNoticeDays: number,
): MessagingSettings {
  const { authHeader, ...sms } = configs.sms;
  const { token, appSecret, verifyToken, ...whatsapp } = configs.whatsapp;
  return {
    sms: { ...sms, authHeaderSet: Boolean(authHeader) },
    whatsapp: {
      ...whatsapp,
      tokenSet: Boolean(token),
      appSecretSet: Boolean(appSecret),
      verifyTokenSet: Boolean(verifyToken),
    },
    emailConfigured,
    deadlineNoticeDays,
  };
}

/** The settings after a `PUT`: a secret left out keeps its stored value, `''` clears it. */
export function mergeConfigs(stored: ProviderConfigs, input: MessagingSettingsInput): ProviderConfigs {
  const keep = (given: string | undefined, old: string) => (given === undefined ? old : given);
  return {
    sms: {
      url: input.sms.url,
      method: input.sms.method,
      contentType: input.sms.contentType,
      bodyTemplate: input.sms.bodyTemplate,
      authHeader: keep(input.sms.authHeader, stored.sms.authHeader),
    },
    whatsapp: {
      baseUrl: input.whatsapp.baseUrl,
      apiVersion: input.whatsapp.apiVersion,
      phoneNumberId: input.whatsapp.phoneNumberId,
      token: keep(input.whatsapp.token, stored.whatsapp.token),
      appSecret: keep(input.whatsapp.appSecret, stored.whatsapp.appSecret),
      verifyToken: keep(input.whatsapp.verifyToken, stored.whatsapp.verifyToken),
    },
  };
}

/** Writes both providers' rows. */
export async function writeProviderConfigs(
  trx: Db | Trx,
  configs: ProviderConfigs,
  employeeId: number | null,
  at: string,
): Promise<void> {
  const db = trx as Kysely<{
    message_providers: ProviderRow & { updated_by: number | null; updated_at: string };
  }>;
  const { authHeader, ...sms } = configs.sms;
  const { token, appSecret, verifyToken, ...whatsapp } = configs.whatsapp;
  const rows = [
    { channel: 'sms', settings: JSON.stringify(sms), secrets: JSON.stringify({ authHeader }) },
    {
      channel: 'whatsapp',
      settings: JSON.stringify(whatsapp),
      secrets: JSON.stringify({ token, appSecret, verifyToken }),
    },
  ];
  for (const row of rows)
    await db
      .insertInto('message_providers')
      .values({ ...row, updated_by: employeeId, updated_at: at })
      .onConflict((oc) =>
        oc.column('channel').doUpdateSet({
          settings: row.settings,
          secrets: row.secrets,
          updated_by: employeeId,
          updated_at: at,
        }),
      )
      .execute();
}

/** The provider of a channel, from the stored settings. */
export function providerOf(
  channel: MessageChannel,
  configs: ProviderConfigs,
  email: { mailer: Mailer; configured: boolean },
): MessageProvider {
  if (channel === 'email') return emailProvider(email.mailer, email.configured);
  if (channel === 'sms') return smsProvider(configs.sms);
  return whatsappProvider(configs.whatsapp);
}

type NoticeDb = Kysely<{ system_settings: { id: number; client_deadline_notice_days: number | string } }>;

/**
 * The clients' `deadlineApproaching` lead time (`deadlineNoticeDays`, a column of the settings
 * row); the default while the settings were never saved.
 */
export async function readDeadlineNoticeDays(db: Db | Trx): Promise<number> {
  const row = await (db as unknown as NoticeDb)
    .selectFrom('system_settings')
    .select('client_deadline_notice_days')
    .where('id', '=', 1)
    .executeTakeFirst();
  const days = Number(row?.client_deadline_notice_days ?? Number.NaN);
  return Number.isInteger(days) && days >= 0 ? days : DEADLINE_NOTICE_DAYS.default;
}

/** Stores the lead time (the settings row is written with its defaults first when there is none). */
export async function writeDeadlineNoticeDays(trx: Db | Trx, days: number, employeeId: number | null) {
  const update = () =>
    (trx as unknown as NoticeDb)
      .updateTable('system_settings')
      .set({ client_deadline_notice_days: days })
      .where('id', '=', 1)
      .executeTakeFirst();
  if (Number((await update()).numUpdatedRows) > 0) return;
  await writeSettings(trx, await readSettingsToChange(trx), employeeId);
  await update();
}
