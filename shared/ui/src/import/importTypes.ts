import type { Entity, FieldDefinition, Fields } from '@mizan/contracts';

/** One problem of one data row (spreadsheet row numbers, header = 1). */
export interface ImportRowError {
  row: number;
  field?: string | null;
  message: string;
}

/** `POST <path>/import?dryRun=1`: what a commit would do, nothing written. */
export interface ImportPreview {
  total: number;
  valid: number;
  duplicates: number;
  errors: ImportRowError[];
  rows?: unknown[];
}

/** `POST <path>/import`: the all-or-nothing commit's outcome. */
export interface ImportResult {
  created: number;
  skipped: number;
  /** Rows refused, with their reasons (a count when the server gives only that). */
  rejected: number | ImportRowError[];
}

/** Largest upload the server accepts (server/src/import `IMPORT_LIMITS.maxFileBytes`). */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

export const IMPORT_ACCEPT = [
  '.csv',
  '.xlsx',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const;

/** Columns of an import file: what a person types (no uploads, no passwords), as the server maps them. */
export function importColumns(entity: Entity<Fields>): [string, FieldDefinition | undefined][] {
  const columns: [string, FieldDefinition | undefined][] = Object.entries(entity.fields).filter(
    ([, field]) => field.type !== 'files' && field.type !== 'password' && !field.writeOnly,
  );
  if (entity.status) columns.push(['status', undefined]);
  return columns;
}
