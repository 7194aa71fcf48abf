import { useState } from 'react';
import { Alert, Button, Modal, Space, Typography } from 'antd';
import { LinkOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEADLINE_ROUTES, type FeedToken } from '@mizan/contracts';
import { api, notify } from '@mizan/sdk';

const FEED_KEY = ['calendar', 'feed'] as const;

/**
 * "Subscribe": the signed-in employee's secret calendar feed URLs (theirs, and the office's with
 * the permission), for Google, Outlook or Apple calendars. A URL is shown once, when made, with a
 * copy button; making a new one stops the old one, and revoking stops both.
 */
export function CalendarFeed() {
  const { t } = useTranslation(['legal', 'ui']);
  const [open, setOpen] = useState(false);
  const [made, setMade] = useState<FeedToken | null>(null);
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: FEED_KEY,
    queryFn: () => api.call(DEADLINE_ROUTES.feedCurrent),
    enabled: open,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: FEED_KEY });
  const create = useMutation({
    mutationFn: () => api.call(DEADLINE_ROUTES.feedToken),
    onSuccess: (data) => setMade(data),
    onSettled: refresh,
  });
  const revoke = useMutation({
    mutationFn: () => api.call(DEADLINE_ROUTES.feedRevoke),
    onSuccess: () => {
      setMade(null);
      notify.success(t('legal:calendar.feed.revoked'));
    },
    onSettled: refresh,
  });
  const exists = Boolean(current.data?.own);

  return (
    <>
      <Button icon={<LinkOutlined />} onClick={() => setOpen(true)}>
        {t('legal:calendar.feed.open')}
      </Button>
      <Modal
        open={open}
        title={t('legal:calendar.feed.title')}
        footer={null}
        onCancel={() => {
          setOpen(false);
          setMade(null);
        }}
      >
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph>{t('legal:calendar.feed.explain')}</Typography.Paragraph>
          {made?.url && (
            <>
              <Typography.Text strong>{t('legal:calendar.feed.own')}</Typography.Text>
              <Typography.Paragraph copyable={{ text: made.url }} code dir="ltr" data-testid="feed-url">
                {made.url}
              </Typography.Paragraph>
            </>
          )}
          {made?.officeUrl && (
            <>
              <Typography.Text strong>{t('legal:calendar.feed.office')}</Typography.Text>
              <Typography.Paragraph copyable={{ text: made.officeUrl }} code dir="ltr">
                {made.officeUrl}
              </Typography.Paragraph>
            </>
          )}
          {!made && exists && <Alert type="info" showIcon title={t('legal:calendar.feed.exists')} />}
          <Space wrap>
            <Button type="primary" loading={create.isPending} onClick={() => create.mutate()}>
              {t(exists || made ? 'legal:calendar.feed.renew' : 'legal:calendar.feed.create')}
            </Button>
            {(exists || made) && (
              <Button danger loading={revoke.isPending} onClick={() => revoke.mutate()}>
                {t('legal:calendar.feed.revoke')}
              </Button>
            )}
          </Space>
        </Space>
      </Modal>
    </>
  );
}
