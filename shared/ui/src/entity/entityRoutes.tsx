import type { ReactNode } from 'react';
import { permissionKey, registry, type Entity, type Fields, type RemoteName } from '@mizan/contracts';
import { EntityPage, type EntityPageProps } from './EntityPage';

/**
 * How one entity's screen departs from the generic page: props of `EntityPage` (form layout, row
 * actions, columns…), or `element`, a screen of its own in place of the page.
 */
export type EntityRouteOverride = Omit<EntityPageProps, 'entity'> & { element?: ReactNode };

/** Overrides by entity name; an entity not named gets the generic page alone. */
export type EntityRouteOverrides = Partial<Record<string, EntityRouteOverride>>;

/** One screen of a remote: the shape of `RemoteRoute` (`@mizan/build/routes`). */
export interface EntityRoute {
  path: string;
  element: ReactNode;
  permission: string;
}

/** The screen of one entity: its own `element`, or the generic page with the overrides' props. */
export function entityElement(entity: Entity<Fields>, override: EntityRouteOverride = {}): ReactNode {
  const { element, ...props } = override;
  return element ?? <EntityPage entity={entity} {...props} />;
}

/**
 * A remote's entity routes, derived from the registry: one screen per entity whose `remote` is
 * this one, at the entity's `route`, behind its `view` permission. Overrides are a table, as
 * react-admin resources override their list or form; a new entity needs no code here.
 *
 * @example
 * // remotes/clients/src/routes.tsx
 * export const routes: RemoteRoute[] = [
 *   ...entityRoutes('clients', { clients: { extraActions: (row) => <OpenRecord row={row} /> } }),
 *   { path: '/admin/customers/:id', element: <ClientRecord />, permission: 'clients.view' },
 * ];
 */
export function entityRoutes(
  remote: RemoteName,
  overrides: EntityRouteOverrides = {},
  entities: readonly Entity<Fields>[] = registry as readonly Entity<Fields>[],
): EntityRoute[] {
  return entities
    .filter((entity) => entity.remote === remote)
    .map((entity) => ({
      path: entity.route,
      permission: permissionKey(entity.name, 'view'),
      element: entityElement(entity, overrides[entity.name]),
    }));
}
