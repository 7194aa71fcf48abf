import {
  notificationChannel,
  type NotificationKind,
  type NotificationParams,
  type NotificationRow,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Db } from '../db';
import { translate, type Lang } from '../http/messages';
import { readSettings } from '../system';
import { ROW_COLUMNS, readEmployeeSettings, toRow, type NotificationsTables } from './store';

/** One notification to send. */
export interface NotifyInput {
  employeeId: number;
  kind: NotificationKind;
  params: NotificationParams;
  /** The record's screen route (`/admin/lawsuits/sessions/41`). */
  link?: string | null;
  /**
   * Makes it once only per employee: a second notify with the same key for the same employee
   * inserts nothing (`hearingTomorrow:41:2026-11-24`).
   */
  key?: string | null;
}

/** Rows per INSERT (SQLite's bound-parameter limit). */
const CHUNK = 500;

/** How long to wait for the sender's transaction to commit before giving the live delivery up (ms). */
const COMMIT_WAIT_MS = 60_000;

/**
 * Stores notifications and delivers them: each employee's sockets (their channel) hear the new
 * row, and the kinds the employee takes by email are mailed too (when SMTP is configured), in
 * the employee's language (the one they last used the app in; else the office's). An employee
 * who turned a kind off gets nothing; a `key` already sent to that employee is skipped. Answers
 * how many rows were stored.
 *
 * `db` may be the database or an open transaction on it: delivery waits until the rows are
 * committed (visible outside the transaction), and a transaction that rolls back delivers nothing.
 *
 * @example
 * await app.db.transaction().execute((trx) =>
 *   notify(app, trx, [{ employeeId: 3, kind: 'hearingTomorrow', key: 'hearingTomorrow:41',
 *     params: { fileNumber: '12/2026', date: '2026-11-24', time: '09:30', court: 'North Cairo' },
 *     link: '/admin/lawsuits/sessions/41' }]));
 */
export async function notify(app: FastifyInstance, db: Db, inputs: readonly NotifyInput[]): Promise<number> {
  if (inputs.length === 0) return 0;
  const executor = db as Kysely<NotificationsTables>;
  const settings = await readEmployeeSettings(executor, [...new Set(inputs.map((i) => i.employeeId))]);
  const createdAt = new Date().toISOString();
  const values = inputs
    .filter((input) => settings.get(input.employeeId)?.preferences[input.kind] !== 'off')
    .map((input) => ({
      employee_id: input.employeeId,
      kind: input.kind,
      params: JSON.stringify(input.params ?? {}),
      link: input.link ?? null,
      key: input.key ?? null,
      read_at: null,
      created_at: createdAt,
    }));
  if (values.length === 0) return 0;

  const insert = async (trx: Kysely<NotificationsTables>) => {
    const stored: (NotificationRow & { employeeId: number })[] = [];
    for (let i = 0; i < values.length; i += CHUNK) {
      const rows = await trx
        .insertInto('notifications')
        .values(values.slice(i, i + CHUNK))
        // An employee's key is sent once: the unique index (employee_id, key) turns a repeat into nothing.
        .onConflict((oc) => oc.columns(['employee_id', 'key']).doNothing())
        .returning([...ROW_COLUMNS])
        .execute();
      stored.push(...rows.map((row) => ({ ...toRow(row), employeeId: Number(row.employee_id) })));
    }
    return stored;
  };
  const stored = executor.isTransaction
    ? await insert(executor)
    : await executor.transaction().execute((trx) => insert(trx));
  if (stored.length === 0) return 0;

  const deliver = async () => {
    const committed = executor.isTransaction ? await whenCommitted(app, stored, createdAt) : stored;
    publish(app, committed);
    await mail(
      app,
      committed.filter((row) => settings.get(row.employeeId)?.preferences[row.kind] === 'email'),
      settings,
    );
  };
  const delivery = deliver().catch((error: unknown) =>
    app.log.error({ err: error }, 'notification delivery failed'),
  );
  // Outside a transaction the rows are committed already: answer once the sockets have them.
  if (!executor.isTransaction) await delivery;
  return stored.length;
}

/** Each row on its employee's channel (every instance's hub, through the bus). */
function publish(app: FastifyInstance, rows: readonly (NotificationRow & { employeeId: number })[]): void {
  for (const { employeeId, ...row } of rows) {
    const channel = notificationChannel(employeeId);
    app.bus.publish(channel, { type: 'notification', channel, data: row });
  }
}

/**
 * The rows once the transaction that wrote them has committed: read back from the database
 * outside it. SQLite has one connection, so the read waits for the transaction to end; on
 * PostgreSQL it is tried again until they appear. A rolled-back transaction's rows never do.
 */
async function whenCommitted<R extends NotificationRow & { employeeId: number }>(
  app: FastifyInstance,
  rows: readonly R[],
  createdAt: string,
): Promise<R[]> {
  const db = app.db as Kysely<NotificationsTables>;
  const ids = rows.map((r) => r.id);
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const visible = await db
      .selectFrom('notifications')
      .select(['id', 'employee_id', 'created_at'])
      .where('id', 'in', ids)
      .execute();
    // Same id, employee and instant: not another row that reused a rolled-back id.
    const found = new Set(
      visible
        .filter((v) => rows.some((r) => r.id === Number(v.id) && r.employeeId === Number(v.employee_id)))
        .filter((v) => new Date(v.created_at).toISOString() === createdAt)
        .map((v) => Number(v.id)),
    );
    if (found.size > 0) return rows.filter((r) => found.has(r.id));
    if (app.dialect === 'sqlite' || Date.now() - started > COMMIT_WAIT_MS) return [];
    await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 2000)));
  }
}

/** The kinds taken by email, mailed through the outbox (only when SMTP is configured). */
async function mail(
  app: FastifyInstance,
  rows: readonly (NotificationRow & { employeeId: number })[],
  settings: Map<number, { lang: Lang | null }>,
): Promise<void> {
  if (rows.length === 0 || !app.config.smtpUrl) return;
  const db = app.db as Kysely<NotificationsTables>;
  const employees = await db
    .selectFrom('employees')
    .select(['id', 'name', 'email'])
    .where('id', 'in', [...new Set(rows.map((r) => r.employeeId))])
    .execute();
  const office = await readSettings(app.db);
  const origin = process.env.MIZAN_PUBLIC_URL?.trim().replace(/\/+$/, '') ?? '';
  for (const row of rows) {
    const employee = employees.find((e) => Number(e.id) === row.employeeId);
    if (!employee?.email) continue;
    const lang: Lang = settings.get(row.employeeId)?.lang ?? office.defaultLanguage;
    const title = translate(lang, `notifications.kinds.${row.kind}.title`, row.params);
    const body = translate(lang, `notifications.kinds.${row.kind}.body`, row.params);
    const open = row.link ? `\n\n${translate(lang, 'notifications.mail.open')}: ${origin}${row.link}` : '';
    const text = `${translate(lang, 'notifications.mail.greeting', { name: employee.name })}\n\n${body}${open}\n\n${office.officeName}`;
    await app.auth.mailer.send({ to: employee.email, subject: title, text });
  }
}
