import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { badgeCount } from '../layout/badgeCount';
import { NotificationDrawer } from './NotificationDrawer';
import { useNotificationChannel, useUnreadCount } from './useNotifications';

/** The header's bell: the unread count, kept live from the employee's channel, opening the drawer. */
export function NotificationBell({ color }: { color?: string }) {
  const { t, i18n } = useTranslation('notifications');
  const [open, setOpen] = useState(false);
  const unread = useUnreadCount().data ?? 0;
  useNotificationChannel();
  return (
    <>
      <Tooltip title={t('title')}>
        <Button
          type="text"
          style={{ color }}
          aria-label={t('bell', { count: unread })}
          aria-haspopup="dialog"
          onClick={() => setOpen(true)}
          icon={
            <span aria-hidden style={{ display: 'inline-flex' }}>
              <Badge count={badgeCount(unread, i18n.language)} size="small" offset={[2, -2]}>
                <BellOutlined style={{ color, fontSize: 16 }} />
              </Badge>
            </span>
          }
        />
      </Tooltip>
      <NotificationDrawer open={open} onClose={() => setOpen(false)} />
    </>
  );
}
