import { Alert, Badge, Empty, Flex, Skeleton, Typography, theme } from 'antd';
import { useDroppable } from '@dnd-kit/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { tasks } from '@mizan/contracts';
import { stateLabel } from '../labels';
import { TaskCard } from './TaskCard';
import type { BoardColumn } from './useTaskBoard';

export interface TaskColumnProps {
  column: BoardColumn;
  movable: boolean;
  moving: (id: number) => boolean;
}

/**
 * One state's column: a labelled region (a drop target) with its count and its tasks by due
 * date; past one page, a link to the list filtered to that state.
 */
export function TaskColumn({ column, movable, moving }: TaskColumnProps) {
  const { t } = useTranslation('tasks');
  const { token } = theme.useToken();
  const { setNodeRef, isOver } = useDroppable({ id: column.state });
  const headingId = `task-column-${column.state}`;
  const name = stateLabel(column.state);

  return (
    <section
      ref={setNodeRef}
      aria-labelledby={headingId}
      data-board-column={column.state}
      style={{
        flex: '1 0 240px',
        maxInlineSize: 360,
        background: isOver ? token.colorPrimaryBg : token.colorFillQuaternary,
        outline: isOver ? `2px dashed ${token.colorPrimary}` : undefined,
        borderRadius: token.borderRadiusLG,
        padding: token.paddingSM,
        minBlockSize: 200,
      }}
    >
      <Flex justify="space-between" align="center" style={{ marginBlockEnd: 8 }}>
        <Typography.Title level={2} id={headingId} style={{ fontSize: token.fontSizeLG, margin: 0 }}>
          {name}
        </Typography.Title>
        <Badge
          count={column.total}
          showZero
          color={token.colorTextSecondary}
          aria-label={t('board.count', { count: column.total })}
        />
      </Flex>
      {column.failed && <Alert type="error" showIcon title={t('board.loadFailed')} />}
      {column.loading ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : column.tasks.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('board.empty')} />
      ) : (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 8 }}>
          {column.tasks.map((row) => (
            <li key={row.id}>
              <TaskCard row={row} movable={movable} moving={moving(row.id)} />
            </li>
          ))}
        </ul>
      )}
      {column.total > column.tasks.length && (
        <Link to={`${tasks.route}?state=${column.state}`} style={{ display: 'block', marginBlockStart: 8 }}>
          {t('board.more', { count: column.total - column.tasks.length, state: name })}
        </Link>
      )}
    </section>
  );
}
