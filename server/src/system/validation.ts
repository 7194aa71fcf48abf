import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../http/errors';
import { requestLanguage, translate, type Lang } from '../http/messages';
import { zodFieldErrors } from '../http/validation';

/** A field's label in the system module (`system.fields.<field>`). */
export const systemLabel = (lang: Lang, field: string): string => {
  const label = translate(lang, `system.fields.${field}`);
  return label === `system.fields.${field}` ? field : label;
};

/** Field messages translated with the system module's labels. */
export function systemFieldErrors(error: z.ZodError, lang: Lang): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(zodFieldErrors(error)).map(([field, messages]) => [
      field,
      messages.map((m) =>
        typeof m === 'string' ? m : translate(lang, m.key, { label: systemLabel(lang, field), ...m.params }),
      ),
    ]),
  );
}

/**
 * Parses `input` or throws 422 with translated field messages; a body that is not an object at
 * all is malformed (400).
 */
export function parseSystem<S extends z.ZodType>(
  schema: S,
  input: unknown,
  request: FastifyRequest,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  if (result.error.issues.some((issue) => issue.path.length === 0)) throw new AppError('malformed');
  throw new AppError('validation', { errors: systemFieldErrors(result.error, requestLanguage(request)) });
}
