import { genderOf, isStaleWriteError, type Entity, type Fields, type Gender } from '@mizan/contracts';
import { isApiError } from '../data';
import { fieldKind } from '../fields/registry';
import { refDisplayKey, refLabels, type RefLabel } from '../fields/refs';
import type { EntityRow } from '../fields/types';
import type { EntityText } from './labels';

/** Who last saved a record, as a stale write's 409 names them. */
export interface ChangedBy {
  id: number;
  name: string;
  /** For the verb of "X saved it" (i18next context `female`); null when not given. */
  gender: Gender | null;
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
      ? { id: changedBy.id, name: changedBy.name, gender: genderOf(changedBy.gender) }
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
 * One field's value as display text (labels, enum names, reference titles): `row` is the record
 * the value belongs to, or `current` with the value put in; reference titles of an id come from
 * any row that knows it (`rows`), an id none knows shows as `#id`.
 */
export function fieldText(
  entity: Entity<Fields>,
  text: EntityText,
  name: string,
  value: unknown,
  rows: EntityRow[],
  current: EntityRow,
): string {
  if (name === 'status') return text.t(`values.status.${value ? 'on' : 'off'}`, { ns: 'ui' });
  const field = entity.fields[name];
  if (!field) return '';
  const ctx = text.context(name);
  const row: EntityRow = { ...current, [name]: value };
  if (field.type === 'ref' || field.type === 'refs') {
    const known = new Map<number, RefLabel>();
    for (const source of rows) for (const label of refLabels(source, name, field)) known.set(label.id, label);
    const ids = (Array.isArray(value) ? value : [value]).filter((id): id is number => typeof id === 'number');
    const labels = ids.map((id) => known.get(id) ?? { id, name: `#${id}` });
    row[refDisplayKey(name, field.type)] = field.type === 'ref' ? (labels[0] ?? null) : labels;
  }
  return String(fieldKind(field).text(value, row, ctx));
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
  const all = entity.status ? [...names, 'status'] : names;
  for (const name of all) {
    const field = entity.fields[name];
    if (name !== 'status' && (!field || field.type === 'files' || field.writeOnly)) continue;
    if (same(mine[name], theirs[name])) continue;
    out.push({
      field: name,
      label: name === 'status' ? text.label('status') : text.context(name).label,
      mine: fieldText(entity, text, name, mine[name], rows, current),
      theirs: fieldText(entity, text, name, theirs[name], [current], current),
    });
  }
  return out;
}

/**
 * How a save over someone else's change merges, field by field, from three values: what the
 * form was given (`given`: opened with, or filled from a live change), what the user has now
 * (`mine`) and what is stored now (`theirs`), each as a comparable key:
 * - `both`: the user and they changed it, to different values: the user chooses;
 * - `theirs`: only they changed it: taken as it is;
 * - a field only the user changed, or changed alike by both, keeps the user's value.
 *
 * @example threeWayMerge(['name', 'code'], { name: 'a', code: 'x' }, { name: 'b', code: 'x' }, { name: 'c', code: 'y' }) // { both: ['name'], theirs: ['code'] }
 */
export function threeWayMerge(
  names: readonly string[],
  given: Record<string, string>,
  mine: Record<string, string>,
  theirs: Record<string, string>,
): { both: string[]; theirs: string[] } {
  const both: string[] = [];
  const taken: string[] = [];
  for (const name of names) {
    if (theirs[name] === given[name]) continue;
    if (mine[name] === given[name]) taken.push(name);
    else if (mine[name] !== theirs[name]) both.push(name);
  }
  return { both, theirs: taken };
}
