import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  SCHEDULED_NOTIFICATIONS,
  type NotificationChannel,
  type NotificationKind,
  type NotificationPreferencesAnswer,
} from '@mizan/contracts';
import { notify } from '@mizan/sdk';
import { formatNumber, localizeDigits } from '@mizan/ui';
import type { TFunction } from 'i18next';
import { Alert, Card, Flex, Radio, Skeleton, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notificationKeys, notificationsApi } from './api';

/**
 * When a kind comes: the reminder time of the office (and, for powers of attorney, the days before
 * expiry) for the scheduled kinds, "as it happens" for the others.
 */
function whenText(
  t: TFunction<'notifications'>,
  lng: string,
  kind: NotificationKind,
  schedule: NotificationPreferencesAnswer['schedule'],
): string {
  if (!(kind in SCHEDULED_NOTIFICATIONS)) return t('preferences.when.events');
  const at = SCHEDULED_NOTIFICATIONS[kind as keyof typeof SCHEDULED_NOTIFICATIONS];
  const time = localizeDigits(schedule[at], lng);
  const days = new Intl.ListFormat(lng, { type: 'disjunction' }).format(
    schedule.procurationDays.map((count) =>
      t('preferences.days.days', { count, n: formatNumber(count, lng) }),
    ),
  );
  return t(`preferences.when.${kind as keyof typeof SCHEDULED_NOTIFICATIONS}`, { time, days });
}

/** How each kind of notification reaches the employee: in the app, by email, or off (saved per change). */
export function NotificationPreferences() {
  const { t, i18n } = useTranslation('notifications');
  const queries = useQueryClient();
  const current = useQuery({ queryKey: notificationKeys.preferences, queryFn: notificationsApi.preferences });
  const save = useMutation({
    mutationFn: (change: Partial<Record<NotificationKind, NotificationChannel>>) =>
      notificationsApi.savePreferences(change),
    onSuccess: (answer) => {
      queries.setQueryData(notificationKeys.preferences, answer);
      notify.success(t('preferences.saved'));
    },
  });

  return (
    <Card title={t('preferences.title')}>
      {current.isPending ? (
        <Skeleton active />
      ) : current.isError ? (
        <Alert type="error" showIcon title={current.error.message} />
      ) : (
        <Flex vertical gap={12}>
          <Typography.Text type="secondary">{t('preferences.hint')}</Typography.Text>
          {current.data.emailAvailable ? null : (
            <Alert type="info" showIcon title={t('preferences.emailUnavailable')} />
          )}
          {NOTIFICATION_KINDS.map((kind) => {
            const value = current.data.preferences[kind];
            const label = t(`preferences.kinds.${kind}`);
            return (
              <Flex key={kind} justify="space-between" align="center" gap={8} wrap>
                <Flex vertical>
                  <Typography.Text id={`notification-kind-${kind}`}>{label}</Typography.Text>
                  <Typography.Text type="secondary" data-testid={`notification-when-${kind}`}>
                    {whenText(t, i18n.language, kind, current.data.schedule)}
                  </Typography.Text>
                </Flex>
                <Radio.Group
                  aria-labelledby={`notification-kind-${kind}`}
                  optionType="button"
                  size="small"
                  value={value}
                  disabled={save.isPending}
                  onChange={(event) => save.mutate({ [kind]: event.target.value as NotificationChannel })}
                  options={NOTIFICATION_CHANNELS.map((channel) => ({
                    value: channel,
                    label: t(`preferences.channels.${channel}`),
                    // Without SMTP email cannot be chosen (a choice made earlier stays shown).
                    disabled: channel === 'email' && !current.data.emailAvailable && value !== 'email',
                  }))}
                />
              </Flex>
            );
          })}
        </Flex>
      )}
    </Card>
  );
}
