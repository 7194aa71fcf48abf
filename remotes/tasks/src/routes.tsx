import type { RemoteRoute } from '@mizan/build/routes';
import { permissionKey, registry, taskComments, tasks, type Entity, type Fields } from '@mizan/contracts';
import { entityRoutes } from '@mizan/ui';
import { lazy } from 'react';
import { BOARD_ROUTE } from './board/route';
import { ENTITY_OVERRIDES } from './entityScreens';
import { LazyPart } from './LazyPart';

// dnd-kit comes with the board, in its own chunk, not with the remote's routes.
const TaskBoard = lazy(() => import('./board/TaskBoard').then((m) => ({ default: m.TaskBoard })));

/** The registry without the task comments: they are shown on their task's page only. */
const SCREENS = (registry as readonly Entity<Fields>[]).filter((entity) => entity.name !== taskComments.name);

/**
 * The tasks area's screens: the board by state, then the generic pages of the area's entities
 * (the list and the task's record page) with the overrides of `ENTITY_OVERRIDES`. The static
 * `tasks/board` outranks `tasks/:id`.
 */
export const routes: RemoteRoute[] = [
  {
    path: BOARD_ROUTE,
    permission: permissionKey(tasks.name, 'view'),
    element: (
      <LazyPart>
        <TaskBoard />
      </LazyPart>
    ),
  },
  ...entityRoutes('tasks', ENTITY_OVERRIDES, SCREENS),
];

export default routes;
