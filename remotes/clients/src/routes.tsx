import type { RemoteRoute } from '@mizan/build/routes';
import { permissionKey, registry } from '@mizan/contracts';
import { EntityPage } from '@mizan/ui';

/**
 * The clients area's screens, derived from the registry: every entity whose `remote` is
 * `clients` gets the generic page at its route (today: customer types).
 */
export const routes: RemoteRoute[] = registry
  .filter((entity) => entity.remote === 'clients')
  .map((entity) => ({
    path: entity.route,
    permission: permissionKey(entity.name, 'view'),
    element: <EntityPage entity={entity} />,
  }));

export default routes;
