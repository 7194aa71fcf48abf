import { isValidElement, type ReactElement } from 'react';
import { matchRoutes } from 'react-router-dom';
import { courts, customerTypes, permissionKey, registry, type Entity, type Fields } from '@mizan/contracts';
import { RecordPage, type RecordPageProps } from '../record/RecordPage';
import type { RecordTab } from '../record/tabs';
import { EntityPage, type EntityPageProps } from './EntityPage';
import { entityRoutes } from './entityRoutes';

const all = registry as readonly Entity<Fields>[];
const props = (element: unknown) => {
  expect(isValidElement(element)).toBe(true);
  const el = element as ReactElement<EntityPageProps>;
  expect(el.type).toBe(EntityPage);
  return el.props;
};
const recordProps = (element: unknown) => {
  expect(isValidElement(element)).toBe(true);
  const el = element as ReactElement<RecordPageProps>;
  expect(el.type).toBe(RecordPage);
  return el.props;
};
function Own() {
  return null;
}

describe(entityRoutes.name, () => {
  it('derives a list and a record page per entity of the remote, behind its view permission', () => {
    const routes = entityRoutes('clients');
    const expected = all.filter((e) => e.remote === 'clients');
    expect(expected.length).toBeGreaterThan(0);
    expect(routes.map((r) => [r.path, r.permission])).toEqual(
      expected.flatMap((e) => [
        [e.route, permissionKey(e.name, 'view')],
        [`${e.route}/:id`, permissionKey(e.name, 'view')],
      ]),
    );
    const types = routes.find((r) => r.path === customerTypes.route)!;
    expect(props(types.element)).toEqual({ entity: customerTypes });
    const typeRecord = routes.find((r) => r.path === `${customerTypes.route}/:id`)!;
    expect(recordProps(typeRecord.element)).toEqual({ entity: customerTypes });
  });

  it('applies page props and whole-screen overrides by entity name, to the list and the record page', () => {
    const extraActions = () => null;
    const renderForm = () => null;
    const tabs = (derived: RecordTab[]) => derived;
    const routes = entityRoutes('settings', {
      courts: { extraActions, renderForm, list: { urlState: 'c' }, record: { tabs } },
      roles: { element: <Own />, record: { element: <Own /> } },
      judges: { record: false },
    });
    const courtsPage = props(routes.find((r) => r.path === courts.route)!.element);
    expect(courtsPage).toEqual({ entity: courts, extraActions, renderForm, list: { urlState: 'c' } });
    // The list's form layout is the record page's edit form too; the record's own props apply.
    const courtRecord = recordProps(routes.find((r) => r.path === `${courts.route}/:id`)!.element);
    expect(courtRecord).toEqual({ entity: courts, renderForm, tabs });
    const rolesRoute = all.find((e) => e.name === 'roles')!.route;
    const roles = routes.filter((r) => r.path.startsWith(rolesRoute));
    expect(roles.map((r) => (r.element as ReactElement).type)).toEqual([Own, Own]);
    expect(roles.map((r) => r.permission)).toEqual(['roles.view', 'roles.view']);
    const judgesRoute = all.find((e) => e.name === 'judges')!.route;
    expect(routes.filter((r) => r.path.startsWith(`${judgesRoute}/`))).toEqual([]);
    expect(routes).toHaveLength(all.filter((e) => e.remote === 'settings').length * 2 - 1);
  });

  it('takes the definitions to derive from (a remote with none has no routes)', () => {
    expect(entityRoutes('chat', {}, [])).toEqual([]);
    expect(entityRoutes('settings', {}, [courts]).map((r) => r.path)).toEqual([
      courts.route,
      `${courts.route}/:id`,
    ]);
  });

  it('never lets a record route shadow a sibling screen under the same prefix', () => {
    // Every remote's routes together, as the host mounts them: static segments rank first.
    const remotes = [...new Set(all.map((e) => e.remote))];
    const routes = remotes.flatMap((remote) => entityRoutes(remote));
    const match = (path: string) => matchRoutes(routes, path)?.at(-1)?.route.path;
    for (const entity of all) {
      expect(match(entity.route)).toBe(entity.route);
      expect(match(`${entity.route}/12`)).toBe(`${entity.route}/:id`);
    }
    // A list nested under another's route (`/admin/customers/settings/types` under `/admin/customers`).
    const nested = all.filter((e) => all.some((o) => o !== e && e.route.startsWith(`${o.route}/`)));
    expect(nested.length).toBeGreaterThan(0);
    for (const entity of nested) expect(match(entity.route)).toBe(entity.route);
  });
});
