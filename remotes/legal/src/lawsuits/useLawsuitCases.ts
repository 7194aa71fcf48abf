import { useQuery } from '@tanstack/react-query';
import { FINAL_OUTCOMES, LAWSUIT_OUTCOMES, MAX_PAGE_SIZE, lawsuitCases } from '@mizan/contracts';
import { entityApi, entityKeys, useEntityChannel } from '@mizan/sdk';

/** What a lawsuit case means for the lawsuit: won, lost or still ongoing. */
export type LawsuitOutcome = (typeof LAWSUIT_OUTCOMES)[number];

const PARAMS = { page: 1, pageSize: MAX_PAGE_SIZE };

/**
 * The lawsuit cases (stages and outcomes) by id, loaded once for every tag of a page and kept live
 * by the entity's channel: a handful of settings rows, so one page holds them all.
 */
export function useLawsuitOutcomes(): Map<number, LawsuitOutcome> {
  const list = useLawsuitCases();
  return new Map((list.data?.items ?? []).map((row) => [row.id, row.outcome as LawsuitOutcome]));
}

function useLawsuitCases() {
  useEntityChannel(lawsuitCases.name);
  return useQuery({
    queryKey: entityKeys.list(lawsuitCases.name, PARAMS),
    queryFn: ({ signal }) => entityApi.list(lawsuitCases, PARAMS, { signal, silent: true }),
    staleTime: 60_000,
  });
}

/**
 * The cases a lawsuit may be closed with: the active ones whose outcome is final (won or lost,
 * `FINAL_OUTCOMES`), never one still pending; `loading` until the list has answered.
 */
export function useFinalCases(): {
  loading: boolean;
  cases: { id: number; name: string; outcome: LawsuitOutcome }[];
} {
  const list = useLawsuitCases();
  const cases = (list.data?.items ?? [])
    .filter(
      (row) => row.status !== false && (FINAL_OUTCOMES as readonly string[]).includes(String(row.outcome)),
    )
    .map((row) => ({ id: row.id, name: String(row.name), outcome: row.outcome as LawsuitOutcome }));
  return { loading: list.isPending, cases };
}
