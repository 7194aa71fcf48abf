import {
  buildMatrix,
  toggleAll,
  toggleCell,
  toggleColumn,
  toggleRow,
  type PermissionRow,
} from './permissionMatrix';

const rows: PermissionRow[] = [
  { id: 1, key: 'roles.view', group: 'roles' },
  { id: 2, key: 'roles.create', group: 'roles' },
  { id: 3, key: 'roles.baned', group: 'roles' },
  { id: 4, key: 'permissions.view', group: 'permissions' },
  { id: 5, key: 'permissions.export', group: 'permissions' },
  { id: 6, key: 'chat.use', group: 'chat' },
  { id: 7, key: 'systemSettings.view', group: 'systemSettings' },
  { id: 8, key: 'systemSettings.update', group: 'systemSettings' },
];

describe('buildMatrix', () => {
  const matrix = buildMatrix(rows);

  it('orders groups as the contracts list them and keeps area actions after the standard ones', () => {
    expect(matrix.rows.map((r) => r.group)).toEqual(['permissions', 'roles', 'systemSettings', 'chat']);
    expect(matrix.actions).toEqual(['view', 'create', 'update', 'baned', 'export', 'use']);
  });

  it('maps each cell to its permission id and leaves missing actions empty', () => {
    const roles = matrix.rows.find((r) => r.group === 'roles')!;
    expect(roles.cells).toEqual({ view: 1, create: 2, baned: 3 });
  });
});

describe('toggling', () => {
  const matrix = buildMatrix(rows);
  const roles = matrix.rows.find((r) => r.group === 'roles')!;

  it('toggles one cell on and off', () => {
    expect(toggleCell(matrix, [4], roles, 'view')).toEqual([1, 4]);
    expect(toggleCell(matrix, [1, 4], roles, 'view')).toEqual([4]);
  });

  it('grants view with any other action of the row', () => {
    expect(toggleCell(matrix, [], roles, 'create')).toEqual([1, 2]);
  });

  it('takes the whole row away with its view', () => {
    expect(toggleCell(matrix, [1, 2, 3, 4], roles, 'view')).toEqual([4]);
  });

  it('unchecking a non-view action keeps the rest', () => {
    expect(toggleCell(matrix, [1, 2, 3], roles, 'create')).toEqual([1, 3]);
  });

  it('selects a partial row completely, then clears a complete row', () => {
    expect(toggleRow([2, 8], roles)).toEqual([1, 2, 3, 8]);
    expect(toggleRow([1, 2, 3, 8], roles)).toEqual([8]);
  });

  it('selects a column (with the views it needs), then clears it', () => {
    expect(toggleColumn(matrix, [], 'create')).toEqual([1, 2]);
    expect(toggleColumn(matrix, [], 'update')).toEqual([7, 8]);
    expect(toggleColumn(matrix, [1, 2], 'create')).toEqual([1]);
  });

  it('clearing the view column clears every row', () => {
    expect(toggleColumn(matrix, [1, 2, 3, 4, 5, 6, 7, 8], 'view')).toEqual([6]);
  });

  it('selects and clears everything, keeping ids that are not in the matrix', () => {
    expect(toggleAll(matrix, [99])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 99]);
    expect(toggleAll(matrix, [1, 2, 3, 4, 5, 6, 7, 8, 99])).toEqual([99]);
  });
});
