import { useCallback, useMemo } from 'react';
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
 * Page, page size, sort, search and filters live in the URL query, so a list is bookmarkable and the
 * back button steps through what the user did. Unknown or malformed values fall back to defaults.
 */
export function useListState(entity: Entity<Fields>) {
  const [params, setParams] = useSearchParams();
  const filterKeys = useMemo(() => filterableFields(entity), [entity]);

  const query = useMemo<ListQuery>(() => {
    const filters: Record<string, string> = {};
    for (const key of filterKeys) {
      const value = params.get(key);
      if (value !== null && value !== '') filters[key] = value;
    }
    const sort = params.get('sort');
    return {
      page: positive(params.get('page'), 1),
      pageSize: positive(params.get('pageSize'), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
      sort: sort && /^[A-Za-z]+:(asc|desc)$/.test(sort) ? sort : undefined,
      q: params.get('q')?.trim() || undefined,
      filters,
    };
  }, [params, filterKeys]);

  /** Applies a change; anything but a page move goes back to page 1 (the old page may not exist). */
  const update = useCallback(
    (change: Partial<Omit<ListQuery, 'filters'>> & { filters?: Record<string, string | undefined> }) => {
      setParams((current) => {
        const next = new URLSearchParams(current);
        const set = (key: string, value: string | number | undefined) => {
          if (value === undefined || value === '') next.delete(key);
          else next.set(key, String(value));
        };
        if ('sort' in change) set('sort', change.sort);
        if ('q' in change) set('q', change.q?.trim());
        if ('pageSize' in change)
          set('pageSize', change.pageSize === DEFAULT_PAGE_SIZE ? undefined : change.pageSize);
        for (const [key, value] of Object.entries(change.filters ?? {})) set(key, value);
        const movesPage = Object.keys(change).every((k) => k === 'page');
        set('page', movesPage && change.page && change.page > 1 ? change.page : undefined);
        return next;
      });
    },
    [setParams],
  );

  const clearFilters = useCallback(
    () => update({ q: undefined, filters: Object.fromEntries(filterKeys.map((k) => [k, undefined])) }),
    [update, filterKeys],
  );

  return { query, update, clearFilters, filterKeys };
}
