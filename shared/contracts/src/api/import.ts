import { z } from 'zod';
import type { Entity, Fields } from '../entity';
import { permissionKey } from '../permissions';
import { answer, route } from '../route';

/** `POST /api/<entity path>/import` (multipart part `file`) and `GET …/import/template`. */

/** `?dryRun=1` (or `true`) answers the preview without writing. */
export const importQuery = z
  .object({ dryRun: z.enum(['1', 'true', '0', 'false'], { error: 'validation.enum' }).optional() })
  .strip();

export const importTemplateQuery = z
  .object({ format: z.enum(['csv', 'xlsx'], { error: 'validation.enum' }).default('xlsx') })
  .strip();

/** One problem of one data row; `row` is the spreadsheet row number (the header is row 1). */
export interface ImportRowError {
  row: number;
  field: string | null;
  message: string;
}

/** A row left out because its unique value exists already, or appeared earlier in the file. */
export interface DuplicateRow {
  row: number;
  field: string;
  message: string;
}

/**
 * `?dryRun=1`: what a commit would do. Every data row is counted once, in one of `valid`,
 * `duplicates` and `invalid`, so the three add up to `total`.
 */
export interface ImportPreview {
  total: number;
  /** Rows the commit would create. */
  valid: number;
  /** Rows it would skip (their unique value exists already or appeared earlier in the file). */
  duplicates: number;
  /** Rows with at least one error (`errors` may hold several per row). */
  invalid: number;
  errors: ImportRowError[];
  duplicateRows: DuplicateRow[];
  ignoredColumns: string[];
  columns: { header: string; field: string }[];
  /** The first rows that would be created, as the list shows them (`row` = spreadsheet row). */
  sample: Record<string, unknown>[];
}

/** The commit's outcome (all rows valid; duplicates skipped). */
export interface ImportResult {
  created: number;
  skipped: number;
  rejected: { row: number; reasons: string[] }[];
  duplicateRows: DuplicateRow[];
}

/**
 * The import routes of an importable entity: `upload` (`?dryRun=1` answers the preview, else the
 * result: 201 when rows were created, 422 with the rows when any is invalid) and its `template`.
 */
export function importRoutes(entity: Pick<Entity<Fields>, 'name' | 'path'>) {
  const permission = permissionKey(entity, 'import');
  const path = `${entity.path}/import`;
  return {
    upload: route({
      method: 'POST',
      path,
      permission,
      summary: `Import ${entity.name} from CSV/XLSX (multipart part \`file\`; \`?dryRun=1\` previews)`,
      query: importQuery,
      multipart: { parts: { file: 'file' }, required: ['file'] },
      answer: answer<ImportPreview | ImportResult>(),
    }),
    template: route({
      method: 'GET',
      path: `${path}/template`,
      permission,
      summary: `Import template of ${entity.name}`,
      query: importTemplateQuery,
    }),
  };
}
