import { AREA_PERMISSIONS, SYSTEM, permissionKey, registry } from '@mizan/contracts';
import { isValidElement } from 'react';
import routes, { routes as named, settingsEntities } from './routes';

describe('settings routes', () => {
  it('default export and named export are the same list (host contract: default)', () => {
    expect(routes).toBe(named);
  });

  it('derives one route per settings entity of the registry, with its view permission', () => {
    const expected = registry.filter((e) => e.remote === 'settings');
    expect(settingsEntities.map((e) => e.name)).toEqual(expected.map((e) => e.name));
    for (const entity of expected) {
      const route = routes.find((r) => r.path === entity.route);
      expect(route).toBeDefined();
      expect(route?.permission).toBe(permissionKey(entity.name, 'view'));
      expect(isValidElement(route?.element)).toBe(true);
    }
  });

  it('holds no route of another remote', () => {
    for (const entity of registry.filter((e) => e.remote !== 'settings'))
      expect(routes.some((r) => r.path === entity.route)).toBe(false);
  });

  it('adds the system screens with their area permissions', () => {
    const byPath = Object.fromEntries(routes.map((r) => [r.path, r.permission]));
    expect(byPath[SYSTEM.general]).toBe(AREA_PERMISSIONS.systemSettingsView);
    expect(byPath[SYSTEM.appearances]).toBe(AREA_PERMISSIONS.systemSettingsView);
    expect(byPath[SYSTEM.logs]).toBe(AREA_PERMISSIONS.logsView);
    expect(byPath[SYSTEM.audit]).toBe(AREA_PERMISSIONS.auditView);
  });

  it('paths are unique, absolute under /admin/ and every route has a permission', () => {
    expect(new Set(routes.map((r) => r.path)).size).toBe(routes.length);
    for (const route of routes) {
      expect(route.path.startsWith('/admin/')).toBe(true);
      expect(route.permission).toMatch(/^[a-zA-Z]+\.[a-z]+$/);
    }
  });
});
