import { MAX_PAGE_SIZE, deadlines, type Page } from '@mizan/contracts';
import { entityApi, entityKeys, useEntityChannel } from '@mizan/sdk';
import type { EntityRow } from '@mizan/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

/** The deadlines falling due in a day range (both days included), of one lawyer when given. */
export interface DeadlinesQuery {
  from: string;
  to: string;
  lawyerId?: number;
}

/** Every deadline of the range, however many (pages of `MAX_PAGE_SIZE` asked for together). */
export async function fetchDeadlines(query: DeadlinesQuery, signal?: AbortSignal): Promise<Page<EntityRow>> {
  const params = {
    dueFrom: query.from,
    dueTo: query.to,
    ...(query.lawyerId ? { lawyerId: query.lawyerId } : {}),
    sort: 'dueDate:asc',
    pageSize: MAX_PAGE_SIZE,
  };
  const first = await entityApi.list(deadlines, { ...params, page: 1 }, { signal });
  const pages = Math.ceil(first.total / MAX_PAGE_SIZE);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, i) =>
      entityApi.list(deadlines, { ...params, page: i + 2 }, { signal }),
    ),
  );
  const items = [first, ...rest].flatMap((page) => page.items) as EntityRow[];
  return { items, total: first.total, page: 1, pageSize: items.length };
}

/** The calendar's deadlines, cached per range among the deadline lists and kept live by their channel. */
export function useDeadlines(query: DeadlinesQuery | null, enabled: boolean) {
  useEntityChannel(deadlines.name);
  return useQuery({
    queryKey: entityKeys.list(deadlines.name, { ...query, scope: 'calendar' }),
    queryFn: ({ signal }) => fetchDeadlines(query!, signal),
    enabled: enabled && query !== null,
    placeholderData: keepPreviousData,
  });
}
