/** One changed field of an audit entry. */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** Bookkeeping columns every write touches; showing them would hide the real change. */
const NOISE = new Set(['updatedAt', 'createdAt']);

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The fields that differ between the stored row before and after a change. A create has no
 * `before`, a delete no `after`: then every field of the one side is listed.
 */
export function diffRows(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
): FieldChange[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter(
    (k) => !NOISE.has(k),
  );
  return keys
    .filter((field) => !same(before?.[field], after?.[field]))
    .map((field) => ({ field, before: before?.[field] ?? null, after: after?.[field] ?? null }));
}

/** A value as one line of text: lists of `{ id, name }` read as names, objects as JSON. */
export function displayValue(value: unknown, separator = ', '): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value))
    return value
      .map((v) => (typeof v === 'object' && v && 'name' in v ? String(v.name) : displayValue(v, separator)))
      .join(separator);
  if (typeof value === 'object') return 'name' in value ? String(value.name) : JSON.stringify(value);
  return String(value);
}
