import { Button, Form, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  MESSAGE_CHANNELS,
  MESSAGES,
  type CustomerMessage,
  type CustomerMessageList,
  type MessageChannel,
  type MessageState,
  type SendCustomerMessageInput,
} from '@mizan/contracts';
import { api, isApiError, notify } from '@mizan/sdk';

const STATE_COLOR: Record<MessageState, string> = {
  queued: 'gold',
  sent: 'blue',
  delivered: 'green',
  failed: 'red',
};

/** Query key of a client's messages. */
export const customerMessagesKey = (customerId: number) => ['clients', 'messages', customerId] as const;
const urlOf = (customerId: number) => MESSAGES.customer.replace(':id', String(customerId));

/**
 * A client's communications tab: every message sent to them (by an event or by staff), newest
 * first, with its state and, while it waits or when it failed, the provider's reason; a form sends a
 * one-off message on a channel the client agreed to. Messages are sent in the background: the list
 * refreshes every few seconds while one is queued.
 */
export function CustomerMessages({ customerId, canSend }: { customerId: number; canSend: boolean }) {
  const { t, i18n } = useTranslation('clients');
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SendCustomerMessageInput>();
  const channel = Form.useWatch('channel', form) as MessageChannel | undefined;
  const list = useQuery({
    queryKey: customerMessagesKey(customerId),
    queryFn: () => api.get<CustomerMessageList>(urlOf(customerId)),
    refetchInterval: (query) => (query.state.data?.items.some((m) => m.state === 'queued') ? 3000 : false),
  });
  const send = useMutation({
    mutationFn: (body: SendCustomerMessageInput) =>
      api.post<CustomerMessage>(urlOf(customerId), body, { silent: true }),
    onSuccess: () => {
      notify.success(t('messages.queued'));
      form.resetFields(['body', 'subject']);
    },
    onError: (error) => {
      const errors = isApiError(error) ? error.errors : {};
      const fields = (['channel', 'body', 'subject'] as const).filter((name) => errors[name]?.length);
      if (fields.length) form.setFields(fields.map((name) => ({ name, errors: errors[name]!.slice(0, 1) })));
      else notify.error(error.message);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: customerMessagesKey(customerId) }),
  });
  const when = new Intl.DateTimeFormat(i18n.language === 'ar' ? 'ar-EG' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
  });

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="large">
      {canSend && (
        <Form
          form={form}
          layout="vertical"
          aria-label={t('messages.sendTitle')}
          initialValues={{ channel: 'sms' }}
          onFinish={(values) => send.mutate(values)}
        >
          <Typography.Title level={5}>{t('messages.sendTitle')}</Typography.Title>
          <Form.Item name="channel" label={t('messages.channel')} rules={[{ required: true }]}>
            <Select
              options={MESSAGE_CHANNELS.map((value) => ({ value, label: t(`messages.channels.${value}`) }))}
            />
          </Form.Item>
          {channel === 'email' && (
            <Form.Item name="subject" label={t('messages.subject')}>
              <Input maxLength={200} />
            </Form.Item>
          )}
          <Form.Item
            name="body"
            label={t('messages.body')}
            rules={[{ required: true, whitespace: true, message: t('messages.bodyRequired') }]}
          >
            <Input.TextArea rows={3} maxLength={1000} showCount />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={send.isPending}>
            {t('messages.send')}
          </Button>
        </Form>
      )}
      <Table<CustomerMessage>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        pagination={false}
        locale={{ emptyText: t('messages.none') }}
        columns={[
          { key: 'createdAt', title: t('messages.at'), render: (_, m) => when.format(new Date(m.createdAt)) },
          {
            key: 'channel',
            title: t('messages.channel'),
            render: (_, m) => t(`messages.channels.${m.channel}`),
          },
          { key: 'to', title: t('messages.to'), render: (_, m) => <bdi>{m.to}</bdi> },
          {
            key: 'event',
            title: t('messages.event'),
            render: (_, m) =>
              m.event
                ? t(`messageTemplates.values.event.${m.event}`, { ns: 'entities' })
                : t('messages.oneOff'),
          },
          { key: 'body', title: t('messages.body'), dataIndex: 'body', ellipsis: true },
          {
            key: 'state',
            title: t('messages.state'),
            render: (_, m) => (
              <Space orientation="vertical" size={0}>
                <Tag color={STATE_COLOR[m.state]} data-state={m.state}>
                  {t(`messages.states.${m.state}`)}
                </Tag>
                {m.reason && <Typography.Text type="secondary">{m.reason}</Typography.Text>}
              </Space>
            ),
          },
        ]}
      />
    </Space>
  );
}
