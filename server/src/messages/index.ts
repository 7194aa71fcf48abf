import {
  MESSAGE_CHANNELS,
  MESSAGE_ROUTES,
  WHATSAPP_DOCUMENT_MAX_BYTES,
  messageTemplates,
  type CustomerMessage,
  type MessageChannel,
  type ShareRecipient,
  type MessageEvent,
  type MessagingTestResult,
} from '@mizan/contracts';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import crypto from 'node:crypto';
import { writeAudit } from '../audit/audit';
import { actorOf, type ActorContext, type Trx } from '../engine/context';
import type { ApiRow } from '../engine/serialize';
import { seedListOnce } from '../engine/seeding';
import { AppError } from '../http/errors';
import { requestLanguage, translate } from '../http/messages';
import { defineRoute } from '../http/route';
import { createMailer } from '../mail/mailer';
import { DEFAULT_MESSAGE_TEMPLATES } from './defaults';
import {
  EVENT_JOB,
  Outbox,
  attachmentFiles,
  SEND_ATTEMPTS,
  SEND_JOB,
  addressOf,
  languageOf,
  optInOf,
  recipientOf,
  type EventPayload,
} from './outbox';
import {
  mergeConfigs,
  providerOf,
  publicConfigs,
  readDeadlineNoticeDays,
  readProviderConfigs,
  writeDeadlineNoticeDays,
  writeProviderConfigs,
  ProviderError,
} from './providers';
import { unclosedSections, unknownTags } from './render';

export { messagesMigrations } from './migrations';
export { Outbox, type EventPayload } from './outbox';
export {
  ProviderError,
  readDeadlineNoticeDays,
  type MessageProvider,
  type OutboundMessage,
} from './providers';

declare module 'fastify' {
  interface FastifyInstance {
    /** Messages to clients: `app.messages.raise(...)` through `raiseClientEvent`. */
    messages: Outbox;
  }
}

/**
 * Tells the clients of a record about an event once its write commits (inside `trx`, the job
 * exists only if the write does), by the event's templates and the channels each client agreed
 * to. `key` names the occurrence: the same key twice sends once.
 *
 * @example
 * await raiseClientEvent(app, { event: 'invoiceIssued', recordId: customerId }, `invoice:${id}`, ctx.trx);
 */
export async function raiseClientEvent(
  app: FastifyInstance,
  payload: EventPayload,
  key: string,
  trx?: Trx,
): Promise<void> {
  await app.jobs.enqueue(EVENT_JOB, payload, { key: `event:${key}`, trx });
}

/**
 * Messages to clients by email (the server's SMTP), SMS (a generic HTTP gateway) and WhatsApp
 * (the Business Cloud API), through one provider interface (`providers.ts`): events of hearings
 * and judgments queue them, staff send one-off ones from a client's communications tab; each is
 * sent once across instances by the job queue, retried with backoff while its provider is down,
 * its state kept (queued, sent, delivered, failed with the provider's reason) and audited.
 */
