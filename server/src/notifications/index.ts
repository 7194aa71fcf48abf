import {
  NOTIFICATION_ROUTES,
  notificationChannel,
  type NotificationPreferencesAnswer,
  type NotificationsPage,
  type NotificationsReadAnswer,
  type NotificationsUnreadCount,
} from '@mizan/contracts';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from '../http/errors';
import { requestLanguage } from '../http/messages';
import { defineRoute } from '../http/route';
import { readSettings } from '../system';
import {
  listNotifications,
  markAllRead,
  markRead,
  readEmployeeSettings,
  rememberLanguage,
  savePreferences,
  unreadCount,
  type NotificationsTables,
} from './store';

export { notificationsMigrations } from './migrations';
export { actorGender, notify, type NotifyInput } from './send';

/** `user:<id>`: only that employee's sockets may join it. */
const USER_CHANNEL = /^user:(\d+)$/;

/** Tells the employee's other tabs the new unread count after notifications were read. */
function publishRead(
  app: FastifyInstance,
  employeeId: number,
  ids: number[] | null,
  unread: number,
  at: string,
) {
  const channel = notificationChannel(employeeId);
  app.bus.publish(channel, { type: 'notificationsRead', channel, data: { ids, unread, readAt: at } });
}

/**
 * The notification centre: the employee's own list, unread count, marking read and choices per
 * kind under `/api/notifications` (any signed-in employee, only their own rows), and the hub
 * guard of the per-employee channel. Senders call `notify` (send.ts).
 */
export const notificationsPlugin: FastifyPluginAsync = async (app) => {
  const db = app.db as Kysely<NotificationsTables>;
  const labels = 'notifications.labels';
  const me = (request: FastifyRequest) => request.user!.id;

  // The hub is registered after the modules: its guard is added once the app is ready.
  app.addHook('onReady', async () => {
    app.hub.guard((user, channel) => {
      const match = USER_CHANNEL.exec(channel);
      return match ? Number(match[1]) === user.id : undefined;
    });
  });

  defineRoute(app, NOTIFICATION_ROUTES.list, {
    labels,
    handler: async (request, { query }) => {
      const [page, unread] = await Promise.all([
        listNotifications(db, me(request), query),
        unreadCount(db, me(request)),
      ]);
      const data: NotificationsPage = { ...page, page: query.page, pageSize: query.pageSize, unread };
      return { data };
    },
  });

  defineRoute(app, NOTIFICATION_ROUTES.unreadCount, {
    labels,
    handler: async (request) => {
      // The bell asks at start: the language the employee reads in is the one their mail is in.
      await rememberLanguage(db, me(request), requestLanguage(request));
      const data: NotificationsUnreadCount = { unread: await unreadCount(db, me(request)) };
      return { data };
    },
  });

  defineRoute(app, NOTIFICATION_ROUTES.readAll, {
    labels,
    handler: async (request) => {
      const at = new Date().toISOString();
      const marked = await markAllRead(db, me(request), at);
      const unread = await unreadCount(db, me(request));
      if (marked > 0) publishRead(app, me(request), null, unread, at);
      const data: NotificationsReadAnswer = { item: null, marked, unread };
      return { data };
    },
  });

  defineRoute(app, NOTIFICATION_ROUTES.read, {
    labels,
    handler: async (request, { params: { id } }) => {
      const at = new Date().toISOString();
      const result = await markRead(db, me(request), id, at);
      if (!result) throw new AppError('notFound');
      const unread = await unreadCount(db, me(request));
      if (result.marked > 0) publishRead(app, me(request), [id], unread, at);
      const data: NotificationsReadAnswer = { item: result.row, marked: result.marked, unread };
      return { data };
    },
  });

  const preferencesAnswer = async (employeeId: number): Promise<NotificationPreferencesAnswer> => {
    const settings = await readSettings(app.db);
    return {
      preferences: (await readEmployeeSettings(db, [employeeId])).get(employeeId)!.preferences,
      emailAvailable: Boolean(app.config.smtpUrl),
      schedule: {
        evening: settings.reminderEveningTime,
        morning: settings.reminderMorningTime,
        procurationDays: [...settings.procurationReminderDays].sort((a, b) => b - a),
      },
    };
  };

  defineRoute(app, NOTIFICATION_ROUTES.preferences, {
    labels,
    handler: async (request) => ({ data: await preferencesAnswer(me(request)) }),
  });

  defineRoute(app, NOTIFICATION_ROUTES.savePreferences, {
    labels,
    handler: async (request, { body }) => {
      await savePreferences(db, me(request), body, requestLanguage(request));
      return { data: await preferencesAnswer(me(request)) };
    },
  });
};
// Hooks and routes belong to the app, not an encapsulated child context.
(notificationsPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
