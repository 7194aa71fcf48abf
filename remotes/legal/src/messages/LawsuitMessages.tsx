import {
  MESSAGES,
  type CustomerMessage,
  type CustomerMessageList,
  type MessageState,
} from '@mizan/contracts';
import { api } from '@mizan/sdk';
import { useQuery } from '@tanstack/react-query';
import { Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { withId } from '../api';

const STATE_COLOR: Record<MessageState, string> = {
  queued: 'gold',
  sent: 'blue',
  delivered: 'green',
  failed: 'red',
};

/**
 * A lawsuit's communications tab: the messages its events sent its clients (and the one-off ones
 * staff sent about it from a client's page), newest first, with their state and the provider's
 * reason; refreshed every few seconds while one is queued.
 */
export function LawsuitMessages({ lawsuitId }: { lawsuitId: number }) {
  const { t, i18n } = useTranslation('legal');
  const list = useQuery({
    queryKey: ['legal', 'messages', lawsuitId],
    queryFn: () => api.get<CustomerMessageList>(withId(MESSAGES.lawsuit, lawsuitId)),
    refetchInterval: (query) => (query.state.data?.items.some((m) => m.state === 'queued') ? 3000 : false),
  });
  const when = new Intl.DateTimeFormat(i18n.language === 'ar' ? 'ar-EG' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (
    <Table<CustomerMessage>
      rowKey="id"
      size="small"
      loading={list.isLoading}
      dataSource={list.data?.items ?? []}
      pagination={false}
      locale={{ emptyText: t('lawsuits.messages.none') }}
      columns={[
        { key: 'at', title: t('lawsuits.messages.at'), render: (_, m) => when.format(new Date(m.createdAt)) },
        {
          key: 'channel',
          title: t('lawsuits.messages.channel'),
          render: (_, m) => t(`lawsuits.messages.channels.${m.channel}`),
        },
        { key: 'to', title: t('lawsuits.messages.to'), render: (_, m) => <bdi>{m.to}</bdi> },
        {
          key: 'event',
          title: t('lawsuits.messages.event'),
          render: (_, m) =>
            m.event
              ? t(`messageTemplates.values.event.${m.event}`, { ns: 'entities' })
              : t('lawsuits.messages.oneOff'),
        },
        { key: 'body', title: t('lawsuits.messages.body'), dataIndex: 'body', ellipsis: true },
        {
          key: 'state',
          title: t('lawsuits.messages.state'),
          render: (_, m) => (
            <Space orientation="vertical" size={0}>
              <Tag color={STATE_COLOR[m.state]}>{t(`lawsuits.messages.states.${m.state}`)}</Tag>
              {m.reason && <Typography.Text type="secondary">{m.reason}</Typography.Text>}
            </Space>
          ),
        },
      ]}
    />
  );
}
