import { customerTypes, permissionKey, registry } from '@mizan/contracts';
import { isValidElement } from 'react';
import routes from './routes';

describe('clients routes', () => {
  it('derives one generic page per clients entity of the registry, with its view permission', () => {
    const expected = registry.filter((e) => e.remote === 'clients');
    expect(routes.map((r) => r.path)).toEqual(expected.map((e) => e.route));
    for (const [i, entity] of expected.entries()) {
      expect(routes[i]?.permission).toBe(permissionKey(entity.name, 'view'));
      expect(isValidElement(routes[i]?.element)).toBe(true);
    }
  });

  it('serves customer types at the route mirroring its API path', () => {
    expect(routes.find((r) => r.path === '/admin/customers/settings/types')?.permission).toBe(
      permissionKey(customerTypes, 'view'),
    );
  });
});
