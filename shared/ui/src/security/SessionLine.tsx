import type { SessionInfo } from '@mizan/contracts';
import { List, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * One session as a line: device and browser, IP, when signed in and last seen (the profile's
 * sessions, and an employee's on the administrator's security drawer).
 */
export function SessionLine({ session }: { session: SessionInfo }) {
  const { t, i18n } = useTranslation('auth');
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const device = session.device
    ? t(`sessions.device.${session.device}`, { defaultValue: session.device })
    : null;
  return (
    <List.Item.Meta
      title={
        <Space wrap>
          <span>{[device, session.browser].filter(Boolean).join(' — ') || t('sessions.unknownDevice')}</span>
          {session.current && <Tag color="blue">{t('sessions.current')}</Tag>}
        </Space>
      }
      description={
        <Space wrap separator="·">
          {session.ip && <span dir="ltr">{session.ip}</span>}
          <span>{t('sessions.signedIn', { time: when(session.signedInAt) })}</span>
          <span>{t('sessions.lastSeen', { time: when(session.lastSeenAt) })}</span>
        </Space>
      }
    />
  );
}
