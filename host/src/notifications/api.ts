import {
  NOTIFICATIONS,
  notificationReadPath,
  type NotificationPreferencesAnswer,
  type NotificationPreferencesBody,
  type NotificationsPage,
  type NotificationsReadAnswer,
  type NotificationsUnreadCount,
} from '@mizan/contracts';
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
    api.get<NotificationsPage>(NOTIFICATIONS.base, {
      params: { page, pageSize: NOTIFICATIONS_PAGE_SIZE, ...(unread ? { unread: 'true' } : {}) },
    }),
  // The bell asks in the background: a failure shows no toast (the badge stays as it was).
  unreadCount: () =>
    api.get<NotificationsUnreadCount>(NOTIFICATIONS.unreadCount, { silent: true }).then((r) => r.unread),
  markRead: (id: number) => api.patch<NotificationsReadAnswer>(notificationReadPath(id)),
  markAllRead: () => api.patch<NotificationsReadAnswer>(NOTIFICATIONS.readAll),
  preferences: () => api.get<NotificationPreferencesAnswer>(NOTIFICATIONS.preferences),
  savePreferences: (changes: NotificationPreferencesBody) =>
    api.put<NotificationPreferencesAnswer>(NOTIFICATIONS.preferences, changes),
};
