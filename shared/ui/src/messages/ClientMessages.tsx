import {
  MESSAGE_CHANNELS,
  MESSAGE_ROUTES,
  type CustomerMessage,
  type MessageChannel,
  type MessageState,
  type SendCustomerMessageInput,
} from '@mizan/contracts';
import { api, isApiError, notify } from '@mizan/sdk';
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { Button, Form, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { RefSelect } from '../fields/RefSelect';

const STATE_COLOR: Record<MessageState, string> = {
  queued: 'gold',
  sent: 'blue',
  delivered: 'green',
  failed: 'red',
};

/** Whose messages a communications tab shows: a client's or a lawsuit's. */
export type MessagesOf = { customerId: number } | { lawsuitId: number };

/** The query key of a client's or a lawsuit's messages (the form refreshes the client's after a send). */
export const messagesKey = (of: MessagesOf): QueryKey =>
  'customerId' in of ? ['messages', 'customer', of.customerId] : ['messages', 'lawsuit', of.lawsuitId];

const listOf = (of: MessagesOf) =>
  'customerId' in of
    ? api.call(MESSAGE_ROUTES.customer, { params: { id: of.customerId } })
    : api.call(MESSAGE_ROUTES.lawsuit, { params: { id: of.lawsuitId } });

export interface MessagesTableProps {
  of: MessagesOf;
  /** What the table says while there is no message ("No messages to this client"). */
  emptyText: string;
}

/**
 * A communications tab's list: the messages sent to a client, or to a lawsuit's clients (by an
 * event or by staff), newest first, with their state and, while one waits or when it failed, the
 * provider's reason. Messages are sent in the background: the list refreshes every few seconds
 * while one is queued.
 */
export function MessagesTable({ of, emptyText }: MessagesTableProps) {
  const { t, i18n } = useTranslation('ui');
  const list = useQuery({
    queryKey: messagesKey(of),
    queryFn: () => listOf(of),
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
      locale={{ emptyText }}
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
  );
}

export interface SendMessageFormProps {
  customerId: number;
  /**
   * Offers the client's lawsuits, so that a message about one is listed on its tab too (for a
   * user who may view lawsuits).
   */
  lawsuitPicker?: boolean;
}

const FORM_FIELDS = ['channel', 'body', 'subject', 'lawsuitId'] as const;

/**
 * The one-off message to a client: a channel they agreed to, the text (and a subject by email),
 * and, optionally, which of their lawsuits it concerns. The server's refusals show on their
 * fields; once queued, the client's messages (and the lawsuit's) are read again.
 */
export function SendMessageForm({ customerId, lawsuitPicker = false }: SendMessageFormProps) {
  const { t } = useTranslation('ui');
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SendCustomerMessageInput>();
  const channel = Form.useWatch('channel', form) as MessageChannel | undefined;
  const send = useMutation({
    mutationFn: (body: SendCustomerMessageInput) =>
      api.call(MESSAGE_ROUTES.send, { params: { id: customerId }, body }, { silent: true }),
    onSuccess: (message) => {
      notify.success(t('messages.queued'));
      form.resetFields(['body', 'subject']);
      if (message?.lawsuitId)
        void queryClient.invalidateQueries({ queryKey: messagesKey({ lawsuitId: message.lawsuitId }) });
    },
    onError: (error) => {
      const errors = isApiError(error) ? error.errors : {};
      const fields = FORM_FIELDS.filter((name) => errors[name]?.length);
      if (fields.length) form.setFields(fields.map((name) => ({ name, errors: errors[name]!.slice(0, 1) })));
      else notify.error(error.message);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: messagesKey({ customerId }) }),
  });

  return (
    <Form
      form={form}
      layout="vertical"
      aria-label={t('messages.sendTitle')}
      initialValues={{ channel: 'sms' }}
      onFinish={(values) => send.mutate({ ...values, ...(values.lawsuitId ? {} : { lawsuitId: undefined }) })}
    >
      <Typography.Title level={5}>{t('messages.sendTitle')}</Typography.Title>
      <Form.Item name="channel" label={t('messages.channel')} rules={[{ required: true }]}>
        <Select
          options={MESSAGE_CHANNELS.map((value) => ({ value, label: t(`messages.channels.${value}`) }))}
        />
      </Form.Item>
      {lawsuitPicker && (
        <Form.Item name="lawsuitId" label={t('messages.lawsuit')} extra={t('messages.lawsuitHelp')}>
          <RefSelect
            entity="lawsuits"
            filter={{ customerIds: customerId }}
            allowClear
            placeholder={t('messages.noLawsuit')}
          />
        </Form.Item>
      )}
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
  );
}
