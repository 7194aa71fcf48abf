import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../entity';
import { answer, route } from '../route';

/**
 * The notification centre: one `notifications` table per employee, the routes under
 * `/api/notifications` and the employee's own WebSocket channel. Areas add kinds here (append
 * only) with their texts `notifications:kinds.<kind>.title|body` in both languages; they never
 * build a mechanism of their own.
 */

/** What a notification is about. Append only: stored rows and preferences name these. */
export const NOTIFICATION_KINDS = [
  'hearingTomorrow',
  'hearingToday',
  'hearingNoDecision',
  'procurationExpiring',
  'taskAssigned',
  'taskComment',
  'taskState',
  'taskDueTomorrow',
  'taskOverdue',
  'chatMention',
  'deadlineDue',
  'backupFailed',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * The kinds the scheduler sends at a time of day, and which of the system settings' reminder times
 * (`reminderEveningTime`, `reminderMorningTime`): the reminder jobs run at it, and the preferences
 * screen says when each comes. The other kinds come as their event happens.
 */
export const SCHEDULED_NOTIFICATIONS = {
  hearingTomorrow: 'evening',
  hearingToday: 'morning',
  hearingNoDecision: 'morning',
  procurationExpiring: 'morning',
  taskDueTomorrow: 'evening',
  taskOverdue: 'morning',
  deadlineDue: 'morning',
} as const satisfies Partial<Record<NotificationKind, 'evening' | 'morning'>>;
export type ScheduledNotificationKind = keyof typeof SCHEDULED_NOTIFICATIONS;

/** How an employee receives a kind: in the app (the bell), by email as well (when SMTP is set), or not at all. */
export const NOTIFICATION_CHANNELS = ['app', 'email', 'off'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** An employee's choice per kind; every kind is present in answers. */
export type NotificationPreferences = Record<NotificationKind, NotificationChannel>;

/** Every kind in the app until the employee chooses otherwise. */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = Object.fromEntries(
  NOTIFICATION_KINDS.map((kind) => [kind, 'app']),
) as NotificationPreferences;

/** The values a kind's texts are filled with (`{{fileNumber}}`, `{{date}}`...). */
export type NotificationParams = Record<string, string | number>;

/**
 * How a notification's params read, by name: stored as data (a date `YYYY-MM-DD`, a wall time
 * `YYYY-MM-DD HH:mm` in the office's zone, `HH:mm`, a number), written by the reader's app as
 * every other screen writes them (both calendars, the language's digits). `gender` is the gender
 * of the employee the text names as acting (`by`, `sender`): the text's `_male`/`_female` form.
 */
export const NOTIFICATION_PARAM_FORMATS: Readonly<
  Record<string, 'date' | 'datetime' | 'time' | 'number' | 'code'>
> = {
  date: 'date',
  expiresOn: 'date',
  dueDate: 'date',
  dueAt: 'datetime',
  time: 'time',
  days: 'number',
  year: 'code',
  number: 'code',
};

/**
 * One notification as the API and the live channel carry it. The texts are the client's
 * (`notifications:kinds.<kind>.title|body` with `params`), so they follow the reader's language.
 *
 * @example
 * { id: 7, kind: 'hearingTomorrow', params: { fileNumber: '12/2026', date: '2026-11-24', time: '09:30', court: 'North Cairo' },
 *   link: '/admin/lawsuits/sessions/41', readAt: null, createdAt: '2026-11-23T16:00:00.000Z' }
 */
export interface NotificationRow {
  id: number;
  kind: NotificationKind;
  params: NotificationParams;
  /** The record's screen route (`/admin/lawsuits/sessions/41`), or null. */
  link: string | null;
  readAt: string | null;
  createdAt: string;
}

/** The employee's own channel: the hub lets only that employee join it. */
export const notificationChannel = (employeeId: number) => `user:${employeeId}`;

const positive = z.coerce
  .number({ error: 'validation.types.integer' })
  .int({ error: 'validation.types.integer' })
  .positive({ error: 'validation.types.integer' });

/** `GET /api/notifications`: newest first, paged; `unread=true` keeps the unread ones. */
export const notificationsQuery = z
  .object({
    page: positive.default(1),
    pageSize: positive.max(MAX_PAGE_SIZE, { error: 'validation.number.max' }).default(DEFAULT_PAGE_SIZE),
    unread: z
      .enum(['true', 'false'], { error: 'validation.enum' })
      .optional()
      .transform((v) => v === 'true'),
  })
  .strip();
export type NotificationsQuery = z.input<typeof notificationsQuery>;

/** The `data` of `GET /api/notifications`. */
export interface NotificationsPage {
  items: NotificationRow[];
  total: number;
  page: number;
  pageSize: number;
  /** The employee's unread notifications, whatever the filter. */
  unread: number;
}

/** The `data` of `GET /api/notifications/unread-count`. */
export interface NotificationsUnreadCount {
  unread: number;
}

/** The `data` of `PATCH /api/notifications/:id/read` and `PATCH /api/notifications/read-all`. */
export interface NotificationsReadAnswer {
  /** The notification marked read (one), or null (all). */
  item: NotificationRow | null;
  /** How many were marked read now. */
  marked: number;
  unread: number;
}

/**
 * `PUT /api/notifications/preferences`: the kinds to change (others keep their choice). An
 * unknown kind or channel is a field error (422) on that kind.
 *
 * @example { hearingTomorrow: 'email', procurationExpiring: 'off' }
 */
export const notificationPreferencesBody = z
  .record(z.string(), z.unknown())
  .superRefine((value, ctx) => {
    for (const [kind, channel] of Object.entries(value)) {
      if (!(NOTIFICATION_KINDS as readonly string[]).includes(kind)) {
        ctx.addIssue({
          code: 'custom',
          path: [kind],
          message: 'validation.enum',
          values: [...NOTIFICATION_KINDS],
        });
      } else if (!(NOTIFICATION_CHANNELS as readonly unknown[]).includes(channel)) {
        ctx.addIssue({
          code: 'custom',
          path: [kind],
          message: 'validation.enum',
          values: [...NOTIFICATION_CHANNELS],
        });
      }
    }
  })
  .transform((value) => value as Partial<NotificationPreferences>);
export type NotificationPreferencesBody = Partial<NotificationPreferences>;

/** The `data` of `GET` and `PUT /api/notifications/preferences`. */
export interface NotificationPreferencesAnswer {
  preferences: NotificationPreferences;
  /** Whether the server can send mail (SMTP configured): without it 'email' acts as 'app'. */
  emailAvailable: boolean;
  /**
   * When the scheduled kinds come (`SCHEDULED_NOTIFICATIONS`): the office's reminder times
   * (`HH:mm`, office time zone) and the days before expiry a power of attorney is reminded of.
   */
  schedule: { evening: string; morning: string; procurationDays: number[] };
}

/**
 * Frames on the employee's channel (`notificationChannel(id)`): a new notification, and the
 * unread count after notifications were marked read (every tab of the employee follows).
 */
export type NotificationLiveMessage =
  | { type: 'notification'; channel: string; data: NotificationRow }
  | {
      type: 'notificationsRead';
      channel: string;
      /** `ids` marked read, or null for all. */
      data: { ids: number[] | null; unread: number; readAt: string };
    };

/** The signed-in employee's notifications and how they receive them. */
export const NOTIFICATION_ROUTES = {
  list: route({
    method: 'GET',
    path: '/notifications',
    permission: null,
    summary: 'The signed-in employee’s notifications, newest first',
    query: notificationsQuery,
    answer: answer<NotificationsPage>(),
  }),
  unreadCount: route({
    method: 'GET',
    path: '/notifications/unread-count',
    permission: null,
    summary: 'How many of the signed-in employee’s notifications are unread',
    answer: answer<NotificationsUnreadCount>(),
  }),
  readAll: route({
    method: 'PATCH',
    path: '/notifications/read-all',
    permission: null,
    summary: 'Mark every notification of the signed-in employee read',
    answer: answer<NotificationsReadAnswer>(),
  }),
  read: route({
    method: 'PATCH',
    path: '/notifications/:id/read',
    permission: null,
    summary: 'Mark one notification read (404 unless it is the signed-in employee’s)',
    answer: answer<NotificationsReadAnswer>(),
  }),
  preferences: route({
    method: 'GET',
    path: '/notifications/preferences',
    permission: null,
    summary: 'How the signed-in employee receives each kind',
    answer: answer<NotificationPreferencesAnswer>(),
  }),
  savePreferences: route({
    method: 'PUT',
    path: '/notifications/preferences',
    permission: null,
    summary: 'Choose per kind: in the app, by email, or off (422 on an unknown kind or channel)',
    body: notificationPreferencesBody,
    answer: answer<NotificationPreferencesAnswer>(),
  }),
};
