import type { RemoteRoute } from '@mizan/build/routes';
import { entityRoutes } from '@mizan/ui';

/** This remote's screens: the generic page of each registry entity of the legal area (none yet). */
export const routes: RemoteRoute[] = entityRoutes('legal');

export default routes;
