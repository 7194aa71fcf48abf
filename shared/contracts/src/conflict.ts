import type { ErrorBody } from './errors';

/**
 * Optimistic concurrency: every update, patch, toggle and action may carry the `updatedAt` of the
 * row as it was read (the field of that name in the JSON body, or in the multipart form). When the
 * stored row has changed since, nothing is written and the answer is 409 `StaleWriteError`. Left
 * out, the write goes ahead as before (scripts, imports). Stamps have millisecond precision and two
 * writes of one row never share one.
 */
export const VERSION_FIELD = 'updatedAt';

/** The 409 body of a write sent with an outdated `updatedAt`. */
export interface StaleWriteError<T = Record<string, unknown>> extends ErrorBody {
  code: 'stale';
  /** The row as it is stored now (what the form should reload or compare with). */
  current: T;
  /** Who made the latest change (from the audit trail), or null when unknown (system work). */
  changedBy: { id: number; name: string } | null;
  /** When it was made: the current row's `updatedAt`. */
  changedAt: string;
}

/** Whether an error body is a stale-write conflict. */
export function isStaleWriteError(body: unknown): body is StaleWriteError {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body as { code?: unknown }).code === 'stale' &&
    'current' in body
  );
}
