import { useCallback, useMemo, useState } from 'react';
import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { MAX_PAGE_SIZE, TASK_STATES, tasks, type Page, type TaskState } from '@mizan/contracts';
import { entityApi, entityKeys, notify, type ListParams } from '@mizan/sdk';
import { staleConflictOf, type EntityRow } from '@mizan/ui';
import { i18n } from '@mizan/i18n';
import { setTaskState } from '../api';
import { useTaskFeed } from '../useTaskFeed';

/** One column of the board: a state and the tasks shown in it. */
export interface BoardColumn {
  state: TaskState;
  tasks: EntityRow[];
  /** How many tasks of this state the server has (more than shown when past one page). */
  total: number;
  loading: boolean;
  failed: boolean;
}

/**
 * A drop waiting for the server: the task shows in `to` until the answer (or goes back to `from`).
 * `row` is the task as it was moved: the lists are read again one by one after the move, and one
 * that no longer holds it may arrive before the one that does.
 */
interface PendingMove {
  from: TaskState;
  to: TaskState;
  row: EntityRow;
}

const stateOf = (row: EntityRow) => row.state as TaskState;

/**
 * The board's data: one list query per state (the first `MAX_PAGE_SIZE` tasks by due date, with
 * the user's filters), kept live by the employee's task feed, and `move`, which shows the task in its new
 * column at once, sends `PATCH /status/{id}` with the version read, and on any failure puts it
 * back where it was with an error toast (a stale version names who changed it).
 */
export function useTaskBoard(filters: ListParams) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<ReadonlyMap<number, PendingMove>>(new Map());
  useTaskFeed();

  const queries = useQueries({
    queries: TASK_STATES.map((state) => {
      const params: ListParams = { ...filters, state, sort: 'dueAt:asc', page: 1, pageSize: MAX_PAGE_SIZE };
      return {
        queryKey: entityKeys.list(tasks.name, params),
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          entityApi.list(tasks, params, { signal }) as Promise<Page<EntityRow>>,
      };
    }),
  });

  const settle = useCallback(
    (id: number) =>
      setPending((current) => {
        const next = new Map(current);
        next.delete(id);
        return next;
      }),
    [],
  );

  const mutation = useMutation({
    mutationFn: ({ row, to }: { row: EntityRow; to: TaskState }) =>
      setTaskState(row.id, { state: to, updatedAt: String(row.updatedAt) }),
    onSuccess: async (_saved, { row }) => {
      // The task stays in its new column until the lists read after the move show it there.
      await queryClient.invalidateQueries({ queryKey: entityKeys.all(tasks.name) });
      settle(row.id);
    },
    onError: (error, { row }) => {
      settle(row.id);
      const title = String(row.title ?? `#${row.id}`);
      const conflict = staleConflictOf(error);
      notify.error(
        conflict
          ? i18n.t('board.moveStale', {
              ns: 'tasks',
              title,
              who: conflict.changedBy?.name ?? i18n.t('board.someone', { ns: 'tasks' }),
              context: conflict.changedBy?.gender ?? undefined,
            })
          : i18n.t('board.moveFailed', { ns: 'tasks', title, message: error.message }),
      );
      void queryClient.invalidateQueries({ queryKey: entityKeys.all(tasks.name) });
    },
  });

  const columns = useMemo<BoardColumn[]>(() => {
    // A task being moved is shown until its move settles, whichever lists hold it meanwhile.
    const all = new Map<number, EntityRow>([...pending].map(([id, move]) => [id, move.row]));
    // A task just moved may sit in two cached lists for a moment: the newest copy decides.
    for (const query of queries)
      for (const row of query.data?.items ?? []) {
        const seen = all.get(row.id);
        if (!seen || String(row.updatedAt) > String(seen.updatedAt)) all.set(row.id, row);
      }
    const rows = [...all.values()];
    const placed = (row: EntityRow) => pending.get(row.id)?.to ?? stateOf(row);
    return TASK_STATES.map((state, index) => {
      const query = queries[index]!;
      const moved = [...pending.values()];
      return {
        state,
        tasks: rows.filter((row) => placed(row) === state),
        total:
          (query.data?.total ?? 0) +
          moved.filter((m) => m.to === state).length -
          moved.filter((m) => m.from === state).length,
        loading: query.isPending,
        failed: query.isError,
      };
    });
  }, [queries, pending]);

  /** Moves a task to another state (nothing when it is already there or still moving). */
  const move = useCallback(
    (row: EntityRow, to: TaskState) => {
      const from = pending.get(row.id)?.to ?? stateOf(row);
      if (from === to || pending.has(row.id)) return;
      setPending((current) => new Map(current).set(row.id, { from, to, row }));
      mutation.mutate({ row, to });
    },
    [mutation, pending],
  );

  return { columns, move, moving: (id: number) => pending.has(id) };
}
