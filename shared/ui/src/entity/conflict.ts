import { isStaleWriteError, type Entity, type Fields } from '@mizan/contracts';
import { isApiError } from '../data';
import { fieldKind } from '../fields/registry';
import { refDisplayKey, refLabels, type RefLabel } from '../fields/refs';
import type { EntityRow } from '../fields/types';
import type { EntityText } from './labels';

/** Who last saved a record, as a stale write's 409 names them. */
export interface ChangedBy {
  id: number;
  name: string;
}

/**
 * A write refused because the record changed since the form read it (HTTP 409, contracts
 * `StaleWriteError`): the record as it is now, who saved it and when.
 */
export interface StaleConflict<Row = EntityRow> {
  /** The server's message; empty for a live change seen before any save. */
  message: string;
  current: Row;
  changedBy: ChangedBy | null;
  changedAt: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * The stale-write details of a failed save, or `undefined` for any other failure (a 409 without
 * `current`, such as a delete refused because the row is referenced, is not one).
 */
export function staleConflictOf<Row = EntityRow>(error: unknown): StaleConflict<Row> | undefined {
  if (!isApiError(error) || error.status !== 409 || !isStaleWriteError(error.body)) return undefined;
  const { current, changedBy, changedAt } = error.body as {
    current: unknown;
    changedBy: unknown;
    changedAt: unknown;
  };
  if (!isObject(current)) return undefined;
  const by =
    isObject(changedBy) && typeof changedBy.id === 'number' && typeof changedBy.name === 'string'
      ? { id: changedBy.id, name: changedBy.name }
      : null;
  const at =
    typeof changedAt === 'string'
      ? changedAt
      : typeof current.updatedAt === 'string'
        ? current.updatedAt
        : null;
  return { message: error.message, current: current as Row, changedBy: by, changedAt: at };
}

/** One field whose value differs between what the user typed and the stored record. */
export interface FieldDifference {
  field: string;
  label: string;
  mine: string;
  theirs: string;
}

/**
 * The fields where the form's body and the current record disagree, as display text (labels,
 * enum names, reference titles). Reference titles of the user's values come from any row that
 * knows them (the record read, the current one); an id neither knows shows as `#id`.
 */
export function fieldDifferences(
  entity: Entity<Fields>,
  text: EntityText,
  names: string[],
  mine: Record<string, unknown>,
  theirs: Record<string, unknown>,
  rows: EntityRow[],
  current: EntityRow,
): FieldDifference[] {
  const out: FieldDifference[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  for (const name of names) {
    const field = entity.fields[name];
    if (!field || field.type === 'files' || field.writeOnly) continue;
    if (same(mine[name], theirs[name])) continue;
    const ctx = text.context(name);
    const kind = fieldKind(field);
    const myRow: EntityRow = { ...current, [name]: mine[name] };
    if (field.type === 'ref' || field.type === 'refs') {
      const known = new Map<number, RefLabel>();
      for (const row of rows) for (const label of refLabels(row, name, field)) known.set(label.id, label);
      const ids = (Array.isArray(mine[name]) ? mine[name] : [mine[name]]).filter(
        (id): id is number => typeof id === 'number',
      );
      const labels = ids.map((id) => known.get(id) ?? { id, name: `#${id}` });
      myRow[refDisplayKey(name, field.type)] = field.type === 'ref' ? (labels[0] ?? null) : labels;
    }
    out.push({
      field: name,
      label: ctx.label,
      mine: String(kind.text(mine[name], myRow, ctx)),
      theirs: String(kind.text(current[name], current, ctx)),
    });
  }
  if (entity.status && !same(mine.status, theirs.status))
    out.push({
      field: 'status',
      label: text.label('status'),
      mine: text.t(`values.status.${mine.status ? 'on' : 'off'}`, { ns: 'ui' }),
      theirs: text.t(`values.status.${theirs.status ? 'on' : 'off'}`, { ns: 'ui' }),
    });
  return out;
}
