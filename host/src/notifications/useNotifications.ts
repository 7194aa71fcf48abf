import {
  genderOf,
  NOTIFICATION_PARAM_FORMATS,
  notificationChannel,
  type NotificationParams,
  type NotificationRow,
  type NotificationsPage,
  type NotificationsReadAnswer,
} from '@mizan/contracts';
import { notify, userAtom, wsClient, type WsClient } from '@mizan/sdk';
import {
  currentDateStyle,
  formatDateText,
  formatNumber,
  localizeDigits,
  useDateStyle,
  type DateStyle,
} from '@mizan/ui';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { notificationKeys, notificationsApi } from './api';

/** One param as the screens write it (`NOTIFICATION_PARAM_FORMATS`); others as they came. */
function formatParam(name: string, value: string | number, style: DateStyle): string | number {
  const format = NOTIFICATION_PARAM_FORMATS[name];
  if (value === '' || format === undefined) return value;
  if (format === 'number' || format === 'code') {
    const n = Number(value);
    return Number.isFinite(n) ? formatNumber(n, style.lng, format === 'code') : value;
  }
  if (format === 'time') return localizeDigits(String(value), style.lng);
  // A wall time (`YYYY-MM-DD HH:mm`) reads as the office wrote it: parsed as local, shown as local.
  const text = formatDateText(String(value).replace(' ', 'T'), format, style);
  return text || value;
}

/** The params of a notification, each written for the reader. */
export function formatNotificationParams(params: NotificationParams, style: DateStyle): NotificationParams {
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => [name, formatParam(name, value, style)]),
  );
}

/**
 * A notification's title and body in the reader's language (`notifications:kinds.<kind>`): dates,
 * times and numbers as every screen writes them, the verb agreeing with the gender of the
 * employee who acted (`_male`/`_female`); a kind this build does not know yet reads as its name.
 */
export function notificationText(
  t: TFunction,
  row: Pick<NotificationRow, 'kind' | 'params'>,
  style: DateStyle = currentDateStyle(),
) {
  const params = {
    ...formatNotificationParams(row.params, style),
    context: genderOf(row.params.gender) ?? undefined,
  };
  return {
    title: t(`notifications:kinds.${row.kind}.title`, { ...params, defaultValue: row.kind }),
    body: t(`notifications:kinds.${row.kind}.body`, { ...params, defaultValue: '' }),
  };
}

/** Marks `ids` (null: all) read in every cached page and sets the unread count. */
function applyRead(queries: QueryClient, ids: number[] | null, readAt: string, unread: number): void {
  queries.setQueryData(notificationKeys.unread, unread);
  queries.setQueriesData<NotificationsPage>({ queryKey: notificationKeys.lists }, (page) =>
    page
      ? {
          ...page,
          unread,
          items: page.items.map((item) =>
            !item.readAt && (ids === null || ids.includes(item.id)) ? { ...item, readAt } : item,
          ),
        }
      : page,
  );
}

/** The signed-in employee's unread count (the bell's badge). */
export function useUnreadCount() {
  const user = useAtomValue(userAtom);
  return useQuery({
    queryKey: notificationKeys.unread,
    queryFn: notificationsApi.unreadCount,
    enabled: Boolean(user),
  });
}

/**
 * Follows the employee's own channel while mounted: a new notification raises the count, refreshes
 * the lists and shows a toast; notifications read in another tab lower the count here too. After a
 * reconnection the count is asked again (what arrived meanwhile).
 */
export function useNotificationChannel(client: WsClient = wsClient): void {
  const userId = useAtomValue(userAtom)?.id;
  const queries = useQueryClient();
  const { t } = useTranslation('notifications');
  const dateStyle = useDateStyle();
  useEffect(() => {
    if (userId === undefined) return undefined;
    const stopChannel = client.subscribe(notificationChannel(userId), (message) => {
      if (message.type === 'notification') {
        queries.setQueryData<number>(notificationKeys.unread, (n) => (n === undefined ? n : n + 1));
        void queries.invalidateQueries({ queryKey: notificationKeys.lists });
        notify.info(notificationText(t, message.data, dateStyle).title);
      } else if (message.type === 'notificationsRead') {
        applyRead(queries, message.data.ids, message.data.readAt, message.data.unread);
        // A list of the unread ones loses rows: ask it again.
        void queries.invalidateQueries({ queryKey: notificationKeys.lists });
      }
    });
    const stopOpen = client.events.on('open', () => {
      void queries.invalidateQueries({ queryKey: notificationKeys.unread });
    });
    return () => {
      stopChannel();
      stopOpen();
    };
  }, [client, dateStyle, queries, t, userId]);
}

/** Marking read, one or all: the caches follow the server's answer at once. */
export function useMarkRead() {
  const queries = useQueryClient();
  const settle = (ids: number[] | null) => (answer: NotificationsReadAnswer) => {
    applyRead(queries, ids, answer.item?.readAt ?? new Date().toISOString(), answer.unread);
    void queries.invalidateQueries({ queryKey: notificationKeys.lists });
  };
  const one = useMutation({
    mutationFn: (id: number) => notificationsApi.markRead(id),
    onSuccess: (answer, id) => settle([id])(answer),
  });
  const all = useMutation({
    mutationFn: () => notificationsApi.markAllRead(),
    onSuccess: (answer) => settle(null)(answer),
  });
  return { markRead: one.mutate, markAllRead: all.mutate, markingAll: all.isPending };
}
