import { AppstoreOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { BOARD_ROUTE } from '../board/route';
import { useTaskFeed } from '../useTaskFeed';

/**
 * The list's way to the board, carrying the list's search and filters along. Rendered in the
 * list's toolbar, it also keeps the list live for employees who may not join the `tasks` channel
 * (their own task feed instead).
 */
export function BoardLink() {
  useTaskFeed();
  const { t } = useTranslation('tasks');
  const { search } = useLocation();
  return (
    <Link to={`${BOARD_ROUTE}${search}`}>
      <AppstoreOutlined aria-hidden /> {t('views.board')}
    </Link>
  );
}
