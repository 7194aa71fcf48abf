import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  filterableFields,
  type Entity,
  type Fields,
} from '@mizan/contracts';

/** The list query as the API takes it (`GET /`): every value a URL string except page numbers. */
export interface ListQuery {
  page: number;
  pageSize: number;
  sort?: string;
  q?: string;
  filters: Record<string, string>;
}

/** A change of the list query; a filter set to `undefined` is removed. */
export type ListChange = Partial<Omit<ListQuery, 'filters'>> & {
  filters?: Record<string, string | undefined>;
};

/** A value of a fixed filter, as the list query sends it. */
export type FixedFilterValue = string | number | boolean;

export interface ListStateOptions {
  /**
   * Where the state lives: in the URL (default, bookmarkable, the back button steps through it),
   * under a key prefix (`'lawsuits'` → `?lawsuits.page=2&lawsuits.q=…`, so two lists on one page
   * keep apart), or `false` for component state only (nothing in the URL).
   */
  urlState?: false | string;
  /** Filters always sent and never shown nor read from the URL (`{ clientId: 7 }` on a record page). */
  fixedFilters?: Record<string, FixedFilterValue>;
}

/** Flat query-string params for the data provider. */
export function toParams(query: ListQuery): Record<string, string | number> {
  return {
    page: query.page,
    pageSize: query.pageSize,
    ...(query.sort ? { sort: query.sort } : {}),
    ...(query.q ? { q: query.q } : {}),
    ...query.filters,
  };
}

const positive = (raw: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER) => {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback;
};

/**
 * Page, page size, sort, search and filters of one list, by default in the URL query so a list is
 * bookmarkable and the back button steps through what the user did (see `urlState`). Unknown or
 * malformed values fall back to defaults. Needs a router around it even with `urlState: false`.
 *
 * @example const { query, update } = useListState(tasks, { urlState: 'tasks', fixedFilters: { assigneeId: 3 } });
 */
export function useListState(entity: Entity<Fields>, options: ListStateOptions = {}) {
  const { urlState = '', fixedFilters } = options;
  const [urlParams, setUrlParams] = useSearchParams();
  const [localParams, setLocalParams] = useState(() => new URLSearchParams());
  const inUrl = urlState !== false;
  const search = inUrl ? urlParams : localParams;
  const setParams = inUrl ? setUrlParams : setLocalParams;
  const prefix = inUrl && urlState ? `${urlState}.` : '';
  const fixedKey = JSON.stringify(fixedFilters ?? {});
  const fixed = useMemo(
    () =>
      Object.fromEntries(
        Object.entries(JSON.parse(fixedKey) as Record<string, FixedFilterValue>).map(([k, v]) => [
          k,
          String(v),
        ]),
      ),
    [fixedKey],
  );
  // A fixed filter is not the user's to change: it leaves the filter bar. Declared list filters
  // (`?expired=true`) live in the URL as field filters do.
  const filterKeys = useMemo(
    () =>
      [...filterableFields(entity), ...Object.keys(entity.listFilters ?? {})].filter(
        (key) => !(key in fixed),
      ),
    [entity, fixed],
  );

  const query = useMemo<ListQuery>(() => {
    const get = (key: string) => search.get(prefix + key);
    const filters: Record<string, string> = {};
    for (const key of filterKeys) {
      const value = get(key);
      if (value !== null && value !== '') filters[key] = value;
    }
    const sort = get('sort');
    return {
      page: positive(get('page'), 1),
      pageSize: positive(get('pageSize'), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
      sort: sort && /^[A-Za-z]+:(asc|desc)$/.test(sort) ? sort : undefined,
      q: get('q')?.trim() || undefined,
      filters,
    };
  }, [search, prefix, filterKeys, fixed]);

  /** Applies a change; anything but a page move goes back to page 1 (the old page may not exist). */
  const update = useCallback(
    (change: ListChange) => {
      setParams((current) => {
        const next = new URLSearchParams(current);
        const set = (key: string, value: string | number | undefined) => {
          if (value === undefined || value === '') next.delete(prefix + key);
          else next.set(prefix + key, String(value));
        };
        if ('sort' in change) set('sort', change.sort);
        if ('q' in change) set('q', change.q?.trim());
        if ('pageSize' in change)
          set('pageSize', change.pageSize === DEFAULT_PAGE_SIZE ? undefined : change.pageSize);
        for (const [key, value] of Object.entries(change.filters ?? {})) if (!(key in fixed)) set(key, value);
        const movesPage = Object.keys(change).every((k) => k === 'page');
        set('page', movesPage && change.page && change.page > 1 ? change.page : undefined);
        return next;
      });
    },
    [setParams, prefix, fixed],
  );

  const clearFilters = useCallback(
    () => update({ q: undefined, filters: Object.fromEntries(filterKeys.map((k) => [k, undefined])) }),
    [update, filterKeys],
  );

  /** What the API gets: the user's query and the fixed filters. */
  const params = useMemo(() => ({ ...toParams(query), ...fixed }), [query, fixed]);

  return { query, params, update, clearFilters, filterKeys, fixedFilters: fixed };
}
