import { AppError, validationError, type ErrorCode, type Translatable } from '../http/errors';
import type { MessageKey } from './messages';

/**
 * An error of the catalogue (`AppError`, http/errors) carrying one of this module's messages; the error
 * handler translates `auth.<key>` in the request's language.
 *
 * @example
 * throw authError('unauthorized', 'tokenInvalid');
 */
export function authError(
  code: ErrorCode,
  key: MessageKey,
  params?: Record<string, string | number>,
  headers?: Record<string, string>,
): AppError {
  return new AppError(code, { messageKey: `auth.${key}`, params, headers });
}

/** 429 with `Retry-After` and a message that says how long to wait. */
export function tooManyRequests(retryAfter: number): AppError {
  return authError(
    'tooManyRequests',
    'tooManyRequests',
    { seconds: retryAfter },
    { 'retry-after': String(retryAfter) },
  );
}

/** 422 on one field with one of this module's messages. */
export function fieldError(
  field: string,
  key: MessageKey,
  params?: Record<string, string | number>,
): AppError {
  return validationError(undefined, { [field]: [{ key: `auth.${key}`, params }] });
}

export type { Translatable };
