import { displayKey, type Entity, type Fields, type StoredFile } from '@mizan/contracts';
import { toBoolean } from '../db';
import { columnName } from '../db/migrations';

/** A row as the API returns it (camelCase, see the team brief's row shape). */
export type ApiRow = {
  id: number;
  createdAt: string;
  updatedAt: string;
  status?: boolean;
  baned?: boolean;
} & Record<string, unknown>;

/** A database row: snake_case columns. */
export type DbRow = Record<string, unknown>;

/** Name of the display object beside a `ref` field (`continentId` → `continent`): contracts' `displayKey`. */
export const refDisplayName = (field: string): string => displayKey(field, { type: 'ref' });
/** Name of the display list beside a `refs` field (`roleIds` → `roles`): contracts' `displayKey`. */
export const refsDisplayName = (field: string): string => displayKey(field, { type: 'refs' });

export interface Expansions {
  /** Per ref/refs field: referenced id → title. */
  titles: Map<string, Map<number, string>>;
  /** Per refs field: owner id → referenced ids. */
  links: Map<string, Map<number, number[]>>;
  /** Per files field: owner id → stored files. */
  files: Map<string, Map<number, StoredFile[]>>;
}

/** A stored instant (PostgreSQL answers a `Date`, SQLite the ISO text) as ISO text. */
export const instant = (value: unknown): string =>
  value instanceof Date ? value.toISOString() : String(value);

/**
 * A stored field's value as the API and modules see it: booleans from SQLite's 0/1, numbers from
 * PostgreSQL's BIGINT text, instants as ISO text, null as null.
 */
export function fieldValue(type: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'boolean':
      return toBoolean(value);
    case 'integer':
    case 'number':
    case 'duration':
    case 'money': // PostgreSQL answers a BIGINT as text; amounts stay within MONEY_MAX, exact in a number
    case 'ref':
      return Number(value);
    case 'datetime':
      return instant(value);
    default:
      return value;
  }
}

/** Turns one database row into the API shape; write-only fields never leave. */
export function toApiRow(entity: Entity<Fields>, row: DbRow, ex: Expansions): ApiRow {
  const id = Number(row.id);
  const out: ApiRow = { id, createdAt: instant(row.created_at), updatedAt: instant(row.updated_at) };
  if (entity.status) out.status = toBoolean(row.status);
  if (entity.baned) out.baned = toBoolean(row.baned);
  for (const [key, field] of Object.entries(entity.fields)) {
    if (field.writeOnly) continue;
    if (field.type === 'refs') {
      const ids = ex.links.get(key)?.get(id) ?? [];
      const titles = ex.titles.get(key);
      out[key] = ids;
      out[refsDisplayName(key)] = ids.map((ref) => ({ id: ref, name: titles?.get(ref) ?? null }));
    } else if (field.type === 'files') {
      out[key] = ex.files.get(key)?.get(id) ?? [];
    } else {
      const value = fieldValue(field.type, row[columnName(key)]);
      out[key] = value;
      if (field.type === 'ref') {
        out[refDisplayName(key)] =
          value === null ? null : { id: value, name: ex.titles.get(key)?.get(value as number) ?? null };
      }
    }
  }
  return out;
}

/** A stored file row as `StoredFile` (the stored name never leaves). */
export function toStoredFile(row: DbRow): StoredFile {
  return {
    id: Number(row.id),
    originalName: String(row.original_name),
    mimeType: String(row.mime_type),
    size: Number(row.size),
    createdAt: instant(row.created_at),
  };
}
