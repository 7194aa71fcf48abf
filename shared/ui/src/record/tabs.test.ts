import { customers, employees, permissions, registry, type Entity, type Fields } from '@mizan/contracts';
import { recordReferences } from './tabs';
import { parseRecordId, recordPath, recordRoute } from './paths';

const all = registry as readonly Entity<Fields>[];
const keys = (entity: Entity<Fields>, can: (p: string) => boolean) =>
  recordReferences(entity, all, can).map((r) => `${r.entity.name}.${r.field}`);

describe(recordReferences.name, () => {
  it("gives a client's page its powers of attorney, from the registry alone", () => {
    expect(keys(customers as Entity<Fields>, () => true)).toContain('procurations.customerIds');
  });

  it('leaves out entities the user may not view', () => {
    const can = (p: string) => p !== 'procurations.view';
    expect(keys(customers as Entity<Fields>, can)).not.toContain('procurations.customerIds');
    expect(keys(employees as Entity<Fields>, (p) => p === 'customers.view')).toEqual(['customers.lawyerId']);
  });

  it('leaves out a reference the list cannot be filtered by (it would list every row)', () => {
    // roles.permissionIds points at permissions but is no list filter.
    expect(keys(permissions as Entity<Fields>, () => true)).toEqual([]);
  });
});

describe('record paths', () => {
  it('puts a record under its list route and reads only positive integer ids', () => {
    expect(recordPath(customers, 7)).toBe(`${customers.route}/7`);
    expect(recordRoute(customers)).toBe(`${customers.route}/:id`);
    expect(
      ['7', 7, '0', '-1', 'abc', '1.5', '', undefined, '99999999999999999999'].map(parseRecordId),
    ).toEqual([7, 7, null, null, null, null, null, null, null]);
  });
});
