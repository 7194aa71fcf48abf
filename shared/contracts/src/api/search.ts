import { z } from 'zod';
import { answer, route } from '../route';

/**
 * The header's global search (`GET /api/search?q=`): the Arabic-folded `q` of the entity lists
 * (the same trigram index) over clients, opponents and lawsuits (file and case numbers included),
 * the hearings of the lawsuits found, and files by the text of their pages (snippet and page); a few rows per kind, grouped, each kind only for a reader
 * who may view it, and within the reader's scope.
 */

/** The kinds searched, in the order the box lists them; each is an entity name. */
export const GLOBAL_SEARCH_KINDS = ['customers', 'opponents', 'lawsuits', 'sessions', 'files'] as const;
export type GlobalSearchKind = (typeof GLOBAL_SEARCH_KINDS)[number];

/** Rows answered per kind. */
export const GLOBAL_SEARCH_LIMIT = 5;

export const globalSearchQuery = z.object({
  q: z.string().trim().min(1, { error: 'validation.required' }).max(200, { error: 'validation.string.max' }),
});
export type GlobalSearchQuery = z.infer<typeof globalSearchQuery>;

export const globalSearchHit = z.object({
  id: z.number().int(),
  /** The row's title: a name, a file number, a hearing's date. */
  title: z.string(),
  /** What tells two hits apart: a case number and year, a court, a hearing's lawsuit. */
  detail: z.string().nullable(),
  /**
   * A file found by its content (kind `files`): `id` is the stored file's, `title` its name; the
   * page found (1-based), a snippet of its text, and the row the file is attached to.
   */
  file: z
    .object({
      page: z.number().int(),
      snippet: z.string(),
      mimeType: z.string(),
      entity: z.string(),
      ownerId: z.number().int(),
    })
    .optional(),
});
export type GlobalSearchHit = z.infer<typeof globalSearchHit>;

export const globalSearchGroup = z.object({
  kind: z.enum(GLOBAL_SEARCH_KINDS),
  /** How many rows match in all (hearings: of the lawsuits found), of which `items` are the first. */
  total: z.number().int(),
  /** More than `total` match: the count stopped there (files, `FILE_SEARCH_COUNT_BOUND`); absent or false: exact. */
  totalCapped: z.boolean().optional(),
  items: z.array(globalSearchHit),
});
export type GlobalSearchGroup = z.infer<typeof globalSearchGroup>;

/** Only the kinds the reader may view and that found something, in `GLOBAL_SEARCH_KINDS` order. */
export const globalSearchResult = z.object({ groups: z.array(globalSearchGroup) });
export type GlobalSearchResult = z.infer<typeof globalSearchResult>;

export const SEARCH_ROUTES = {
  global: route({
    method: 'GET',
    path: '/search',
    permission: null,
    summary: 'Clients, opponents, lawsuits and their hearings matching q, grouped by kind',
    query: globalSearchQuery,
    response: globalSearchResult,
    answer: answer<GlobalSearchResult>(),
  }),
};
