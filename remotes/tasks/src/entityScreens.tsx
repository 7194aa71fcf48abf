import type { EntityRouteOverrides } from '@mizan/ui';
import { BoardLink } from './list/BoardLink';
import { taskColumns } from './list/columns';
import { QuickFilters } from './list/QuickFilters';
import { TaskHeader } from './record/TaskHeader';
import { taskTabs } from './record/recordTabs';

/**
 * Where the tasks screens go beyond the generic pages: the list with the quick views, priority
 * tags, overdue tasks marked and a link to the board; the record page with the state select, the live
 * channel, and its tabs (text attachment, comments, files, history). Comments have no screen of
 * their own: they live on their task's page.
 */
export const ENTITY_OVERRIDES: EntityRouteOverrides = {
  tasks: {
    columns: taskColumns,
    toolbar: (
      <>
        <QuickFilters />
        <BoardLink />
      </>
    ),
    record: {
      fields: (derived) => derived.filter((name) => name !== 'text' && name !== 'files'),
      extraActions: (row) => <TaskHeader row={row} />,
      tabs: taskTabs,
    },
  },
};
