import { diffRows, displayValue } from './diff';

describe('diffRows', () => {
  it('lists only the fields that changed, without bookkeeping columns', () => {
    const before = {
      id: 1,
      name: 'Riyadh court',
      courtType: 'general',
      updatedAt: 'a',
      roles: [{ id: 1, name: 'A' }],
    };
    const after = {
      id: 1,
      name: 'Riyadh General Court',
      courtType: 'general',
      updatedAt: 'b',
      roles: [{ id: 1, name: 'A' }],
    };
    expect(diffRows(before, after)).toEqual([
      { field: 'name', before: 'Riyadh court', after: 'Riyadh General Court' },
    ]);
  });

  it('lists every field of a created row as new, of a deleted row as gone', () => {
    expect(diffRows(null, { id: 5, name: 'X', createdAt: 't' })).toEqual([
      { field: 'id', before: null, after: 5 },
      { field: 'name', before: null, after: 'X' },
    ]);
    expect(diffRows({ id: 5, name: 'X' }, null)).toEqual([
      { field: 'id', before: 5, after: null },
      { field: 'name', before: 'X', after: null },
    ]);
  });

  it('treats a missing field and null as the same', () => {
    expect(diffRows({ phone: null }, {})).toEqual([]);
  });
});

describe('displayValue', () => {
  it('reads lists of references as names and objects as JSON', () => {
    expect(
      displayValue([
        { id: 1, name: 'Lawyer' },
        { id: 2, name: 'Secretary' },
      ]),
    ).toBe('Lawyer, Secretary');
    expect(
      displayValue(
        [
          { id: 1, name: 'محامٍ' },
          { id: 2, name: 'سكرتير' },
        ],
        '، ',
      ),
    ).toBe('محامٍ، سكرتير');
    expect(displayValue({ id: 3, name: 'Riyadh' })).toBe('Riyadh');
    expect(displayValue({ a: 1 })).toBe('{"a":1}');
    expect(displayValue(true)).toBe('true');
    expect(displayValue(null)).toBe('');
  });
});
