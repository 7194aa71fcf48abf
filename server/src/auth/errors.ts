import type { Lang, MessageKey } from './messages';
import { message } from './messages';

/**
 * An HTTP error carrying the status, the translated message, field errors and extra headers.
 * Fastify's error handler (and S1's) reads `statusCode`; `headers` carries Retry-After on 429.
 */
export class AuthError extends Error {
  constructor(
    readonly statusCode: number,
    msg: string,
    readonly code?: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(msg);
    this.name = 'AuthError';
  }
}

export function authError(status: number, lang: Lang, key: MessageKey, code: string = key): AuthError {
  return new AuthError(status, message(lang, key), code);
}
