// One declaration for both sides: the server answers these shapes (contracts `api/import.ts`).
export type { ImportPreview, ImportResult, ImportRowError } from '@mizan/contracts';

/** Largest upload the server accepts (server/src/import `IMPORT_LIMITS.maxFileBytes`). */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

export const IMPORT_ACCEPT = [
  '.csv',
  '.xlsx',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const;
