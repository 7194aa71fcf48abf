import type { HeldBy } from '@mizan/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../http/errors';
import { DEFAULT_LANG, requestLanguage, translate, type Lang } from '../http/messages';
import type { ApiRow } from './serialize';

/** An entity's label in `lang`: its title (plural) or singular from the `entities` namespace. */
function entityLabel(lang: Lang, name: string, form: 'title' | 'singular'): string {
  const key = `entities.${name}.${form}`;
  const text = translate(lang, key);
  return text === key ? name : text;
}

/**
 * The 409 of a delete refused because other rows still point at `row`: the message names the
 * row (its title, else the entity's singular label) and what holds it with counts, in the
 * request's language (“التوكيلات: 3”); the body carries `heldBy` for the client (contracts
 * `ReferencedError`).
 *
 * @example throw referencedError(customers, row, [{ entity: 'procurations', count: 3 }], ctx.request);
 */
export function referencedError(
  entity: { name: string; titleField: string },
  row: ApiRow,
  heldBy: readonly HeldBy[],
  request?: Pick<FastifyRequest, 'headers'>,
): AppError {
  const lang = request ? requestLanguage(request) : DEFAULT_LANG;
  const title = row[entity.titleField];
  const holders = heldBy
    .map(({ entity: holder, count }) =>
      translate(lang, 'http.referencedByItem', {
        entity: entityLabel(lang, holder, 'title'),
        count,
      }),
    )
    .join(translate(lang, 'http.listSeparator'));
  return new AppError('referenced', {
    messageKey: 'http.referencedBy',
    params: {
      title: typeof title === 'string' && title.trim() ? title : entityLabel(lang, entity.name, 'singular'),
      holders,
    },
    extra: { heldBy },
  });
}
