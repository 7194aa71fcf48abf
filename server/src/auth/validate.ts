import type { z } from 'zod';
import { AppError, validationError } from '../http/errors';
import { translate } from '../http/messages';
import { zodFieldErrors } from '../http/validation';
import { label, type Lang } from './messages';

/**
 * Parses a body of the auth and profile routes, or throws 422 whose messages name the fields with
 * this module's labels (`newPassword`, `code`, ... are not entity fields). A body that is not an
 * object is malformed (400).
 */
export function parseBody<S extends z.ZodType>(schema: S, input: unknown, lang: Lang): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  if (result.error.issues.some((issue) => issue.path.length === 0)) throw new AppError('malformed');
  const errors = Object.fromEntries(
    Object.entries(zodFieldErrors(result.error)).map(([field, list]) => [
      field,
      list.map((m) =>
        typeof m === 'string' ? m : translate(lang, m.key, { label: label(lang, field), ...m.params }),
      ),
    ]),
  );
  throw validationError(undefined, errors);
}
