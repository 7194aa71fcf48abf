import type { Kysely } from 'kysely';
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Files sent with the mail (a document shared with a client); the outbox row keeps only the text. */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export interface MailResult {
  /** Handed to the SMTP server. False without `SMTP_URL` (kept in the outbox) or when sending failed. */
  delivered: boolean;
  outboxId: number;
  error?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<MailResult>;
  close(): void;
}

/** The slice of a pino/Fastify logger the mailer writes to. */
export interface MailLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

interface OutboxDatabase {
  outbox: {
    id: import('kysely').Generated<number>;
    to: string;
    subject: string;
    text: string;
    html: string | null;
    created_at: string;
    sent_at: string | null;
    error: string | null;
  };
}

export interface MailerOptions {
  db: Kysely<unknown>;
  /** `smtp://user:pass@host:port` or `smtps://...`; null keeps every message in the outbox and the log. */
  smtpUrl: string | null;
  /** `MIZAN_MAIL_FROM`, default `Mizan <no-reply@mizan.local>`. */
  from?: string;
  log: MailLog;
}

/**
 * Sends mail through nodemailer when `SMTP_URL` is set. Every message is also written to the
 * `outbox` table (with `sent_at` or `error`), so an administrator can see what left and what did
 * not; without SMTP the message goes to the log, which is how a fresh install reads its reset links.
 */
export function createMailer(options: MailerOptions): Mailer {
  const db = options.db as Kysely<OutboxDatabase>;
  const from = options.from || process.env.MIZAN_MAIL_FROM || 'Mizan <no-reply@mizan.local>';
  const { smtpUrl } = options;
  // nodemailer is loaded with the first message sent: most processes never send one.
  let transport: Promise<Transporter> | null = null;
  const connect = (url: string) =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(url)));

  return {
    async send(message) {
      const row = await db
        .insertInto('outbox')
        .values({
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html ?? null,
          created_at: new Date().toISOString(),
          sent_at: null,
          error: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const outboxId = Number(row.id);
      if (!smtpUrl) {
        options.log.info(
          { mail: { to: message.to, subject: message.subject, text: message.text }, outboxId },
          'mail kept in the outbox (SMTP_URL is not set)',
        );
        return { delivered: false, outboxId };
      }
      try {
        await (
          await connect(smtpUrl)
        ).sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          attachments: message.attachments,
        });
        await db
          .updateTable('outbox')
          .set({ sent_at: new Date().toISOString() })
          .where('id', '=', outboxId)
          .execute();
        return { delivered: true, outboxId };
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        await db
          .updateTable('outbox')
          .set({ error: error.slice(0, 2000) })
          .where('id', '=', outboxId)
          .execute();
        options.log.error({ err, to: message.to, outboxId }, 'mail could not be sent');
        return { delivered: false, outboxId, error };
      }
    },
    close() {
      void transport?.then((t) => t.close());
    },
  };
}
