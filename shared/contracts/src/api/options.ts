import { z } from 'zod';
import { answer, route } from '../route';
import { parseDigits } from '../text';

/**
 * What a reference picker offers (`GET /api/options/<entity>/<field>?q=&ids=`): the rows a `ref`
 * or `refs` field of `<entity>` may point at, as an id, a title and a line telling two of them
 * apart, never the whole record. Whoever may view, create or update `<entity>` may ask (the list
 * filter, the form), without the right to read the referenced entity itself: a secretary picks a
 * lawsuit's lawyers without reading the employees' records. The field's `options.where` narrows
 * the rows offered (lawyers only); `q` is the referenced list's Arabic-folded search.
 *
 * @example GET /api/options/lawsuits/lawyerIds?q=احمد  // { data: { items: [{ id: 3, title: 'أحمد', detail: 'محامٍ' }] } }
 */
/** Rows answered for one search: the first ones, in the referenced list's own order. */
export const OPTIONS_LIMIT = 20;
/** Most ids one `ids` query names (a `refs` value shown in a form). */
export const OPTIONS_IDS_MAX = 1000;

const idList = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .map((s) => parseDigits(s))
      : value,
  z
    .array(
      z.coerce
        .number()
        .int({ error: 'validation.types.integer' })
        .positive({ error: 'validation.types.integer' }),
    )
    .max(OPTIONS_IDS_MAX, { error: 'validation.array.max' }),
);

/**
 * Besides `q` and `ids`, any filterable field of the referenced entity narrows the rows by
 * equality (`?courtId=3`: the circuits of one court), as its list would; a value that is not
 * the field's type is 422 on it.
 */
export const optionsQuery = z.looseObject({
  /** Folded search over the referenced entity's `search` fields. */
  q: z.string().trim().max(200, { error: 'validation.string.max' }).optional(),
  /**
   * Comma-separated ids: the labels of values already chosen, whatever `q` and the field's
   * `where` say (a lawsuit keeps showing a lawyer who has since left the lawyers' role).
   */
  ids: idList.optional(),
});
export type OptionsQuery = z.input<typeof optionsQuery>;

export const refOption = z.object({
  id: z.number().int(),
  /** The row's title field as stored (`recordTitle` reads it in the reader's language). */
  title: z.string(),
  /** What tells two rows of the same title apart (the definition's `optionDetail` fields), if any. */
  detail: z.string().nullable(),
});
export type RefOption = z.infer<typeof refOption>;

export const optionsResult = z.object({ items: z.array(refOption) });
export type OptionsResult = z.infer<typeof optionsResult>;

export const OPTIONS_ROUTES = {
  /** `params`: the entity holding the field, and the field. */
  list: route({
    method: 'GET',
    path: '/options/:entity/:field',
    // Checked in the handler: the permission depends on the entity named in the path.
    permission: null,
    summary:
      'The rows a reference field may point at (id, title, detail), for whoever may view, create or update its entity',
    query: optionsQuery,
    response: optionsResult,
    answer: answer<OptionsResult>(),
  }),
};
