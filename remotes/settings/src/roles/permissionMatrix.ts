import { ALL_PERMISSIONS } from '@mizan/contracts';

/** A permission row as `GET /api/employees/permissions` returns it. */
export interface PermissionRow {
  id: number;
  key: string;
  group: string;
  description?: string | null;
}

/** The standard actions, in the column order of the editor; area actions (`chat.use`) follow. */
export const MATRIX_ACTIONS = [
  'view',
  'create',
  'update',
  'delete',
  'status',
  'baned',
  'import',
  'export',
] as const;

export interface MatrixRow {
  group: string;
  /** action → permission id; an action the group does not have is absent. */
  cells: Record<string, number>;
}

export interface Matrix {
  actions: string[];
  rows: MatrixRow[];
}

export type TriState = 'all' | 'some' | 'none';

const actionOf = (key: string) => key.slice(key.lastIndexOf('.') + 1);
const groupOf = (row: PermissionRow) => row.group || key0(row.key);
const key0 = (key: string) => key.slice(0, key.lastIndexOf('.'));

/** Group order of the contracts (registry order, then areas); unknown groups go last, by name. */
const GROUP_ORDER = new Map<string, number>();
for (const p of ALL_PERMISSIONS) if (!GROUP_ORDER.has(p.group)) GROUP_ORDER.set(p.group, GROUP_ORDER.size);

/** Lays the server's permission rows out as one row per group and one column per action. */
export function buildMatrix(permissions: readonly PermissionRow[]): Matrix {
  const rows = new Map<string, MatrixRow>();
  const extra = new Set<string>();
  for (const p of permissions) {
    const group = groupOf(p);
    const action = actionOf(p.key);
    let row = rows.get(group);
    if (!row) rows.set(group, (row = { group, cells: {} }));
    row.cells[action] = p.id;
    if (!(MATRIX_ACTIONS as readonly string[]).includes(action)) extra.add(action);
  }
  const rank = (g: string) => GROUP_ORDER.get(g) ?? Number.MAX_SAFE_INTEGER;
  const sorted = [...rows.values()].sort(
    (a, b) => rank(a.group) - rank(b.group) || a.group.localeCompare(b.group),
  );
  const used = (action: string) => sorted.some((r) => r.cells[action] !== undefined);
  return { actions: [...MATRIX_ACTIONS.filter(used), ...[...extra].sort()], rows: sorted };
}

function state(ids: number[], selected: ReadonlySet<number>): TriState {
  const on = ids.filter((id) => selected.has(id)).length;
  return on === 0 ? 'none' : on === ids.length ? 'all' : 'some';
}

export const rowIds = (row: MatrixRow) => Object.values(row.cells);
export const columnIds = (matrix: Matrix, action: string) =>
  matrix.rows.flatMap((r) => (r.cells[action] === undefined ? [] : [r.cells[action]]));
export const allIds = (matrix: Matrix) => matrix.rows.flatMap(rowIds);

export const rowState = (row: MatrixRow, selected: ReadonlySet<number>) => state(rowIds(row), selected);
export const columnState = (matrix: Matrix, action: string, selected: ReadonlySet<number>) =>
  state(columnIds(matrix, action), selected);
export const matrixState = (matrix: Matrix, selected: ReadonlySet<number>) => state(allIds(matrix), selected);

/**
 * Any action on a screen needs the screen's `view` permission to be reachable, so granting an
 * action grants `view` with it and taking `view` away takes the whole row.
 */
function withViewRule(matrix: Matrix, next: Set<number>): Set<number> {
  for (const row of matrix.rows) {
    const view = row.cells.view;
    if (view === undefined) continue;
    const others = rowIds(row).filter((id) => id !== view);
    if (others.some((id) => next.has(id))) next.add(view);
  }
  return next;
}

/** Toggles one cell and returns the new selection (sorted ids, as the role form stores them). */
export function toggleCell(
  matrix: Matrix,
  selected: readonly number[],
  row: MatrixRow,
  action: string,
): number[] {
  const id = row.cells[action];
  if (id === undefined) return [...selected];
  const next = new Set(selected);
  if (next.has(id)) {
    next.delete(id);
    if (action === 'view') rowIds(row).forEach((other) => next.delete(other));
    return sortIds(next);
  }
  next.add(id);
  return sortIds(withViewRule(matrix, next));
}

/** Selects the whole row unless it is already complete, in which case clears it. */
export function toggleRow(selected: readonly number[], row: MatrixRow): number[] {
  const next = new Set(selected);
  const ids = rowIds(row);
  if (state(ids, next) === 'all') ids.forEach((id) => next.delete(id));
  else ids.forEach((id) => next.add(id));
  return sortIds(next);
}

/** Selects the whole column unless it is already complete, in which case clears it. */
export function toggleColumn(matrix: Matrix, selected: readonly number[], action: string): number[] {
  const next = new Set(selected);
  const ids = columnIds(matrix, action);
  if (state(ids, next) === 'all') {
    ids.forEach((id) => next.delete(id));
    if (action === 'view')
      matrix.rows
        .filter((row) => row.cells.view !== undefined)
        .forEach((row) => rowIds(row).forEach((id) => next.delete(id)));
    return sortIds(next);
  }
  ids.forEach((id) => next.add(id));
  return sortIds(withViewRule(matrix, next));
}

/** Selects everything unless everything is selected, in which case clears every matrix id. */
export function toggleAll(matrix: Matrix, selected: readonly number[]): number[] {
  const next = new Set(selected);
  const ids = allIds(matrix);
  if (state(ids, next) === 'all') ids.forEach((id) => next.delete(id));
  else ids.forEach((id) => next.add(id));
  return sortIds(next);
}

const sortIds = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);
