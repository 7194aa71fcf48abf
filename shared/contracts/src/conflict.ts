import type { Gender } from './entities/people';
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
  /**
   * Who made the latest change (from the audit trail), or null when unknown (system work); their
   * gender, when given, for the Arabic verb of "X saved it meanwhile".
   */
  changedBy: { id: number; name: string; gender?: Gender | null } | null;
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

/** One entity still pointing at a row that was to be deleted, and how many of its rows do. */
export interface HeldBy {
  /** The holding entity's name (`procurations`); its label is `entities.<entity>.title`. */
  entity: string;
  count: number;
}

/**
 * The 409 body of a delete refused because other rows still refer to the row: the message names
 * them with their counts in the request's language, `heldBy` lists them for the client.
 *
 * @example { code: 'referenced', message: '…(Powers of attorney: 3)', heldBy: [{ entity: 'procurations', count: 3 }] }
 */
export interface ReferencedError extends ErrorBody {
  code: 'referenced';
  heldBy: HeldBy[];
}

/** Whether an error body is a refused delete that names what holds the row. */
export function isReferencedError(body: unknown): body is ReferencedError {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body as { code?: unknown }).code === 'referenced' &&
    Array.isArray((body as { heldBy?: unknown }).heldBy)
  );
}
