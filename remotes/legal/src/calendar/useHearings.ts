import { MAX_PAGE_SIZE, sessions, type Page } from '@mizan/contracts';
import { entityApi, entityKeys, useEntityChannel } from '@mizan/sdk';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { HearingRow } from './hearings';

/** The hearings to show: a day range (both days included) and the calendar's filters. */
export interface HearingsQuery {
  from: string;
  to: string;
  lawyerId?: number;
  /** Hearings the employee attends or whose lawsuit they are responsible for. */
  employeeId?: number;
  courtId?: number;
  branchId?: number;
}

/**
 * Every hearing of a range, however many: the list API gives at most `MAX_PAGE_SIZE` rows a page,
 * so after the first page the rest are asked for together. One `Page` of all the rows comes back,
 * so the real-time events that patch cached lists patch this one too.
 */
export async function fetchHearings(query: HearingsQuery, signal?: AbortSignal): Promise<Page<HearingRow>> {
  const params = { ...query, sort: 'date:asc', pageSize: MAX_PAGE_SIZE };
  const first = await entityApi.list(sessions, { ...params, page: 1 }, { signal });
  const pages = Math.ceil(first.total / MAX_PAGE_SIZE);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, i) =>
      entityApi.list(sessions, { ...params, page: i + 2 }, { signal }),
    ),
  );
  const items = [first, ...rest].flatMap((page) => page.items) as HearingRow[];
  return { items, total: first.total, page: 1, pageSize: items.length };
}

/**
 * The hearings of a range with filters, cached per range and filters among the hearing lists (the
 * last range shows while the next loads) and kept live by the hearings channel.
 */
export function useHearings(query: HearingsQuery | null) {
  useEntityChannel(sessions.name);
  return useQuery({
    queryKey: entityKeys.list(sessions.name, { ...query, scope: 'calendar' }),
    queryFn: ({ signal }) => fetchHearings(query!, signal),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}
