import type { z } from 'zod';
import type { Lang } from '../http/messages';
import { parseInput } from '../http/validation';

/**
 * Parses a body of the profile routes with this module's labels (`auth.labels.<field>`): 422 with
 * translated field messages, 400 when not an object. Routes declared with `defineRoute` get the
 * same through `labels: 'auth.labels'`; this stays for the people module's routes until they do.
 */
export function parseBody<S extends z.ZodType>(schema: S, input: unknown, lang: Lang): z.output<S> {
  return parseInput(schema, input ?? {}, lang, 'auth.labels');
}
