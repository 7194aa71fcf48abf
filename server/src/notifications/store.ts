import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  type NotificationChannel,
  type NotificationKind,
  type NotificationParams,
  type NotificationPreferences,
  type NotificationRow,
} from '@mizan/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Lang } from '../http/messages';

/** The notification tables as this module reads and writes them. */
export interface NotificationsTables {
  notifications: {
    id: import('kysely').Generated<number>;
    employee_id: number;
    kind: string;
    params: string;
    link: string | null;
    key: string | null;
    read_at: string | null;
    created_at: string;
  };
  notification_preferences: {
    employee_id: number;
    channels: string;
    lang: string | null;
    updated_at: string;
  };
  employees: { id: number; name: string; email: string };
}

/** The database or an open transaction on it. */
export type Executor = Kysely<NotificationsTables> | Transaction<NotificationsTables>;

/** A row as `ROW_COLUMNS` select it. */
interface StoredRow {
  id: number;
  employee_id: number;
  kind: string;
  params: string;
  link: string | null;
  read_at: string | null;
  created_at: string;
}

export const ROW_COLUMNS = ['id', 'employee_id', 'kind', 'params', 'link', 'read_at', 'created_at'] as const;

export function toRow(row: StoredRow): NotificationRow {
  let params: NotificationParams = {};
  try {
    params = JSON.parse(row.params) as NotificationParams;
  } catch {
    // A row written by hand with bad JSON still lists, without its values.
  }
  return {
    id: Number(row.id),
    kind: row.kind as NotificationKind,
    params,
    link: row.link,
    readAt: row.read_at,
    createdAt: row.created_at,
  };
}

/** An employee's stored choices over the defaults; unknown kinds or channels in the JSON are ignored. */
export function preferencesOf(channels: string | null | undefined): NotificationPreferences {
  const preferences = { ...DEFAULT_NOTIFICATION_PREFERENCES };
  if (!channels) return preferences;
  let stored: Record<string, unknown>;
  try {
    stored = JSON.parse(channels) as Record<string, unknown>;
  } catch {
    return preferences;
  }
  for (const kind of NOTIFICATION_KINDS) {
    const channel = stored[kind];
    if ((NOTIFICATION_CHANNELS as readonly unknown[]).includes(channel))
      preferences[kind] = channel as NotificationChannel;
  }
  return preferences;
}

export interface EmployeeSettings {
  preferences: NotificationPreferences;
  lang: Lang | null;
}

/** The choices and known language of each of `employeeIds` (defaults for those without a row). */
export async function readEmployeeSettings(
  db: Executor,
  employeeIds: readonly number[],
): Promise<Map<number, EmployeeSettings>> {
  const settings = new Map<number, EmployeeSettings>();
  for (const id of employeeIds) settings.set(id, { preferences: preferencesOf(null), lang: null });
  if (employeeIds.length === 0) return settings;
  const rows = await db
    .selectFrom('notification_preferences')
    .select(['employee_id', 'channels', 'lang'])
    .where('employee_id', 'in', [...employeeIds])
    .execute();
  for (const row of rows) {
    settings.set(Number(row.employee_id), {
      preferences: preferencesOf(row.channels),
      lang: row.lang === 'ar' || row.lang === 'en' ? row.lang : null,
    });
  }
  return settings;
}

/** Saves `changes` over the employee's current choices (and their language); answers all choices. */
export async function savePreferences(
  db: Kysely<NotificationsTables>,
  employeeId: number,
  changes: Partial<NotificationPreferences>,
  lang: Lang,
): Promise<NotificationPreferences> {
  return db.transaction().execute(async (trx) => {
    const current = (await readEmployeeSettings(trx, [employeeId])).get(employeeId)!.preferences;
    const next = { ...current, ...changes };
    const channels = JSON.stringify(next);
    const updatedAt = new Date().toISOString();
    await trx
      .insertInto('notification_preferences')
      .values({ employee_id: employeeId, channels, lang, updated_at: updatedAt })
      .onConflict((oc) => oc.column('employee_id').doUpdateSet({ channels, lang, updated_at: updatedAt }))
      .execute();
    return next;
  });
}

/** Remembers the language the employee uses the app in (their mail's), when it changed. */
export async function rememberLanguage(
  db: Kysely<NotificationsTables>,
  employeeId: number,
  lang: Lang,
): Promise<void> {
  const updatedAt = new Date().toISOString();
  await db
    .insertInto('notification_preferences')
    .values({ employee_id: employeeId, channels: '{}', lang, updated_at: updatedAt })
    .onConflict((oc) =>
      oc
        .column('employee_id')
        .doUpdateSet({ lang, updated_at: updatedAt })
        .where((eb) =>
          eb.or([
            eb('notification_preferences.lang', 'is', null),
            eb('notification_preferences.lang', '!=', lang),
          ]),
        ),
    )
    .execute();
}

export async function unreadCount(db: Executor, employeeId: number): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('employee_id', '=', employeeId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** One page of the employee's notifications, newest first. */
export async function listNotifications(
  db: Executor,
  employeeId: number,
  query: { page: number; pageSize: number; unread: boolean },
): Promise<{ items: NotificationRow[]; total: number }> {
  let base = db.selectFrom('notifications').where('employee_id', '=', employeeId);
  if (query.unread) base = base.where('read_at', 'is', null);
  const [rows, count] = await Promise.all([
    base
      .select([...ROW_COLUMNS])
      .orderBy('id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { items: rows.map(toRow), total: Number(count?.n ?? 0) };
}

/**
 * Marks one of the employee's notifications read (kept as it was when already read). Null when
 * there is no such notification of theirs: another employee's is not theirs to touch.
 */
export async function markRead(
  db: Kysely<NotificationsTables>,
  employeeId: number,
  id: number,
  at: string,
): Promise<{ row: NotificationRow; marked: number } | null> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('id', '=', id)
    .where('employee_id', '=', employeeId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  const row = await db
    .selectFrom('notifications')
    .select([...ROW_COLUMNS])
    .where('id', '=', id)
    .where('employee_id', '=', employeeId)
    .executeTakeFirst();
  return row ? { row: toRow(row), marked: Number(result.numUpdatedRows) } : null;
}

/** Marks every unread notification of the employee read; answers how many. */
export async function markAllRead(
  db: Kysely<NotificationsTables>,
  employeeId: number,
  at: string,
): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('employee_id', '=', employeeId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
