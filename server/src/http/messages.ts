import type { FastifyRequest } from 'fastify';
import { resources, type ResourceTree } from '@mizan/i18n/resources';

export type Lang = 'ar' | 'en';
export const LANGS: readonly Lang[] = ['ar', 'en'];
export const DEFAULT_LANG: Lang = 'ar';

/**
 * The server's messages live in `@mizan/i18n` beside the client's, one namespace per server area:
 * `auth.tokenInvalid` is `server-auth:tokenInvalid`. A key whose area has no server namespace is
 * read from the shared namespace of that name (`validation.required`, `entities.courts.title`).
 */
const SERVER_NAMESPACE_PREFIX = 'server-';

function lookup(tree: ResourceTree | undefined, path: string[]): string | undefined {
  let node: ResourceTree | string | undefined = tree;
  for (const part of path) {
    if (!node || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** `http.notFound` → server-http's `notFound`; `validation.required` → validation's `required`. */
function resourceMessage(lang: Lang, key: string): string | undefined {
  const [area, ...rest] = key.split('.');
  if (!area || rest.length === 0) return undefined;
  const namespaces = resources[lang] as Record<string, ResourceTree> | undefined;
  return lookup(namespaces?.[SERVER_NAMESPACE_PREFIX + area], rest) ?? lookup(namespaces?.[area], rest);
}

/**
 * `{{name}}` filled from `params`; `{{name, number}}` with the number in the language's digits,
 * as the client's i18next formatter writes it (Arabic-Indic in Arabic).
 */
function interpolate(lang: Lang, text: string, params: Record<string, unknown> = {}): string {
  return text.replace(/\{\{\s*(\w+)\s*(?:,\s*(\w+)\s*)?\}\}/g, (whole, name: string, format?: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    if (format === 'number' && typeof value === 'number')
      return new Intl.NumberFormat(lang === 'ar' ? 'ar-EG' : 'en').format(value);
    return String(value);
  });
}

/**
 * The text of `key` in `lang` with `{{name}}` filled from `params`; the English text when the
 * language lacks it, the key itself when both do (the key test keeps that from happening).
 *
 * @example translate('en', 'http.fileTooLarge', { max: 10 }) // 'The file is larger than allowed (10 MB)'
 */
export function translate(lang: Lang, key: string, params?: Record<string, unknown>): string {
  for (const candidate of lang === 'en' ? (['en'] as const) : ([lang, 'en'] as const)) {
    const text = formOf(candidate, key, params) ?? resourceMessage(candidate, key);
    if (text !== undefined) return interpolate(candidate, text, params);
  }
  return key;
}

/**
 * The form of `key` its params ask for, as i18next picks it on the client: `context` (the gender
 * of who acted: `key_female`) and `count` (the language's plural category: `key_two`, `key_few`).
 */
function formOf(lang: Lang, key: string, params: Record<string, unknown> | undefined): string | undefined {
  const context = typeof params?.context === 'string' ? params.context : null;
  const count = typeof params?.count === 'number' ? params.count : null;
  const plural = count === null ? null : new Intl.PluralRules(lang).select(count);
  const tries = [
    context && plural && `${key}_${context}_${plural}`,
    context && `${key}_${context}`,
    plural && `${key}_${plural}`,
  ];
  for (const form of tries) {
    const text = form ? resourceMessage(lang, form) : undefined;
    if (text !== undefined) return text;
  }
  return undefined;
}

/** True when `key` has a text in `lang` (the key test; callers that choose between keys). */
export function hasMessage(lang: Lang, key: string): boolean {
  return resourceMessage(lang, key) !== undefined || formOf(lang, key, { count: 0 }) !== undefined;
}

/** The label of an entity's field in `lang` (`entities.<entity>.fields.<field>`), or the field's name. */
export function fieldLabel(lang: Lang, entity: string | undefined, field: string): string {
  if (entity) {
    // A declared list filter (`?expiresWithin=`) is labelled under `filters`.
    const label =
      resourceMessage(lang, `entities.${entity}.fields.${field}`) ??
      resourceMessage(lang, `entities.${entity}.filters.${field}`);
    if (label) return label;
  }
  return field;
}

/**
 * The request's language from `Accept-Language` (quality values honoured), Arabic by default.
 * `?lang=en` wins, for links opened outside the app (downloads).
 */
export function requestLanguage(request: Pick<FastifyRequest, 'headers'> & { query?: unknown }): Lang {
  const query = request.query as { lang?: unknown } | undefined;
  if (query && (query.lang === 'ar' || query.lang === 'en')) return query.lang;
  const header = request.headers['accept-language'];
  if (!header) return DEFAULT_LANG;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...attrs] = part.trim().split(';');
      const q = attrs.map((a) => a.trim()).find((a) => a.startsWith('q='));
      return { lang: tag.trim().toLowerCase().split('-')[0], q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const found = ranked.find((entry) => (LANGS as readonly string[]).includes(entry.lang ?? ''));
  return (found?.lang as Lang | undefined) ?? DEFAULT_LANG;
}

/**
 * Translates `key` in the request's language.
 *
 * @example
 * reply.send({ message: t(request, 'http.notFound') });
 */
export function t(
  request: Pick<FastifyRequest, 'headers'>,
  key: string,
  params?: Record<string, unknown>,
): string {
  return translate(requestLanguage(request), key, params);
}
