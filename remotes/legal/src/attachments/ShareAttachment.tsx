import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Flex, Modal, Skeleton, Space, Tag, Typography } from 'antd';
import { ShareAltOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MESSAGE_ROUTES } from '@mizan/contracts';
import { api, isApiError, notify } from '@mizan/sdk';
import { formatNumber, messagesKey } from '@mizan/ui';

export interface ShareAttachmentProps {
  lawsuitId: number;
  attachmentId: number;
  /** The attachment's title, named in the button and the confirmation. */
  name: string;
}

/**
 * "Share with the client" on a lawsuit's attachment: a confirmation listing the lawsuit's clients
 * with the channels each would receive it on (those who agreed to none cannot be chosen; the
 * others are chosen at first), then the `documentShared` message queued for the chosen ones, the
 * files going by email and WhatsApp. The communications tabs of the lawsuit and clients are read
 * again; the server's refusal (a file over a channel's limit, no template) is shown as it said it.
 */
export function ShareAttachment({ lawsuitId, attachmentId, name }: ShareAttachmentProps) {
  const { t, i18n } = useTranslation('legal');
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<number[] | null>(null);
  const params = { id: lawsuitId, attachmentId };
  const preview = useQuery({
    queryKey: ['attachmentShare', lawsuitId, attachmentId],
    queryFn: () => api.call(MESSAGE_ROUTES.sharePreview, { params }, { silent: true }),
    enabled: open,
  });
  const recipients = preview.data?.recipients ?? [];
  // The clients who agreed to a channel, chosen at first (each time the dialog opens).
  useEffect(() => {
    if (open && preview.data && chosen === null)
      setChosen(preview.data.recipients.filter((r) => r.channels.length).map((r) => r.customerId));
  }, [open, preview.data, chosen]);
  const close = () => {
    setOpen(false);
    setChosen(null);
  };
  const share = useMutation({
    mutationFn: (customerIds: number[]) =>
      api.call(MESSAGE_ROUTES.share, { params, body: { customerIds } }, { silent: true }),
    onSuccess: (answer) => {
      const count = answer?.items.length ?? 0;
      notify.success(t('attachments.share.done', { count, n: formatNumber(count, lng) }));
      close();
    },
    onError: (error) => {
      const errors = isApiError(error) ? Object.values(error.errors).flat() : [];
      notify.error(errors[0] ?? error.message);
    },
    onSettled: (_answer, _error, customerIds) => {
      void queryClient.invalidateQueries({ queryKey: messagesKey({ lawsuitId }) });
      for (const customerId of customerIds)
        void queryClient.invalidateQueries({ queryKey: messagesKey({ customerId }) });
    },
  });

  const picked = chosen ?? [];
  return (
    <>
      <Button
        type="text"
        size="small"
        icon={<ShareAltOutlined />}
        aria-label={t('attachments.share.actionNamed', { name })}
        title={t('attachments.share.action')}
        onClick={() => setOpen(true)}
      />
      <Modal
        open={open}
        title={t('attachments.share.title', { name })}
        okText={t('attachments.share.confirm')}
        cancelText={t('actions.cancel', { ns: 'ui' })}
        okButtonProps={{ disabled: picked.length === 0, loading: share.isPending }}
        onOk={() => share.mutate(picked)}
        onCancel={close}
        destroyOnHidden
      >
        {preview.isError ? (
          <Alert
            type="error"
            showIcon
            title={t('attachments.share.loadFailed')}
            action={
              <Button size="small" onClick={() => void preview.refetch()}>
                {t('actions.retry', { ns: 'ui' })}
              </Button>
            }
          />
        ) : !preview.data ? (
          <Skeleton active paragraph={{ rows: 3 }} />
        ) : (
          <Flex vertical gap={12}>
            <Typography.Text type="secondary">
              {t('attachments.share.files', {
                count: preview.data.files.length,
                n: formatNumber(preview.data.files.length, lng),
              })}{' '}
              {preview.data.files.map((f, i) => (
                <span key={i}>
                  {i > 0 && t('attachments.share.separator')}
                  <bdi>{f.name}</bdi>
                </span>
              ))}
            </Typography.Text>
            <Typography.Text strong>{t('attachments.share.recipients')}</Typography.Text>
            {recipients.length === 0 ? (
              <Typography.Text type="secondary">{t('attachments.share.noClients')}</Typography.Text>
            ) : (
              <ul
                aria-label={t('attachments.share.recipients')}
                style={{ listStyle: 'none', margin: 0, padding: 0 }}
              >
                {recipients.map((r) => (
                  <li key={r.customerId} style={{ paddingBlock: 4 }}>
                    <Checkbox
                      checked={picked.includes(r.customerId)}
                      disabled={r.channels.length === 0}
                      onChange={(e) =>
                        setChosen(
                          e.target.checked
                            ? [...picked, r.customerId]
                            : picked.filter((id) => id !== r.customerId),
                        )
                      }
                    >
                      <Space wrap size={4}>
                        <bdi>{r.name}</bdi>
                        {r.channels.length === 0 ? (
                          <Typography.Text type="secondary">
                            {t('attachments.share.noConsent')}
                          </Typography.Text>
                        ) : (
                          r.channels.map((channel) => (
                            <Tag key={channel}>{t(`messages.channels.${channel}`, { ns: 'ui' })}</Tag>
                          ))
                        )}
                      </Space>
                    </Checkbox>
                  </li>
                ))}
              </ul>
            )}
            <Typography.Text type="secondary">{t('attachments.share.smsNote')}</Typography.Text>
          </Flex>
        )}
      </Modal>
    </>
  );
}
