import { issueMessage } from '@mizan/contracts';
import type { z } from 'zod';
import { AppError, type Translatable } from './errors';
import { translate, type Lang } from './messages';

/** The field an issue is about: `roleIds.2` belongs to `roleIds`; a root issue to `_`. */
function issueField(issue: z.core.$ZodIssue): string {
  const [first] = issue.path;
  return first === undefined ? '_' : String(first);
}

/** Every field's messages from a zod error, as translatable keys (`validation.*` of @mizan/i18n). */
export function zodFieldErrors(error: z.ZodError): Record<string, Translatable[]> {
  const errors: Record<string, Translatable[]> = {};
  for (const issue of error.issues) {
    const field = issueField(issue);
    const { key, params } = issueMessage(issue);
    const list = (errors[field] ??= []);
    // Two checks on one field can fail with the same message (min + whitespace): show it once.
    if (!list.some((m) => typeof m !== 'string' && m.key === key)) list.push({ key, params });
  }
  return errors;
}

/**
 * Parses `input` with `schema`, or throws 422 with every field's messages.
 * A body that is not an object at all is a malformed request (400).
 *
 * @example
 * const values = parseOrThrow(createSchema(entity), request.body, entity.name);
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, entity?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  if (result.error.issues.some((issue) => issue.path.length === 0)) throw new AppError('malformed');
  throw new AppError('validation', { entity, errors: zodFieldErrors(result.error) });
}

/**
 * Parses `input` with `schema`, or throws 422 whose messages are already in `lang`, each field
 * named by its label under the i18n prefix `labels` (`system.fields` → `system.fields.<field>`;
 * without it, or without such a key, the field's own name). A body that is not an object at all
 * is malformed (400). `defineRoute` parses every non-CRUD route with it.
 *
 * @example
 * const body = parseInput(loginBody, request.body, 'ar', 'auth.labels');
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  lang: Lang,
  labels?: string,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  if (result.error.issues.some((issue) => issue.path.length === 0)) throw new AppError('malformed');
  const label = (field: string) => {
    if (!labels) return field;
    const key = `${labels}.${field}`;
    const text = translate(lang, key);
    return text === key ? field : text;
  };
  throw new AppError('validation', {
    errors: Object.fromEntries(
      Object.entries(zodFieldErrors(result.error)).map(([field, list]) => [
        field,
        list.map((m) =>
          typeof m === 'string' ? m : translate(lang, m.key, { label: label(field), ...m.params }),
        ),
      ]),
    ),
  });
}
