import type { Entity, Fields } from '@mizan/contracts';

/**
 * The address of one row's record page: the entity's list route and the id
 * (`/admin/customers/7`), as `entityRoutes` mounts it.
 */
export function recordPath(entity: Pick<Entity<Fields>, 'route'>, id: number | string): string {
  return `${entity.route}/${id}`;
}

/** The record page of a row with its edit form open (`RecordPage` reads `?edit=1`). */
export function recordEditPath(entity: Pick<Entity<Fields>, 'route'>, id: number | string): string {
  return `${recordPath(entity, id)}?edit=1`;
}

/** The record route pattern of an entity (`/admin/customers/:id`). */
export function recordRoute(entity: Pick<Entity<Fields>, 'route'>): string {
  return recordPath(entity, ':id');
}

/** A route's `:id` as a row id: a positive integer, else `null` (a not-found state, not a request). */
export function parseRecordId(raw: string | number | undefined): number | null {
  const n = typeof raw === 'number' ? raw : /^\d+$/.test(raw ?? '') ? Number(raw) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
