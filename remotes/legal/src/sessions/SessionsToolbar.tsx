import { Space } from 'antd';
import { CalendarOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { sessions } from '@mizan/contracts';

/** Where the hearings calendar lives: under the hearings list's own route. */
export const SESSIONS_CALENDAR_PATH = `${sessions.route}/calendar`;

/** The hearings list's toolbar: a link to the calendar of the same hearings (a real link: new tab, middle click). */
export function SessionsToolbar() {
  const { t } = useTranslation('legal');
  return (
    <Link to={SESSIONS_CALENDAR_PATH}>
      <Space size={4}>
        <CalendarOutlined aria-hidden />
        {t('sessions.openCalendar')}
      </Space>
    </Link>
  );
}
