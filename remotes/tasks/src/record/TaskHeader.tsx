import type { EntityRow } from '@mizan/ui';
import { useTaskChannel } from '../useTaskChannel';
import { TaskStateSelect } from './TaskStateSelect';

/**
 * The task page's header addition: its state select, and, while the page is open, the task's
 * live channel (its writes and its comments from other people).
 */
export function TaskHeader({ row }: { row: EntityRow }) {
  useTaskChannel(row.id);
  return <TaskStateSelect row={row} />;
}
