import type { ReactNode } from 'react';
import { permissionKey, registry, type Entity, type Fields, type RemoteName } from '@mizan/contracts';
import { recordRoute } from '../record/paths';
import { RecordPage, type RecordPageProps } from '../record/RecordPage';
import { EntityPage, type EntityPageProps } from './EntityPage';

/**
 * How one entity's record page (`<route>/:id`) departs from the generic one: props of
 * `RecordPage` (tabs added, replaced or hidden; the fields shown; header actions), or `element`,
 * a screen of its own in place of the page.
 */
export type RecordRouteOverride = Omit<RecordPageProps, 'entity' | 'id'> & { element?: ReactNode };

/**
 * How one entity's screens depart from the generic ones: props of `EntityPage` (form layout, row
 * actions, columns…), or `element`, a list screen of its own in place of the page; and `record`,
 * the record page's own override (`false`: no record page). The list's `formFields` and
 * `renderForm` also lay out the record page's edit form unless `record` sets its own.
 *
 * @example
 * { customers: { renderForm: CustomerForm, record: { tabs: (tabs) => tabs.filter((t) => t.key !== 'history') } } }
 */
export type EntityRouteOverride = Omit<EntityPageProps, 'entity'> & {
  element?: ReactNode;
  record?: RecordRouteOverride | false;
};

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
  const { element, record: _record, ...props } = override;
  return element ?? <EntityPage entity={entity} {...props} />;
}

/** The record page of one entity: its own `element`, or the generic page with the overrides' props. */
export function recordElement(entity: Entity<Fields>, override: EntityRouteOverride = {}): ReactNode {
  const { element, ...props } = override.record || {};
  const form = {
    ...(override.formFields ? { formFields: override.formFields } : {}),
    ...(override.renderForm ? { renderForm: override.renderForm } : {}),
  };
  return element ?? <RecordPage entity={entity} {...form} {...props} />;
}

/**
 * A remote's entity routes, derived from the registry: per entity whose `remote` is this one, its
 * list at the entity's `route` and its record page at `<route>/:id`, both behind its `view`
 * permission. Overrides are a table, as react-admin resources override their list or form; a new
 * entity needs no code here. React Router ranks static segments first, so `<route>/:id` never
 * shadows a sibling list such as `/admin/customers/procurations`.
 *
 * @example
 * // remotes/clients/src/routes.tsx
 * export const routes: RemoteRoute[] = entityRoutes('clients', {
 *   customers: { renderForm: CustomerForm, record: { tabs: (tabs) => [...tabs, conflictsTab] } },
 * });
 */
export function entityRoutes(
  remote: RemoteName,
  overrides: EntityRouteOverrides = {},
  entities: readonly Entity<Fields>[] = registry as readonly Entity<Fields>[],
): EntityRoute[] {
  return entities
    .filter((entity) => entity.remote === remote)
    .flatMap((entity) => {
      const override = overrides[entity.name];
      const permission = permissionKey(entity.name, 'view');
      const list = { path: entity.route, permission, element: entityElement(entity, override) };
      if (override?.record === false) return [list];
      return [list, { path: recordRoute(entity), permission, element: recordElement(entity, override) }];
    });
}