export const messagesPlugin: FastifyPluginAsync = async (app) => {
  const mailer = createMailer({ db: app.db as Kysely<unknown>, smtpUrl: app.config.smtpUrl, log: app.log });
  app.addHook('onClose', async () => mailer.close());
  const outbox = new Outbox(app, mailer);
  app.decorate('messages', outbox);

  app.jobs.define<{ messageId: number }>({
    kind: SEND_JOB,
    concurrency: () => 2,
    maxAttempts: SEND_ATTEMPTS,
    run: (payload, ctx) => outbox.send(payload.messageId, ctx.attempt),
  });
  app.jobs.define<EventPayload>({
    kind: EVENT_JOB,
    maxAttempts: 3,
    run: async (payload, ctx) => {
      const job = await app.jobs.status(ctx.id);
      await outbox.raise(payload, job?.key ?? `job:${ctx.id}`);
    },
  });

  installEventHooks(app);
  installTemplateCheck(app);
  installRoutes(app, outbox, mailer);
  // A new office starts with a text for every event in both languages (checked like any template).
  await seedListOnce(app, messageTemplates.name, DEFAULT_MESSAGE_TEMPLATES);
};
// Hooks, routes and the decoration belong to the app, not an encapsulated child context.
(messagesPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

/**
 * Hearings scheduled and postponed, judgments recorded, invoices issued: each raises its event
 * once. (Deadlines falling due are raised by the deadlines module's morning job.)
 */
function installEventHooks(app: FastifyInstance): void {
  app.entities.hooks('invoices', {
    async afterChange(ctx, { action, after }) {
      // An invoice, not a credit note, once its issue commits: its number and frozen total.
      if (action !== 'issue' || !after || after.kind !== 'invoice') return;
      await raiseClientEvent(
        app,
        {
          event: 'invoiceIssued',
          recordId: Number(after.customerId),
          lawsuitId: typeof after.lawsuitId === 'number' ? after.lawsuitId : null,
          extra: {
            invoiceNumber: String(after.number ?? ''),
            total: Number(after.total ?? 0),
            currency: String(after.currency ?? ''),
          },
        },
        `invoiceIssued:invoice:${after.id}`,
        ctx.trx,
      );
    },
  });

  app.entities.hooks('sessions', {
    async afterChange(ctx, { action, before, after }) {
      if (!after) return;
      const raise = (event: MessageEvent, extra?: EventPayload['extra']) =>
        raiseClientEvent(app, { event, recordId: after.id, extra }, `${event}:session:${after.id}`, ctx.trx);
      // A hearing made by postponing another is told as the postponement, not as a new hearing.
      if (action === 'create' && after.previousId === null) await raise('hearingScheduled');
      if (action === 'postpone')
        await raise('hearingPostponed', {
          newDate: String(after.nextDate ?? ''),
          reason: String(after.decision ?? ''),
        });
      if (after.judgment === true && before?.judgment !== true) await raise('judgmentRecorded');
    },
  });
}

/**
 * A template naming a merge field its event does not offer, or with a section not closed in order,
 * is refused (422 on the field).
 */
function installTemplateCheck(app: FastifyInstance): void {
  const check = (values: Record<string, unknown>, before?: Record<string, unknown>) => {
    const event = (values.event ?? before?.event) as MessageEvent;
    const subject = (values.subject ?? before?.subject) as string | null;
    const body = (values.body ?? before?.body) as string | null;
    for (const [field, text] of [
      ['body', body],
      ['subject', subject],
    ] as const) {
      const unknown = unknownTags(event, text);
      if (unknown.length)
        throw new AppError('validation', {
          entity: messageTemplates.name,
          errors: { [field]: [{ key: 'clients.messages.unknownTag', params: { tag: unknown[0]! } }] },
        });
      const unclosed = unclosedSections(text);
      if (unclosed.length)
        throw new AppError('validation', {
          entity: messageTemplates.name,
          errors: { [field]: [{ key: 'clients.messages.unclosedSection', params: { tag: unclosed[0]! } }] },
        });
    }
  };
  app.entities.hooks(messageTemplates.name, {
    beforeCreate: (_ctx, values) => check(values),
    beforeUpdate: (_ctx, values, before) => check(values, before),
  });
}

function installRoutes(app: FastifyInstance, outbox: Outbox, mailer: ReturnType<typeof createMailer>): void {
  defineRoute(app, MESSAGE_ROUTES.customer, {
    handler: async (request, { params }) => {
      const customer = await app.entities.get('customers').get(params.id, actorOf(request));
      return { data: { items: await outbox.list({ customerId: customer.id }) } };
    },
  });

  defineRoute(app, MESSAGE_ROUTES.lawsuit, {
    handler: async (request, { params }) => {
      const lawsuit = await app.entities.get('lawsuits').get(params.id, actorOf(request));
      return { data: { items: await outbox.list({ lawsuitId: lawsuit.id }) } };
    },
  });

  defineRoute(app, MESSAGE_ROUTES.send, {
    labels: 'clients.messages.fields',
    handler: async (request, { params, body }, reply) => {
      const actor = actorOf(request);
      const customer = await app.entities.get('customers').get(params.id, actor);
      const refuse = (field: string, key: string) =>
        new AppError('validation', { errors: { [field]: [{ key: `clients.messages.${key}` }] } });
      if (!optInOf(customer, body.channel)) throw refuse('channel', 'noConsent');
      const to = addressOf(customer, body.channel);
      if (!to) throw refuse('channel', 'noAddress');
      if (!recipientOf(body.channel, to))
        throw refuse('channel', body.channel === 'email' ? 'badEmail' : 'badPhone');
      if (body.lawsuitId !== undefined) {
        // A lawsuit that does not exist, or that the user may not see, is refused like a missing reference.
        const [lawsuit] = await app.entities.get('lawsuits').getMany([body.lawsuitId], actor);
        if (!lawsuit)
          throw new AppError('validation', {
            errors: {
              lawsuitId: [
                {
                  key: 'http.referenceMissing',
                  params: { label: translate(requestLanguage(request), 'clients.messages.fields.lawsuitId') },
                },
              ],
            },
          });
        if (!((lawsuit.customerIds as number[] | undefined) ?? []).includes(customer.id))
          throw refuse('lawsuitId', 'notClientsLawsuit');
      }
      const message = await app.db.transaction().execute(async (trx) =>
        outbox.queue(
          {
            customerId: customer.id,
            lawsuitId: body.lawsuitId ?? null,
            event: null,
            dedupeKey: null,
            channel: body.channel,
            to,
            language: languageOf(customer),
            subject: body.subject ?? null,
            body: body.body,
            whatsappTemplate: null,
            createdBy: request.user?.id ?? null,
          },
          trx,
        ),
      );
      reply.code(201);
      return { data: message as CustomerMessage };
    },
  });

  installShareRoutes(app, outbox);

  const settings = { tags: ['system'], labels: 'clients.messages.fields' };
  defineRoute(app, MESSAGE_ROUTES.providers, {
    ...settings,
    handler: async () => ({
      data: publicConfigs(
        await readProviderConfigs(app.db),
        Boolean(app.config.smtpUrl),
        await readDeadlineNoticeDays(app.db),
      ),
    }),
  });

  defineRoute(app, MESSAGE_ROUTES.updateProviders, {
    ...settings,
    handler: async (request, { body }) => {
      const email = Boolean(app.config.smtpUrl);
      const employeeId = request.user?.id ?? null;
      const after = await app.db.transaction().execute(async (trx) => {
        const stored = await readProviderConfigs(trx);
        const storedDays = await readDeadlineNoticeDays(trx);
        const next = mergeConfigs(stored, body);
        const days = body.deadlineNoticeDays ?? storedDays;
        await writeProviderConfigs(trx, next, employeeId, app.clock().toISOString());
        if (days !== storedDays) await writeDeadlineNoticeDays(trx, days, employeeId);
        const answer = publicConfigs(next, email, days);
        await writeAudit(trx, {
          employeeId,
          entity: 'messageProviders',
          entityId: null,
          action: 'update',
          before: publicConfigs(stored, email, storedDays),
          after: answer,
          ip: request.ip,
        });
        return answer;
      });
      return { data: after };
    },
  });

  defineRoute(app, MESSAGE_ROUTES.testProvider, {
    ...settings,
    handler: async (request, { body }) => {
      const lng = requestLanguage(request);
      const to = recipientOf(body.channel, body.to);
      if (!to)
        throw new AppError('validation', {
          errors: { to: [{ key: `clients.messages.${body.channel === 'email' ? 'badEmail' : 'badPhone'}` }] },
        });
      const provider = providerOf(body.channel, await readProviderConfigs(app.db), {
        mailer,
        configured: Boolean(app.config.smtpUrl),
      });
      let result: MessagingTestResult;
      try {
        const { providerId } = await provider.send({
          to,
          subject: translate(lng, 'clients.messages.testSubject'),
          body: translate(lng, 'clients.messages.testBody'),
          language: lng,
          whatsappTemplate: null,
        });
        result = { ok: true, providerId, reason: null };
      } catch (error) {
        result = {
          ok: false,
          providerId: null,
          reason: error instanceof ProviderError ? error.reason : String((error as Error).message),
        };
      }
      await writeAudit(app.db, {
        employeeId: request.user?.id ?? null,
        entity: 'messageProviders',
        entityId: null,
        action: 'test',
        after: { channel: body.channel, to, ...result },
        ip: request.ip,
      });
      return { data: result };
    },
  });

  installWhatsappWebhook(app, outbox);
}

/** The channels a client would receive a message on: agreed to, with a valid address. */
const channelsOf = (customer: ApiRow): MessageChannel[] =>
  MESSAGE_CHANNELS.filter((channel) => {
    const to = optInOf(customer, channel) ? addressOf(customer, channel) : null;
    return to !== null && recipientOf(channel, to) !== null;
  });

/** Megabytes as a 422 says them: one decimal under 10 MB. */
const megabytes = (bytes: number) => {
  const mb = bytes / (1024 * 1024);
  return mb >= 10 ? Math.round(mb) : Math.round(mb * 10) / 10;
};

/**
 * A lawsuit's attachment to share (404 when either is missing, outside the user's scope, or the
 * attachment is another lawsuit's), its files, and the lawsuit's clients with their channels.
 */
async function shareTarget(
  app: FastifyInstance,
  actor: ActorContext,
  lawsuitId: number,
  attachmentId: number,
) {
  const lawsuit = await app.entities.get('lawsuits').get(lawsuitId, actor);
  const [attachment] = await app.entities.get('attachments').getMany([attachmentId], actor);
  if (!attachment || Number(attachment.lawsuitId) !== lawsuit.id) throw new AppError('notFound');
  const files = await attachmentFiles(app.db, attachment.id);
  const customerIds = (lawsuit.customerIds as number[] | undefined) ?? [];
  const customers = await app.entities.get('customers').getMany(customerIds, actor);
  const recipients: (ShareRecipient & { customer: ApiRow })[] = customers.map((customer) => ({
    customerId: customer.id,
    name: String(customer.name ?? customer.id),
    channels: channelsOf(customer),
    customer,
  }));
  return { lawsuit, attachment, files, recipients };
}

/**
 * Sharing a lawsuit's attachment with its clients: the `documentShared` event raised on the
 * request for the chosen clients (each share its own occurrence), its messages made in one
 * transaction with the audit entry, the files sent by the email and WhatsApp providers. Everything
 * is checked first (422, nothing queued): clients of the lawsuit who agreed to a channel, a
 * template for the event, files within each channel's limit.
 */
function installShareRoutes(app: FastifyInstance, outbox: Outbox): void {
  defineRoute(app, MESSAGE_ROUTES.sharePreview, {
    handler: async (request, { params }) => {
      const { files, recipients } = await shareTarget(app, actorOf(request), params.id, params.attachmentId);
      return {
        data: {
          files: files.map((f) => ({ name: f.name, size: f.size })),
          recipients: recipients.map(({ customerId, name, channels }) => ({ customerId, name, channels })),
        },
      };
    },
  });

  defineRoute(app, MESSAGE_ROUTES.share, {
    labels: 'clients.messages.fields',
    handler: async (request, { params, body }, reply) => {
      const actor = actorOf(request);
      const { lawsuit, attachment, files, recipients } = await shareTarget(
        app,
        actor,
        params.id,
        params.attachmentId,
      );
      const refuse = (field: string, key: string, values?: Record<string, string | number>) =>
        new AppError('validation', {
          errors: { [field]: [{ key: `clients.messages.share.${key}`, params: values }] },
        });
      if (!files.length) throw refuse('files', 'noFiles');
      let chosen: typeof recipients;
      if (body.customerIds) {
        const ids = [...new Set(body.customerIds)];
        const stranger = ids.find((id) => !recipients.some((r) => r.customerId === id));
        if (stranger !== undefined) throw refuse('customerIds', 'notLawsuitClient', { id: stranger });
        chosen = recipients.filter((r) => ids.includes(r.customerId));
        const silent = chosen.find((r) => !r.channels.length);
        if (silent) throw refuse('customerIds', 'noChannel', { name: silent.name });
      } else {
        chosen = recipients.filter((r) => r.channels.length);
        if (!chosen.length) throw refuse('customerIds', 'noRecipients');
      }
      if (!(await outbox.templateOf('documentShared', 'ar'))) throw refuse('customerIds', 'noTemplate');
      const channels = new Set(chosen.flatMap((r) => r.channels));
      const total = files.reduce((sum, f) => sum + f.size, 0);
      if (channels.has('email') && total > app.config.mailMaxAttachmentBytes)
        throw refuse('files', 'tooLargeForEmail', {
          size: megabytes(total),
          max: megabytes(app.config.mailMaxAttachmentBytes),
        });
      const huge = files.find((f) => f.size > WHATSAPP_DOCUMENT_MAX_BYTES);
      if (channels.has('whatsapp') && huge)
        throw refuse('files', 'tooLargeForWhatsapp', {
          name: huge.name,
          size: megabytes(huge.size),
          max: megabytes(WHATSAPP_DOCUMENT_MAX_BYTES),
        });

      const employeeId = request.user?.id ?? null;
      const messages = await outbox.prepare(
        {
          event: 'documentShared',
          recordId: lawsuit.id,
          customerIds: chosen.map((r) => r.customerId),
          attachmentId: attachment.id,
          extra: { document: String(attachment.title ?? '') },
          createdBy: employeeId,
        },
        `documentShared:attachment:${attachment.id}:${crypto.randomUUID()}`,
      );
      const items = await app.db.transaction().execute(async (trx) => {
        const made = await outbox.queueAll(messages, trx);
        await writeAudit(trx, {
          employeeId,
          entity: 'attachments',
          entityId: attachment.id,
          action: 'share',
          after: {
            lawsuitId: lawsuit.id,
            customerIds: chosen.map((r) => r.customerId),
            files: files.map((f) => f.id),
            messageIds: made.map((m) => m.id),
          },
          ip: request.ip,
        });
        return made;
      });
      reply.code(201);
      return { data: { items } };
    },
  });
}

interface StatusUpdate {
  id?: string;
  status?: string;
  errors?: { code?: number; title?: string; message?: string; error_data?: { details?: string } }[];
}

/**
 * WhatsApp's webhook: the verification Meta makes when it is set up (`hub.verify_token` against the
 * setting), and delivery statuses (`delivered`/`read` → delivered, `failed` → failed with its
 * error). Signed by Meta with the app secret (`X-Hub-Signature-256` over the raw body): with the
 * secret set, an unsigned or wrongly signed call is refused (401).
 */
function installWhatsappWebhook(app: FastifyInstance, outbox: Outbox): void {
  void app.register(async (scope) => {
    // The signature is over the bytes Meta sent: keep them beside the parsed body (this scope only).
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
      (request as FastifyRequest & { rawBody?: Buffer }).rawBody = raw as Buffer;
      try {
        done(null, (raw as Buffer).length ? JSON.parse((raw as Buffer).toString('utf8')) : {});
      } catch {
        done(new AppError('malformed'), undefined);
      }
    });

    defineRoute(scope, MESSAGE_ROUTES.whatsappVerify, {
      handler: async (_request, { query }, reply) => {
        const { verifyToken } = (await readProviderConfigs(app.db)).whatsapp;
        if (
          !verifyToken ||
          query['hub.mode'] !== 'subscribe' ||
          !same(query['hub.verify_token'] ?? '', verifyToken)
        )
          throw new AppError('forbidden');
        return reply
          .type('text/plain')
          .serializer((value: unknown) => String(value))
          .send(query['hub.challenge'] ?? '');
      },
    });

    defineRoute(scope, MESSAGE_ROUTES.whatsappStatus, {
      handler: async (request) => {
        const { appSecret } = (await readProviderConfigs(app.db)).whatsapp;
        if (appSecret) {
          const raw = (request as FastifyRequest & { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
          const expected = `sha256=${crypto.createHmac('sha256', appSecret).update(raw).digest('hex')}`;
          const given = String(request.headers['x-hub-signature-256'] ?? '');
          if (!same(given, expected)) throw new AppError('unauthorized');
        }
        const body = (request.body ?? {}) as {
          entry?: { changes?: { value?: { statuses?: StatusUpdate[] } }[] }[];
        };
        let updated = 0;
        for (const entry of Array.isArray(body.entry) ? body.entry : [])
          for (const change of Array.isArray(entry?.changes) ? entry.changes : [])
            for (const status of Array.isArray(change?.value?.statuses) ? change.value.statuses : []) {
              if (typeof status?.id !== 'string') continue;
              if (status.status === 'delivered' || status.status === 'read') {
                if (await outbox.report('whatsapp', status.id, 'delivered', null)) updated += 1;
              } else if (status.status === 'failed') {
                const error = status.errors?.[0];
                const reason =
                  [error?.code, error?.title, error?.error_data?.details ?? error?.message]
                    .filter((v) => v !== undefined && v !== '')
                    .join(': ') || 'failed';
                if (await outbox.report('whatsapp', status.id, 'failed', reason.slice(0, 500))) updated += 1;
              }
            }
        return { data: { updated } };
      },
    });
  });
}

/** Compares two secrets in constant time. */
function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
