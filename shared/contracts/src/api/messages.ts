import { z } from 'zod';
import { AREA_PERMISSIONS } from '../areaPermissions';
import { MESSAGE_CHANNELS, type MessageChannel, type MessageEvent } from '../entities/messages';
import { permissionKey } from '../permissions';
import { answer, PUBLIC, route } from '../route';
import { normalizeDigits } from '../text';

/**
 * Where a message stands: `queued` until a provider took it (with `reason` while a provider is
 * down and it waits for a retry), `sent` once taken, `delivered` or `failed` (with the provider's
 * reason) when known.
 */
export const MESSAGE_STATES = ['queued', 'sent', 'delivered', 'failed'] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

/** One message as the communications tab shows it. */
export interface CustomerMessage {
  id: number;
  customerId: number;
  lawsuitId: number | null;
  /** The event that raised it, or null for a message a staff member wrote. */
  event: MessageEvent | null;
  channel: MessageChannel;
  to: string;
  subject: string | null;
  body: string;
  state: MessageState;
  /** Why it is not sent yet, or why it failed, as the provider said. */
  reason: string | null;
  attempts: number;
  providerId: string | null;
  createdBy: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface CustomerMessageList {
  items: CustomerMessage[];
}

/**
 * A phone number in E.164 (`+201001234567`) from what a person typed: Arabic-Indic digits to ASCII,
 * spaces, dashes, dots and brackets dropped, a leading `00` read as `+`. Null when it is not E.164.
 *
 * @example toE164('+٢٠ ١٠٠ ١٢٣ ٤٥٦٧') // '+201001234567'
 */
export function toE164(value: string): string | null {
  let s = normalizeDigits(value).replace(/[\s().\-\u200E\u200F]/g, '');
  if (s.startsWith('00')) s = `+${s.slice(2)}`;
  return /^\+[1-9]\d{7,14}$/.test(s) ? s : null;
}

const text = (max: number) =>
  z
    .string({ error: 'validation.types.string' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(max, { error: 'validation.string.max' });

/** Body of `POST /admin/customers/:id/messages`: a one-off message on a channel the client agreed to. */
export const sendCustomerMessageBody = z
  .object({
    channel: z.enum(MESSAGE_CHANNELS, { error: 'validation.enum' }),
    body: text(1000),
    subject: text(200).optional(),
    lawsuitId: z
      .int({ error: 'validation.types.integer' })
      .positive({ error: 'validation.types.integer' })
      .optional(),
  })
  .strip();
export type SendCustomerMessageInput = z.input<typeof sendCustomerMessageBody>;

/**
 * Body of `POST /admin/lawsuits/:id/attachments/:attachmentId/share`: which of the lawsuit's clients
 * receive the document; left out, every client who agreed to at least one channel.
 */
export const shareAttachmentBody = z
  .object({
    customerIds: z
      .array(z.int({ error: 'validation.types.integer' }).positive({ error: 'validation.types.integer' }), {
        error: 'validation.types.array',
      })
      .min(1, { error: 'validation.required' })
      .max(100, { error: 'validation.array.max' })
      .optional(),
  })
  .strip();
export type ShareAttachmentInput = z.input<typeof shareAttachmentBody>;

/**
 * The largest file a channel carries: a WhatsApp document (the Cloud API's limit, per file). Email's
 * limit is the server's (`MIZAN_MAIL_MAX_ATTACHMENT_MB`, 20 MB by default, all the files of one mail
 * together) and SMS carries the text only.
 */
export const WHATSAPP_DOCUMENT_MAX_BYTES = 100 * 1024 * 1024;

/** One of a lawsuit's clients as the share confirmation lists them: the channels the document would go by. */
export interface ShareRecipient {
  customerId: number;
  name: string;
  /** The channels the client agreed to and has a valid address for; empty: the client receives nothing. */
  channels: MessageChannel[];
}

/** What sharing an attachment would do: its files and the lawsuit's clients. */
export interface SharePreview {
  files: { name: string; size: number }[];
  recipients: ShareRecipient[];
}

/** The generic HTTP SMS gateway: where and how to post, `{to}` and `{text}` filled in the body. */
export interface SmsProviderSettings {
  url: string;
  method: 'POST' | 'GET' | 'PUT';
  /** The value of the `Authorization` header (e.g. `Bearer …`); never answered in clear. */
  authHeaderSet: boolean;
  contentType: string;
  bodyTemplate: string;
}

/** The WhatsApp Business Cloud API: `POST {baseUrl}/{apiVersion}/{phoneNumberId}/messages`. */
export interface WhatsappProviderSettings {
  baseUrl: string;
  apiVersion: string;
  phoneNumberId: string;
  /** The bearer token; never answered in clear. */
  tokenSet: boolean;
  /** The app secret that signs status webhooks (`X-Hub-Signature-256`); never answered in clear. */
  appSecretSet: boolean;
  /** What Meta sends back when it verifies the webhook (`hub.verify_token`); never answered in clear. */
  verifyTokenSet: boolean;
}

export interface MessagingSettings {
  sms: SmsProviderSettings;
  whatsapp: WhatsappProviderSettings;
  /**
   * How many days before an open deadline falls due its lawsuit's clients get the
   * `deadlineApproaching` message (the morning job); 0: the message is not sent.
   */
  deadlineNoticeDays: number;
  /** Email goes through the server's SMTP (`SMTP_URL`): whether it is configured. */
  emailConfigured: boolean;
}

/** Bounds and default of `deadlineNoticeDays`: three days' notice unless the office chooses. */
export const DEADLINE_NOTICE_DAYS = { default: 3, min: 0, max: 90 } as const;

export const SMS_DEFAULTS = {
  url: '',
  method: 'POST',
  contentType: 'application/json',
  bodyTemplate: '{"to":"{to}","text":"{text}"}',
} as const;
export const WHATSAPP_DEFAULTS = {
  baseUrl: 'https://graph.facebook.com',
  apiVersion: 'v21.0',
  phoneNumberId: '',
} as const;

const url = z
  .string({ error: 'validation.types.string' })
  .trim()
  .max(500, { error: 'validation.string.max' })
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/.test(v), { error: 'validation.types.url' });
/** A secret: omitted keeps the stored one, `''` clears it. */
const secret = z
  .string({ error: 'validation.types.string' })
  .max(2000, { error: 'validation.string.max' })
  .optional();

/** Body of `PUT /admin/settings/system/messaging` (`deadlineNoticeDays` left out is kept). */
export const messagingSettingsBody = z
  .object({
    deadlineNoticeDays: z
      .int({ error: 'validation.types.integer' })
      .min(DEADLINE_NOTICE_DAYS.min, { error: 'validation.number.min' })
      .max(DEADLINE_NOTICE_DAYS.max, { error: 'validation.number.max' })
      .optional(),
    sms: z
      .object({
        url,
        method: z.enum(['POST', 'GET', 'PUT'], { error: 'validation.enum' }),
        authHeader: secret,
        contentType: z.string().trim().max(100, { error: 'validation.string.max' }),
        bodyTemplate: z.string().max(2000, { error: 'validation.string.max' }),
      })
      .strip(),
    whatsapp: z
      .object({
        baseUrl: url,
        apiVersion: z
          .string()
          .trim()
          .regex(/^v\d+(\.\d+)?$/, { error: 'validation.pattern.mismatch' }),
        phoneNumberId: z
          .string()
          .trim()
          .regex(/^\d{0,30}$/, { error: 'validation.pattern.mismatch' }),
        token: secret,
        appSecret: secret,
        verifyToken: secret,
      })
      .strip(),
  })
  .strip();
export type MessagingSettingsInput = z.input<typeof messagingSettingsBody>;

/** Body of `POST /admin/settings/system/messaging/test`. */
export const messagingTestBody = z
  .object({
    channel: z.enum(MESSAGE_CHANNELS, { error: 'validation.enum' }),
    to: text(150),
  })
  .strip();
export type MessagingTestInput = z.input<typeof messagingTestBody>;

/** What a test send answers: the provider's id, or why it refused. */
export interface MessagingTestResult {
  ok: boolean;
  providerId: string | null;
  reason: string | null;
}

/**
 * The query of WhatsApp's webhook verification (`GET`): Meta's `hub.mode`, `hub.verify_token` and
 * the `hub.challenge` to answer back.
 */
export const whatsappVerifyQuery = z
  .object({
    'hub.mode': z.string().optional(),
    'hub.verify_token': z.string().optional(),
    'hub.challenge': z.string().max(200).optional(),
  })
  .strip();

/** What WhatsApp's status webhook answers: how many messages changed state. */
export interface WhatsappStatusResult {
  updated: number;
}

/** The communications tabs, sharing a lawsuit's attachment, the providers' settings and WhatsApp's webhook, under `/api`; `:id` is the client's or the lawsuit's id. */
export const MESSAGE_ROUTES = {
  customer: route({
    method: 'GET',
    path: '/admin/customers/:id/messages',
    permission: permissionKey('customers', 'view'),
    summary: "A client's messages, newest first (the communications tab)",
    answer: answer<CustomerMessageList>(),
  }),
  lawsuit: route({
    method: 'GET',
    path: '/admin/lawsuits/:id/messages',
    permission: permissionKey('lawsuits', 'view'),
    summary: "A lawsuit's messages to its clients, newest first",
    answer: answer<CustomerMessageList>(),
  }),
  send: route({
    method: 'POST',
    path: '/admin/customers/:id/messages',
    permission: permissionKey('customers', 'update'),
    summary: 'Sends a one-off message to a client on a channel they agreed to (queued, 201)',
    body: sendCustomerMessageBody,
    answer: answer<CustomerMessage>(),
  }),
  /** Same permission as a one-off message (`send`): sharing is a message to the clients. */
  sharePreview: route({
    method: 'GET',
    path: '/admin/lawsuits/:id/attachments/:attachmentId/share',
    permission: permissionKey('customers', 'update'),
    summary: "Who would receive a lawsuit's attachment, and by which channels",
    answer: answer<SharePreview>(),
  }),
  share: route({
    method: 'POST',
    path: '/admin/lawsuits/:id/attachments/:attachmentId/share',
    permission: permissionKey('customers', 'update'),
    summary:
      "Shares a lawsuit's attachment with its clients: the documentShared message on each channel they agreed to, the files attached by email and WhatsApp (queued, 201)",
    body: shareAttachmentBody,
    answer: answer<CustomerMessageList>(),
  }),
  providers: route({
    method: 'GET',
    path: '/admin/settings/system/messaging',
    permission: AREA_PERMISSIONS.systemSettingsView,
    summary: 'The SMS and WhatsApp providers (secrets only as whether they are set)',
    answer: answer<MessagingSettings>(),
  }),
  updateProviders: route({
    method: 'PUT',
    path: '/admin/settings/system/messaging',
    permission: AREA_PERMISSIONS.systemSettingsUpdate,
    summary:
      "Changes the SMS and WhatsApp providers (a secret left out is kept) and the clients' deadline notice",
    body: messagingSettingsBody,
    answer: answer<MessagingSettings>(),
  }),
  testProvider: route({
    method: 'POST',
    path: '/admin/settings/system/messaging/test',
    permission: AREA_PERMISSIONS.systemSettingsUpdate,
    summary: "Sends a test message now through a channel's provider and answers what it said",
    body: messagingTestBody,
    answer: answer<MessagingTestResult>(),
  }),
  /** Answers `hub.challenge` itself, as plain text (no `{ data }` envelope), or 403. */
  whatsappVerify: route({
    method: 'GET',
    path: '/messages/whatsapp/webhook',
    permission: PUBLIC,
    summary: "WhatsApp's webhook verification: answers `hub.challenge` to the right verify token",
    query: whatsappVerifyQuery,
  }),
  /** Signed by Meta (`X-Hub-Signature-256`); the handler reads the raw body itself. */
  whatsappStatus: route({
    method: 'POST',
    path: '/messages/whatsapp/webhook',
    permission: PUBLIC,
    summary: 'WhatsApp delivery statuses: a message delivered or failed with its reason',
    answer: answer<WhatsappStatusResult>(),
  }),
};
