import type { RemoteRoute } from '@mizan/build/routes';
import { entityRoutes } from '@mizan/ui';
import { ENTITY_OVERRIDES } from './entityScreens';

/**
 * The clients area's screens, derived from the registry: every entity whose `remote` is `clients`
 * (clients, client types, powers of attorney) gets the generic pages at its route, with the
 * overrides of `ENTITY_OVERRIDES`.
 */
export const routes: RemoteRoute[] = entityRoutes('clients', ENTITY_OVERRIDES);

export default routes;
