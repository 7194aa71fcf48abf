/** One problem of one data row (spreadsheet row numbers, the header is row 1). */
export interface ImportRowError {
  row: number;
  field: string | null;
  message: string;
}

/** `POST <path>/import?dryRun=1` (server/src/import): what a commit would do, nothing written. */
export interface ImportPreview {
  total: number;
  valid: number;
  duplicates: number;
  errors: ImportRowError[];
  /** Rows skipped because their unique value exists already or appeared earlier in the file. */
  duplicateRows?: ImportRowError[];
  /** Headers that match no field (their columns are not read). */
  ignoredColumns?: string[];
  columns?: { header: string; field: string }[];
  /** The first rows that would be created, shaped like list rows, plus their spreadsheet `row`. */
  sample?: Record<string, unknown>[];
}

/** `POST <path>/import`: all rows written in one transaction (duplicates skipped). */
export interface ImportResult {
  created: number;
  skipped: number;
  rejected: { row: number; reasons: string[] }[];
  duplicateRows?: ImportRowError[];
}

/** Largest upload the server accepts (server/src/import `IMPORT_LIMITS.maxFileBytes`). */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

export const IMPORT_ACCEPT = [
  '.csv',
  '.xlsx',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const;
