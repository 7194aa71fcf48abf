import { useCallback, useMemo } from 'react';
import {
  keepPreviousData,
  useMutation,
  usePrefetchQuery,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { permissionKey, VERSION_FIELD, type Entity, type Fields } from '@mizan/contracts';
import { entityApi, entityKeys, notify, useCan, useEntityChannel } from '../data';
import type { EntityRow } from '../fields/types';
import { formatDateText } from '../dates/format';
import { deriveColumns, type EntityColumn } from './columns';
import { staleConflictOf } from './conflict';
import { useEntityText } from './labels';
import { useColumnChoice } from './useColumnChoice';
import { useListState, type ListStateOptions } from './useListState';

export interface EntityListOptions extends ListStateOptions {
  /** Adjust the derived columns (reorder, drop, add computed ones); they also drive the export. */
  columns?: (derived: EntityColumn[]) => EntityColumn[];
}

/** An action of the permission catalogue of one entity (`view`, `update`, `archive`…). */
export type EntityPermissionAction = Parameters<typeof permissionKey>[1];

/**
 * The state of one server-side list of an entity: query (page, size, sort, search, filters), the
 * fetched page kept live by the entity's real-time channel, the column choice, and the row
 * mutations of the pattern (status and ban toggles, delete). Spread it onto `<EntityTable>`.
 *
 * @example
 * // A client's lawsuits on the client's record page: its own URL keys, the client filter fixed.
 * const lawsuitList = useEntityList(lawsuits, { urlState: 'lawsuits', fixedFilters: { clientId: id } });
 * return <EntityTable {...lawsuitList} onEdit={(row) => open(row)} />;
 */
export function useEntityList(entity: Entity<Fields>, options: EntityListOptions = {}) {
  const { columns: adjustColumns, ...stateOptions } = options;
  const text = useEntityText(entity);
  const can = useCan();
  const queryClient = useQueryClient();
  const api = useMemo(() => entityApi(entity), [entity]);
  const state = useListState(entity, stateOptions);
  const { params } = state;

  useEntityChannel(entity.name);

  const listQuery = {
    queryKey: entityKeys.list(entity.name, params),
    queryFn: ({ signal }: { signal: AbortSignal }) => api.list(params, { signal }),
  };
  // The rows are asked for from the first render, not once the screen is committed: a navigation
  // is a transition, so React prepares the next screen (a remote's list: about 120 ms) while the
  // previous one stays on view, and the request goes out meanwhile.
  usePrefetchQuery(listQuery);
  const list = useQuery({ ...listQuery, placeholderData: keepPreviousData });

  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) }),
    [queryClient, entity.name],
  );
  const toggle = useMutation({
    mutationFn: ({ kind, row }: { kind: 'status' | 'baned'; row: EntityRow }) => {
      // The version the row was read at: a row changed since is refused (409) rather than switched blindly.
      const version = row[VERSION_FIELD];
      const change = { value: !row[kind], updatedAt: typeof version === 'string' ? version : undefined };
      const options = { silent: true };
      return kind === 'status'
        ? api.setStatus(row.id, change, options)
        : api.setBaned(row.id, change, options);
    },
    onError: (error, { row }) => {
      const conflict = staleConflictOf(error);
      if (!conflict) return notify.error(error.message);
      const params = {
        ns: 'ui',
        name: text.singular,
        record: String(row[entity.titleField] ?? row.id),
        who: conflict.changedBy?.name,
        context: conflict.changedBy?.gender ?? undefined,
        time: formatDateText(conflict.changedAt, 'datetime'),
      };
      notify.warning(text.t(conflict.changedBy ? 'conflict.toggled' : 'conflict.toggledBySomeone', params));
    },
    // Wait for the refetch so the switch never flips back for a moment (and shows the current state).
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (row: EntityRow) => api.remove(row.id, row.updatedAt),
    onSuccess: () => notify.success(text.t('delete.done', { ns: 'ui' })),
    onSettled: refresh,
  });

  const derived = useMemo(() => deriveColumns(entity, text), [entity, text]);
  const available = useMemo(
    () => (adjustColumns ? adjustColumns(derived) : derived),
    [adjustColumns, derived],
  );
  const { visible, setVisible } = useColumnChoice(
    entity.name,
    available.filter((c) => c.defaultVisible).map((c) => c.key),
  );
  const shown = available.filter((c) => visible.includes(c.key));
  const allowed = useCallback(
    (action: EntityPermissionAction) => can(permissionKey(entity, action)),
    [can, entity],
  );
  const filtered = Boolean(state.query.q) || Object.keys(state.query.filters).length > 0;
  // An export takes every page of what the list shows.
  const exportParams = Object.fromEntries(
    Object.entries(params).filter(([k]) => k !== 'page' && k !== 'pageSize'),
  );

  return {
    entity,
    text,
    api,
    ...state,
    /** The fetched page (TanStack Query result). */
    list,
    refresh,
    toggle,
    remove,
    /** Every column the list may show, and the chosen ones. */
    columns: available,
    visible,
    setVisible,
    shown,
    /** Whether the user searched or filtered (fixed filters do not count). */
    filtered,
    exportParams,
    /** `can('<entity>.<action>')` for this entity. */
    allowed,
  };
}

export type EntityList = ReturnType<typeof useEntityList>;
