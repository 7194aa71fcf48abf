import { CheckOutlined } from '@ant-design/icons';
import type { NotificationRow } from '@mizan/contracts';
import {
  Alert,
  Badge,
  Button,
  Drawer,
  Empty,
  Flex,
  Pagination,
  Segmented,
  Spin,
  Typography,
  theme,
} from 'antd';
import { formatDateParts, useDateStyle, type DateStyle } from '@mizan/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { NOTIFICATIONS_PAGE_SIZE, notificationKeys, notificationsApi } from './api';
import { notificationText, useMarkRead } from './useNotifications';

export interface NotificationDrawerProps {
  open: boolean;
  onClose: () => void;
}

type Filter = 'all' | 'unread';

/** The employee's notifications, newest first and paged: unread ones bold, each linking to its record. */
export function NotificationDrawer({ open, onClose }: NotificationDrawerProps) {
  const { t } = useTranslation('notifications');
  const dateStyle = useDateStyle();
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const unreadOnly = filter === 'unread';
  const list = useQuery({
    queryKey: notificationKeys.list(page, unreadOnly),
    queryFn: () => notificationsApi.list(page, unreadOnly),
    enabled: open,
  });
  const { markRead, markAllRead, markingAll } = useMarkRead();
  const unread = list.data?.unread ?? 0;

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('title')}
      size={420}
      destroyOnHidden
      extra={
        <Button
          size="small"
          icon={<CheckOutlined />}
          disabled={unread === 0}
          loading={markingAll}
          onClick={() => markAllRead()}
        >
          {t('markAllRead')}
        </Button>
      }
    >
      <Flex vertical gap={12}>
        <Segmented<Filter>
          block
          value={filter}
          onChange={(value) => {
            setFilter(value);
            setPage(1);
          }}
          options={[
            { value: 'all', label: t('filters.all') },
            { value: 'unread', label: t('filters.unread') },
          ]}
        />
        {list.isError ? (
          <Alert type="error" showIcon title={t('loadFailed')} />
        ) : list.isPending ? (
          <Flex justify="center" style={{ padding: 24 }}>
            <Spin />
          </Flex>
        ) : list.data.items.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} />
        ) : (
          <ul aria-label={t('title')} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {list.data.items.map((item) => (
              <NotificationItem
                key={item.id}
                item={item}
                when={formatDateParts(item.createdAt, 'datetime', dateStyle)?.primary ?? ''}
                dateStyle={dateStyle}
                onOpen={() => {
                  if (!item.readAt) markRead(item.id);
                  onClose();
                }}
                onMarkRead={() => markRead(item.id)}
              />
            ))}
          </ul>
        )}
        {list.data && list.data.total > NOTIFICATIONS_PAGE_SIZE ? (
          <Pagination
            simple
            size="small"
            align="center"
            current={page}
            pageSize={NOTIFICATIONS_PAGE_SIZE}
            total={list.data.total}
            onChange={setPage}
          />
        ) : null}
      </Flex>
    </Drawer>
  );
}

function NotificationItem({
  item,
  when,
  dateStyle,
  onOpen,
  onMarkRead,
}: {
  item: NotificationRow;
  when: string;
  dateStyle: DateStyle;
  onOpen: () => void;
  onMarkRead: () => void;
}) {
  const { t } = useTranslation('notifications');
  const { token } = theme.useToken();
  const unread = !item.readAt;
  const { title, body } = notificationText(t, item, dateStyle);
  const heading = (
    <Typography.Text strong={unread} style={{ color: 'inherit' }}>
      {title}
    </Typography.Text>
  );
  return (
    <li
      data-unread={unread ? 'true' : undefined}
      style={{
        padding: '10px 12px',
        borderRadius: token.borderRadius,
        background: unread ? token.colorPrimaryBg : undefined,
        borderBottom: `1px solid ${token.colorSplit}`,
      }}
    >
      <Flex gap={8} align="start">
        <Badge status={unread ? 'processing' : 'default'} style={{ marginTop: 4 }} />
        <Flex vertical gap={2} style={{ flex: 1, minWidth: 0 }}>
          {item.link ? (
            <Link to={item.link} onClick={onOpen}>
              {heading}
            </Link>
          ) : (
            heading
          )}
          {body ? (
            <Typography.Text type="secondary" style={{ fontWeight: unread ? 500 : undefined }}>
              {body}
            </Typography.Text>
          ) : null}
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {unread ? `${t('unread')} · ` : ''}
            {when}
          </Typography.Text>
        </Flex>
        {unread ? (
          <Button
            type="text"
            size="small"
            aria-label={`${t('markRead')}: ${title}`}
            title={t('markRead')}
            icon={<CheckOutlined />}
            onClick={onMarkRead}
          />
        ) : null}
      </Flex>
    </li>
  );
}
