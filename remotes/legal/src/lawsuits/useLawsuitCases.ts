import { useQuery } from '@tanstack/react-query';
import { LAWSUIT_OUTCOMES, MAX_PAGE_SIZE, lawsuitCases } from '@mizan/contracts';
import { entityApi, entityKeys, useEntityChannel } from '@mizan/sdk';

/** What a lawsuit case means for the lawsuit: won, lost or still ongoing. */
export type LawsuitOutcome = (typeof LAWSUIT_OUTCOMES)[number];

const PARAMS = { page: 1, pageSize: MAX_PAGE_SIZE };

/**
 * The lawsuit cases (stages and outcomes) by id, loaded once for every tag of a page and kept live
 * by the entity's channel: a handful of settings rows, so one page holds them all.
 */
export function useLawsuitOutcomes(): Map<number, LawsuitOutcome> {
  useEntityChannel(lawsuitCases.name);
  const list = useQuery({
    queryKey: entityKeys.list(lawsuitCases.name, PARAMS),
    queryFn: ({ signal }) => entityApi.list(lawsuitCases, PARAMS, { signal, silent: true }),
    staleTime: 60_000,
  });
  return new Map((list.data?.items ?? []).map((row) => [row.id, row.outcome as LawsuitOutcome]));
}
