import { customerTypes, permissionKey, registry } from '@mizan/contracts';
import { isValidElement } from 'react';
import routes from './routes';

describe('clients routes', () => {
  it('derives a list and a record page per clients entity of the registry, with its view permission', () => {
    const expected = registry.filter((e) => e.remote === 'clients');
    const paths = expected.flatMap((e) => [e.route, `${e.route}/:id`]);
    expect(routes.map((r) => r.path)).toEqual(paths);
    for (const [i, path] of paths.entries()) {
      const entity = expected.find((e) => path === e.route || path === `${e.route}/:id`)!;
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
