import {
  localizeDigits,
  NOTIFICATION_PARAM_FORMATS,
  notificationChannel,
  type NotificationKind,
  type NotificationParams,
  type NotificationRow,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Db } from '../db';
import { dateTexts, type FormatStyle } from '../documents/fields';
import type { WriteContext } from '../engine/context';
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

/**
 * The `gender` param of a notification naming the acting employee (`by`, `sender`): the texts'
 * verb agrees with it. Nothing when the employee gave none (the plain text).
 */
export function actorGender(ctx: { user: { gender: string | null } | null }): { gender?: string } {
  return ctx.user?.gender ? { gender: ctx.user.gender } : {};
}

/** Rows per INSERT (SQLite's bound-parameter limit). */
const CHUNK = 500;

/**
 * Stores notifications and delivers them: each employee's sockets (their channel) hear the new
 * row, and the kinds the employee takes by email are mailed too (when SMTP is configured), in
 * the employee's language (the one they last used the app in; else the office's). An employee
 * who turned a kind off gets nothing; a `key` already sent to that employee is skipped. Answers
 * how many rows were stored.
 *
 * `target` is the database (the rows are stored in their own transaction and delivered at once)
 * or a write's context (`app.entities.transaction`, an entity hook's `ctx`): the rows join its
 * transaction and are delivered when it commits, through its unit of work; a write that rolls
 * back stores and delivers nothing.
 *
 * @example
 * await app.entities.transaction(actor, (ctx) =>
 *   notify(app, ctx, [{ employeeId: 3, kind: 'hearingTomorrow', key: 'hearingTomorrow:41',
 *     params: { fileNumber: '12/2026', date: '2026-11-24', time: '09:30', court: 'North Cairo' },
 *     link: '/admin/lawsuits/sessions/41' }]));
 */
export async function notify(
  app: FastifyInstance,
  target: Db | WriteContext,
  inputs: readonly NotifyInput[],
): Promise<number> {
  if (inputs.length === 0) return 0;
  const write = 'work' in target ? target : null;
  const executor = (write ? write.trx : target) as Kysely<NotificationsTables>;
  const settings = await readEmployeeSettings(executor, [...new Set(inputs.map((i) => i.employeeId))]);
  const createdAt = app.clock().toISOString();
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
  const stored = write ? await insert(executor) : await executor.transaction().execute(insert);
  if (stored.length === 0) return 0;

  const mailed = stored.filter((row) => settings.get(row.employeeId)?.preferences[row.kind] === 'email');
  const sendMail = () =>
    mail(app, mailed, settings).catch((error: unknown) =>
      app.log.error({ err: error }, 'notification mail failed'),
    );
  if (write) {
    // Published and mailed by the write's transaction once it commits (engine/context.ts).
    write.work.events.push(...events(stored));
    write.work.afterCommit.push(sendMail);
  } else {
    for (const { channel, message } of events(stored)) app.bus.publish(channel, message);
    await sendMail();
  }
  return stored.length;
}

/** Each row as an event on its employee's channel (every instance's hub, through the bus). */
function events(rows: readonly (NotificationRow & { employeeId: number })[]) {
  return rows.map(({ employeeId, ...row }) => {
    const channel = notificationChannel(employeeId);
    return { channel, message: { type: 'notification' as const, channel, data: row } };
  });
}

/**
 * A notification's params as a mail writes them, as the app does (`NOTIFICATION_PARAM_FORMATS`):
 * dates in the office's calendars (the first one, the other in brackets), times and numbers in the
 * language's digits; never the stored `YYYY-MM-DD`.
 */
export function mailParams(params: NotificationParams, style: FormatStyle): NotificationParams {
  const number = (value: number, code: boolean) =>
    new Intl.NumberFormat(style.lng === 'ar' ? 'ar-EG' : 'en', { useGrouping: !code }).format(value);
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => {
      const format = NOTIFICATION_PARAM_FORMATS[name];
      const text = String(value);
      if (value === '' || format === undefined) return [name, value];
      if (format === 'number' || format === 'code')
        return [name, Number.isFinite(Number(value)) ? number(Number(value), format === 'code') : value];
      if (format === 'time') return [name, localizeDigits(text, style.lng)];
      // A wall time (`YYYY-MM-DD HH:mm`, the office's clock): its day in both calendars, then the time.
      const wall = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}))?$/.exec(text);
      if (!wall) return [name, format === 'datetime' ? dateTexts(text, 'datetime', style).both : value];
      const day = dateTexts(wall[1]!, 'date', style).both;
      return [name, wall[2] ? `${day} ${localizeDigits(wall[2], style.lng)}` : day];
    }),
  );
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
    // The verb agrees with who acted, as in the app (`_female`).
    const style: FormatStyle = {
      lng: lang,
      calendar: office.calendar,
      country: office.officeCountry,
      timeZone: office.timeZone,
    };
    const params = { ...mailParams(row.params, style), context: row.params.gender };
    const title = translate(lang, `notifications.kinds.${row.kind}.title`, params);
    const body = translate(lang, `notifications.kinds.${row.kind}.body`, params);
    const open = row.link ? `\n\n${translate(lang, 'notifications.mail.open')}: ${origin}${row.link}` : '';
    const text = `${translate(lang, 'notifications.mail.greeting', { name: employee.name })}\n\n${body}${open}\n\n${office.officeName}`;
    await app.auth.mailer.send({ to: employee.email, subject: title, text });
  }
}
