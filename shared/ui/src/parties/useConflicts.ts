import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  CLIENT_ROUTES,
  foldArabic,
  normalizeDigits,
  type ConflictEntity,
  type ConflictQuery,
} from '@mizan/contracts';
import { api } from '@mizan/sdk';
import { useDebouncedValue } from '../fields/useDebouncedValue';

/** How long typing must pause before the check runs. */
export const CONFLICT_DEBOUNCE_MS = 400;
/** Fewer folded letters than this is not yet a name worth checking (every "م" would match). */
const MIN_NAME = 2;
/** Fewer digits than this is not yet an ID worth checking. */
const MIN_ID = 4;

/**
 * The live conflict-of-interest check of a party form (a client's or an opponent's, `for`): once
 * the name or ID stops changing for `CONFLICT_DEBOUNCE_MS`, `GET /admin/customers/conflicts`; a
 * check made obsolete by new input is cancelled (the query's signal). `exceptId` leaves the
 * edited party out of its own check.
 */
export function useConflicts(input: {
  name?: unknown;
  nationalId?: unknown;
  exceptId?: number;
  for?: ConflictEntity;
}) {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  const id = typeof input.nationalId === 'string' ? normalizeDigits(input.nationalId.trim()) : '';
  const query: ConflictQuery = {
    ...(foldArabic(name).length >= MIN_NAME ? { name } : {}),
    ...(/^\d+$/.test(id) && id.length >= MIN_ID ? { nationalId: id } : {}),
    ...(input.exceptId ? { exceptId: input.exceptId } : {}),
    ...(input.for && input.for !== 'customers' ? { for: input.for } : {}),
  };
  // Debounced as text: a new object each render would restart the timer for ever.
  const key = JSON.stringify(query);
  const settled = useDebouncedValue(key, CONFLICT_DEBOUNCE_MS);
  const params = useMemo(() => JSON.parse(settled) as ConflictQuery, [settled]);
  const enabled = Boolean(params.name || params.nationalId);
  const result = useQuery({
    queryKey: ['customers', 'conflicts', params],
    queryFn: ({ signal }) => api.call(CLIENT_ROUTES.conflicts, { query: params }, { signal, silent: true }),
    enabled,
    staleTime: 30_000,
  });
  const typing = key !== settled;
  return { ...result, enabled, typing };
}
