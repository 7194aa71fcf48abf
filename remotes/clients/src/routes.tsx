import type { RemoteRoute } from '@mizan/build/routes';
import { entityRoutes } from '@mizan/ui';

/**
 * The clients area's screens, derived from the registry: every entity whose `remote` is
 * `clients` gets the generic page at its route (today: customer types).
 */
export const routes: RemoteRoute[] = entityRoutes('clients');

export default routes;
