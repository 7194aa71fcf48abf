import { NOTIFICATION_ROUTES, type NotificationPreferencesBody } from '@mizan/contracts';
import { api } from '@mizan/sdk';

/** Query keys of the notification centre: every one starts with `notifications`. */
export const notificationKeys = {
  all: ['notifications'] as const,
  unread: ['notifications', 'unread'] as const,
  lists: ['notifications', 'list'] as const,
  list: (page: number, unread: boolean) => ['notifications', 'list', { page, unread }] as const,
  preferences: ['notifications', 'preferences'] as const,
};

export const NOTIFICATIONS_PAGE_SIZE = 10;

/** The signed-in employee's notifications (`/api/notifications`); answers unwrapped by the SDK. */
export const notificationsApi = {
  list: (page: number, unread: boolean) =>
    api.call(NOTIFICATION_ROUTES.list, {
      query: { page, pageSize: NOTIFICATIONS_PAGE_SIZE, ...(unread ? { unread: 'true' } : {}) },
    }),
  // The bell asks in the background: a failure shows no toast (the badge stays as it was).
  unreadCount: () => api.call(NOTIFICATION_ROUTES.unreadCount, {}, { silent: true }).then((r) => r.unread),
  markRead: (id: number) => api.call(NOTIFICATION_ROUTES.read, { params: { id } }),
  markAllRead: () => api.call(NOTIFICATION_ROUTES.readAll),
  preferences: () => api.call(NOTIFICATION_ROUTES.preferences),
  savePreferences: (changes: NotificationPreferencesBody) =>
    api.call(NOTIFICATION_ROUTES.savePreferences, { body: changes }),
};
