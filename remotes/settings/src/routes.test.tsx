import {
  AREA_PERMISSIONS,
  courts,
  permissionKey,
  registry,
  AUDIT_ROUTES,
  BACKUP_ROUTES,
  LOG_ROUTES,
  SYSTEM_SETTINGS_ROUTES,
} from '@mizan/contracts';
import { EntityPage, type EntityPageProps } from '@mizan/ui';
import { isValidElement, type ReactElement, type ReactNode } from 'react';
import { PermissionsPage } from './permissions/PermissionsPage';
// The default export: what the host loads.
import routes from './routes';

const elementAt = (path: string): ReactElement => {
  const element: ReactNode = routes.find((r) => r.path === path)?.element;
  if (!isValidElement(element)) throw new Error(`no element at ${path}`);
  return element;
};
const pageProps = (path: string) => {
  const element = elementAt(path);
  expect(element.type).toBe(EntityPage);
  return element.props as EntityPageProps;
};
const routeOf = (name: string) => registry.find((e) => e.name === name)!.route;

describe('settings routes', () => {
  it('derives a list and a record route per settings entity of the registry, with its view permission', () => {
    const expected = registry.filter((e) => e.remote === 'settings');
    expect(expected.length).toBeGreaterThan(10);
    for (const entity of expected)
      for (const path of [entity.route, `${entity.route}/:id`]) {
        const route = routes.find((r) => r.path === path);
        expect(route?.permission).toBe(permissionKey(entity.name, 'view'));
        expect(isValidElement(route?.element)).toBe(true);
      }
    // Beyond them: general settings, appearance, logs, audit trail, backups and the merge fields.
    expect(routes).toHaveLength(expected.length * 2 + 6);
  });

  it('gives a plain entity the generic page of its own definition, without overrides', () => {
    const props = pageProps(courts.route);
    expect(props.entity).toBe(courts);
    expect(props.renderForm).toBeUndefined();
    expect(props.extraActions).toBeUndefined();
  });

  it('applies the override table: role form, employee row actions, the permissions screen', () => {
    expect(pageProps(routeOf('roles')).renderForm).toEqual(expect.any(Function));
    expect(pageProps(routeOf('roles')).entity.name).toBe('roles');
    expect(pageProps(routeOf('employees')).extraActions).toEqual(expect.any(Function));
    expect(pageProps(routeOf('employees')).renderForm).toBeUndefined();
    expect(elementAt(routeOf('permissions')).type).toBe(PermissionsPage);
  });

  it('holds no route of another remote', () => {
    for (const entity of registry.filter((e) => e.remote !== 'settings'))
      expect(routes.some((r) => r.path === entity.route)).toBe(false);
  });

  it('adds the system screens with their area permissions', () => {
    const byPath = Object.fromEntries(routes.map((r) => [r.path, r.permission]));
    expect(byPath[SYSTEM_SETTINGS_ROUTES.get.path]).toBe(AREA_PERMISSIONS.systemSettingsView);
    expect(byPath[SYSTEM_SETTINGS_ROUTES.appearance.path]).toBe(AREA_PERMISSIONS.systemSettingsView);
    expect(byPath[LOG_ROUTES.latest.path]).toBe(AREA_PERMISSIONS.logsView);
    expect(byPath[AUDIT_ROUTES.list.path]).toBe(AREA_PERMISSIONS.auditView);
    expect(byPath[BACKUP_ROUTES.list.path]).toBe(AREA_PERMISSIONS.backupsView);
  });

  it('paths are unique, absolute under /admin/ and every route has a permission', () => {
    expect(new Set(routes.map((r) => r.path)).size).toBe(routes.length);
    for (const route of routes) {
      expect(route.path.startsWith('/admin/')).toBe(true);
      expect(route.permission).toMatch(/^[a-zA-Z]+\.[a-z]+$/);
    }
  });
});
