import {
  customers,
  employees,
  permissions,
  registry,
  sessions,
  type Entity,
  type Fields,
} from '@mizan/contracts';
import type { EntityRow } from '../fields/types';
import { recordReferences, titleOf } from './tabs';
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

const row = (values: Record<string, unknown>) =>
  ({ createdAt: '2026-11-01T09:00:00.000Z', updatedAt: '2026-11-01T09:00:00.000Z', ...values }) as EntityRow;

describe(titleOf.name, () => {
  it('shows a date title as a date in the interface language, not as stored', () => {
    const hearing = sessions as unknown as Entity<Fields>;
    const en = titleOf(hearing, row({ id: 4, date: '2026-11-24' }), 'en');
    const ar = titleOf(hearing, row({ id: 4, date: '2026-11-24' }), 'ar');
    expect(en).not.toBe('2026-11-24');
    expect(en).toMatch(/1448/);
    expect(ar).toMatch(/[٠-٩]/);
    expect(ar).not.toMatch(/[0-9]/);
  });

  it('keeps a text title and falls back to the id', () => {
    expect(titleOf(customers as Entity<Fields>, row({ id: 3, name: 'أحمد' }), 'ar')).toBe('أحمد');
    expect(titleOf(customers as Entity<Fields>, row({ id: 3 }), 'ar')).toBe('#3');
  });
});
