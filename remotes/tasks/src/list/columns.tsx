import { Space, Tag, Typography } from 'antd';
import { i18n } from '@mizan/i18n';
import type { TaskPriority } from '@mizan/contracts';
import type { EntityColumn } from '@mizan/ui';
import { PRIORITY_COLORS, priorityLabel } from '../labels';
import { isOverdue } from '../overdue';

/**
 * The tasks list's columns: the derived ones, the priority as a coloured tag, and an overdue
 * task's due date in red with the word "overdue" (colour alone says nothing to some readers).
 * The export keeps the plain values.
 */
export function taskColumns(derived: EntityColumn[]): EntityColumn[] {
  return derived.map((column) => {
    if (column.key === 'priority')
      return {
        ...column,
        render: (row) => {
          const priority = row.priority as TaskPriority;
          return priority ? <Tag color={PRIORITY_COLORS[priority]}>{priorityLabel(priority)}</Tag> : null;
        },
      };
    if (column.key === 'dueAt')
      return {
        ...column,
        render: (row) =>
          isOverdue(row) ? (
            <Space size={4} wrap>
              <Typography.Text type="danger">{column.render(row)}</Typography.Text>
              <Tag color="error">{i18n.t('overdue', { ns: 'tasks' })}</Tag>
            </Space>
          ) : (
            column.render(row)
          ),
      };
    return column;
  });
}
