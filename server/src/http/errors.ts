/**
 * The one error catalogue: a stable code per failure, each with its HTTP status.
 * Throw `AppError` anywhere; the error handler turns it into `{ message, errors?, code }` in the
 * request's language.
 *
 * @example
 * throw new AppError('notFound');
 * throw new AppError('unique', { entity: 'courts', errors: { name: [{ key: 'http.unique' }] } });
 */
export const ERROR_STATUS = {
  validation: 422,
  malformed: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  unique: 409,
  referenced: 409,
  /** A write sent with an outdated `updatedAt` (see `StaleWriteError` in contracts). */
  stale: 409,
  payloadTooLarge: 413,
  unsupportedMediaType: 415,
  tooManyRequests: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A message to translate later: an i18n key with interpolation values, or text already translated. */
export type Translatable = string | { key: string; params?: Record<string, string | number> };

export interface AppErrorOptions {
  /** Message key; default `http.<code>`. */
  messageKey?: string;
  params?: Record<string, string | number>;
  /** Field messages; `{{label}}` becomes the field's label in the request's language. */
  errors?: Record<string, Translatable[]>;
  /** Entity whose field labels (`entities.<entity>.fields.<field>`) fill `{{label}}`. */
  entity?: string;
  headers?: Record<string, string>;
  cause?: unknown;
  /** More members of the body, sent as they are (the stale write's `current` row). */
  extra?: Record<string, unknown>;
  /** Per-row field messages of a batch write (`createMany`), translated like `errors`. */
  rows?: { index: number; errors: Record<string, Translatable[]> }[];
}

export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    readonly options: AppErrorOptions = {},
  ) {
    super(options.messageKey ?? `http.${code}`, { cause: options.cause });
    this.name = 'AppError';
    this.statusCode = ERROR_STATUS[code];
  }
}

/** A 422 carrying field messages. */
export function validationError(
  entity: string | undefined,
  errors: Record<string, Translatable[]>,
): AppError {
  return new AppError('validation', { entity, errors });
}

/** Maps an HTTP status to the catalogue code used when an error carries only a status. */
export function codeForStatus(status: number): ErrorCode {
  const entry = Object.entries(ERROR_STATUS).find(([, s]) => s === status);
  if (entry) return entry[0] as ErrorCode;
  return status >= 500 ? 'internal' : 'malformed';
}
