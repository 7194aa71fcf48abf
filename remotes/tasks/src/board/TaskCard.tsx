import type { CSSProperties, PointerEventHandler } from 'react';
import { Flex, Tag, Typography, theme } from 'antd';
import { HolderOutlined } from '@ant-design/icons';
import { useDraggable } from '@dnd-kit/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { tasks, type TaskPriority } from '@mizan/contracts';
import { DualDate, recordPath, refLabels, type EntityRow } from '@mizan/ui';
import { PRIORITY_COLORS, priorityLabel } from '../labels';
import { isOverdue } from '../overdue';

export interface TaskCardProps {
  row: EntityRow;
  /** Whether the user may change the task's state (the handle is shown). */
  movable: boolean;
  /** The move is waiting for the server. */
  moving?: boolean;
  /** Drawn under the pointer while dragging (no handle, no link). */
  overlay?: boolean;
}

/** The look of a card, shared by the card in its column and its copy under the pointer. */
function useCardStyle(overdue: boolean): CSSProperties {
  const { token } = theme.useToken();
  return {
    background: token.colorBgContainer,
    border: `1px solid ${overdue ? token.colorError : token.colorBorderSecondary}`,
    borderInlineStartWidth: overdue ? 4 : 1,
    borderRadius: token.borderRadius,
    padding: token.paddingSM,
    boxShadow: token.boxShadowTertiary,
  };
}

/**
 * One task on the board: its title linking to the record page, priority, due date and assignees.
 * The pointer drags the whole card (a click still follows the link: a drag starts only after the
 * pointer moved a few pixels); the keyboard picks it up by its handle, a button, so the card's
 * link stays a plain link. An overdue task has a red edge and says so in words, not by colour alone.
 */
export function TaskCard({ row, movable, moving = false, overlay = false }: TaskCardProps) {
  const { t, i18n } = useTranslation('tasks');
  const title = String(row.title ?? `#${row.id}`);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({
    id: row.id,
    data: { title, row },
    disabled: !movable || moving || overlay,
    attributes: { roleDescription: t('board.draggable') },
  });
  const overdue = isOverdue(row);
  const style = useCardStyle(overdue);
  // A press on the handle reached its own listener first: one start per press.
  const dragFromCard: PointerEventHandler = (event) => {
    if ((event.target as Element).closest('.mizan-task-handle')) return;
    (listeners?.onPointerDown as PointerEventHandler | undefined)?.(event);
  };
  const assignees = refLabels(row, 'assigneeIds', tasks.fields.assigneeIds);
  const priority = row.priority as TaskPriority;

  return (
    <article
      ref={overlay ? undefined : setNodeRef}
      aria-label={title}
      aria-busy={moving || undefined}
      data-task-card={row.id}
      style={{
        ...style,
        opacity: isDragging || moving ? 0.5 : 1,
        cursor: movable && !overlay ? 'grab' : undefined,
        touchAction: movable && !overlay ? 'none' : undefined,
      }}
      // The pointer half of the handle's listeners, from anywhere on the card: the keyboard's stay on the handle.
      onPointerDown={movable && !overlay ? dragFromCard : undefined}
    >
      <Flex gap={8} align="start">
        {movable && !overlay && (
          <button
            type="button"
            ref={setActivatorNodeRef}
            {...attributes}
            {...listeners}
            aria-label={t('board.handle', { title })}
            className="mizan-task-handle"
            style={{
              cursor: 'grab',
              background: 'none',
              border: 'none',
              padding: 2,
              color: 'inherit',
              touchAction: 'none',
            }}
          >
            <HolderOutlined aria-hidden />
          </button>
        )}
        <Flex vertical gap={4} style={{ minInlineSize: 0, flex: 1 }}>
          {overlay ? (
            <Typography.Text strong>
              <bdi>{title}</bdi>
            </Typography.Text>
          ) : (
            <Link
              to={recordPath(tasks, row.id)}
              // The browser's own link dragging would take over the card's.
              draggable={false}
              style={{ fontWeight: 600, overflowWrap: 'anywhere' }}
            >
              <bdi>{title}</bdi>
            </Link>
          )}
          <Flex wrap gap={4} align="center">
            {priority && <Tag color={PRIORITY_COLORS[priority]}>{priorityLabel(priority)}</Tag>}
            {overdue && <Tag color="error">{t('overdue')}</Tag>}
          </Flex>
          {typeof row.dueAt === 'string' && (
            <Typography.Text type={overdue ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>
              {t('card.due')} <DualDate value={row.dueAt} type="datetime" primaryOnly />
            </Typography.Text>
          )}
          {assignees.length > 0 && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              <bdi>{new Intl.ListFormat(i18n.language).format(assignees.map((a) => a.name))}</bdi>
            </Typography.Text>
          )}
        </Flex>
      </Flex>
    </article>
  );
}
