import type { RemoteRoute } from '@mizan/build/routes';
import { entityRoutes } from '@mizan/ui';

/** This remote's screens: the generic page of each registry entity of the tasks area (none yet). */
export const routes: RemoteRoute[] = entityRoutes('tasks');

export default routes;
