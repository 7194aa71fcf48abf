import { CLOSED_TASK_STATES, type TaskState } from '@mizan/contracts';
import type { EntityRow } from '@mizan/ui';

/**
 * Whether a task is past its due instant while still open: a done or cancelled task is never
 * overdue, whatever its due date said.
 *
 * @example isOverdue({ id: 1, state: 'new', dueAt: '2026-11-01T09:00:00.000Z' }, new Date('2026-11-02')) // true
 */
export function isOverdue(row: EntityRow, now: Date = new Date()): boolean {
  if (CLOSED_TASK_STATES.includes(row.state as TaskState)) return false;
  const due = typeof row.dueAt === 'string' ? Date.parse(row.dueAt) : NaN;
  return Number.isFinite(due) && due < now.getTime();
}
