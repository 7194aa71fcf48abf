import { isValidElement, type ReactElement } from 'react';
import { courts, customerTypes, permissionKey, registry, type Entity, type Fields } from '@mizan/contracts';
import { EntityPage, type EntityPageProps } from './EntityPage';
import { entityRoutes } from './entityRoutes';

const all = registry as readonly Entity<Fields>[];
const props = (element: unknown) => {
  expect(isValidElement(element)).toBe(true);
  const el = element as ReactElement<EntityPageProps>;
  expect(el.type).toBe(EntityPage);
  return el.props;
};
function Own() {
  return null;
}

describe(entityRoutes.name, () => {
  it('derives one generic page per entity of the remote, at its route, behind its view permission', () => {
    const routes = entityRoutes('clients');
    const expected = all.filter((e) => e.remote === 'clients');
    expect(expected.length).toBeGreaterThan(0);
    expect(routes.map((r) => [r.path, r.permission])).toEqual(
      expected.map((e) => [e.route, permissionKey(e.name, 'view')]),
    );
    const types = routes.find((r) => r.path === customerTypes.route)!;
    expect(props(types.element)).toEqual({ entity: customerTypes });
  });

  it('applies page props and whole-screen overrides by entity name', () => {
    const extraActions = () => null;
    const routes = entityRoutes('settings', {
      courts: { extraActions, list: { urlState: 'c' } },
      roles: { element: <Own /> },
    });
    const courtsPage = props(routes.find((r) => r.path === courts.route)!.element);
    expect(courtsPage).toEqual({ entity: courts, extraActions, list: { urlState: 'c' } });
    const roles = routes.find((r) => r.path === all.find((e) => e.name === 'roles')!.route)!;
    expect((roles.element as ReactElement).type).toBe(Own);
    expect(roles.permission).toBe('roles.view');
    expect(routes).toHaveLength(all.filter((e) => e.remote === 'settings').length);
  });

  it('takes the definitions to derive from (a remote with none has no routes)', () => {
    expect(entityRoutes('chat', {}, [])).toEqual([]);
    expect(entityRoutes('settings', {}, [courts]).map((r) => r.path)).toEqual([courts.route]);
  });
});
