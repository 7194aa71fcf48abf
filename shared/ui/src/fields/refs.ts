import { displayKey, type FieldDefinition } from '@mizan/contracts';
import type { EntityRow } from './types';

export interface RefLabel {
  id: number;
  name: string;
}

/**
 * Where the API puts the joined label of a reference: `continentId` comes with `continent`,
 * `roleIds` with `roles`; the server names it with the same `displayKey` of the contracts.
 */
export function refDisplayKey(name: string, type: 'ref' | 'refs'): string {
  return displayKey(name, { type });
}

const isRefLabel = (v: unknown): v is RefLabel =>
  typeof v === 'object' && v !== null && 'id' in v && 'name' in v;

/** The `{ id, name }` labels of a ref/refs field on a row. */
export function refLabels(row: EntityRow | undefined, name: string, field: FieldDefinition): RefLabel[] {
  if (!row || (field.type !== 'ref' && field.type !== 'refs')) return [];
  const joined = row[refDisplayKey(name, field.type)];
  if (Array.isArray(joined)) return joined.filter(isRefLabel);
  return isRefLabel(joined) ? [joined] : [];
}
