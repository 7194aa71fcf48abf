import { displayKey, recordTitle, type FieldDefinition } from '@mizan/contracts';
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

/**
 * The `{ id, name }` labels of a ref/refs field on a row; with `lng`, each name as it reads in that
 * language (`recordTitle`: seeded roles in English).
 */
export function refLabels(
  row: EntityRow | undefined,
  name: string,
  field: FieldDefinition,
  lng?: string,
): RefLabel[] {
  if (!row || (field.type !== 'ref' && field.type !== 'refs')) return [];
  const joined = row[refDisplayKey(name, field.type)];
  const labels = Array.isArray(joined) ? joined.filter(isRefLabel) : isRefLabel(joined) ? [joined] : [];
  if (!lng) return labels;
  const target = field.entity;
  return labels.map((l) => ({ ...l, name: recordTitle(target, String(l.name), lng) }));
}
