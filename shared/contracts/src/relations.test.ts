import { defineEntity } from './entity';
import { registry, referencesTo } from './registry';
import { displayKey, referencesIn } from './relations';

describe('displayKey', () => {
  it.each([
    ['continentId', 'ref', 'continent'],
    ['administrativeSectionId', 'ref', 'administrativeSection'],
    ['roleIds', 'refs', 'roles'],
    ['opponentIds', 'refs', 'opponents'],
    ['partyIds', 'refs', 'parties'],
    ['boxIds', 'refs', 'boxes'],
    ['dayIds', 'refs', 'days'],
    // A field not named …Id / …Ids keeps its key for the id(s): the labels go beside it.
    ['manager', 'ref', 'managerRef'],
    ['opponents', 'refs', 'opponentsRefs'],
    ['Id', 'ref', 'IdRef'],
  ] as const)('%s (%s) → %s', (name, type, expected) => {
    expect(displayKey(name, { type })).toBe(expected);
  });

  it('never names a display key after the field itself or another field of the registry', () => {
    for (const entity of registry) {
      for (const [key, field] of Object.entries(entity.fields)) {
        if (field.type !== 'ref' && field.type !== 'refs') continue;
        const shown = displayKey(key, field);
        expect(shown).not.toBe(key);
        expect(Object.keys(entity.fields)).not.toContain(shown);
      }
    }
  });

  it('refuses a field that is not a reference', () => {
    expect(() => displayKey('name', { type: 'string' })).toThrow(/not a ref or refs field/);
  });
});

describe('referencesTo', () => {
  it('lists every field of the registry pointing at an entity, ref and refs alike', () => {
    // In registry order, which follows the references (it moves as definitions are added): compared as a set.
    expect(
      referencesTo('governorates')
        .map((r) => `${r.entity.name}.${r.field}:${r.type}`)
        .sort(),
    ).toEqual([
      'branches.governorateId:ref',
      'courts.governorateId:ref',
      'customers.governorateId:ref',
      'policeStations.governorateId:ref',
    ]);
    expect(referencesTo('roles').map((r) => `${r.entity.name}.${r.field}:${r.type}`)).toEqual([
      'employees.roleIds:refs',
    ]);
    expect(referencesTo('employees').map((r) => `${r.entity.name}.${r.field}:${r.type}`)).toContain(
      'customers.lawyerId:ref',
    );
    expect(referencesTo('judges').map((r) => `${r.entity.name}.${r.field}:${r.type}`)).toContain(
      'lawsuits.judgeId:ref',
    );
    expect(referencesTo('noSuchEntity')).toEqual([]);
  });

  it('finds references to itself in a list of definitions', () => {
    const units = defineEntity({
      name: 'units',
      path: '/units',
      remote: 'settings',
      fields: { name: { type: 'string' }, parentId: { type: 'ref', entity: 'units' } },
    });
    expect(referencesIn('units', [units])).toEqual([{ entity: units, field: 'parentId', type: 'ref' }]);
  });
});
