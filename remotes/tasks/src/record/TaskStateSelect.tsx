import { Select } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TASK_STATES, tasks, type TaskState } from '@mizan/contracts';
import { entityKeys, notify, useAuth } from '@mizan/sdk';
import { staleConflictOf, type EntityRow } from '@mizan/ui';
import { setTaskState } from '../api';
import { stateLabel } from '../labels';

/**
 * The task's state on its record page: a select that moves it (`PATCH /status/{id}` with the
 * version read). A task changed meanwhile is not moved: the user is told who changed it and
 * sees the current state.
 */
export function TaskStateSelect({ row }: { row: EntityRow }) {
  const { t } = useTranslation('tasks');
  const { can } = useAuth();
  const queryClient = useQueryClient();
  const detailKey = entityKeys.detail(tasks.name, row.id);
  const move = useMutation({
    mutationFn: (state: TaskState) => setTaskState(row.id, { state, updatedAt: String(row.updatedAt) }),
    onSuccess: (saved) => {
      queryClient.setQueryData<EntityRow>(detailKey, (current) =>
        current ? { ...current, ...saved } : saved,
      );
      void queryClient.invalidateQueries({ queryKey: entityKeys.lists(tasks.name) });
    },
    onError: (error) => {
      const conflict = staleConflictOf(error);
      if (conflict) {
        queryClient.setQueryData(detailKey, conflict.current);
        notify.warning(
          t('state.stale', {
            who: conflict.changedBy?.name ?? t('board.someone'),
            context: conflict.changedBy?.gender ?? undefined,
          }),
        );
      } else notify.error(error.message);
    },
  });
  return (
    <Select<TaskState>
      aria-label={t('state.label')}
      value={row.state as TaskState}
      disabled={!can('tasks.status')}
      loading={move.isPending}
      style={{ minInlineSize: 160 }}
      options={TASK_STATES.map((state) => ({ value: state, label: stateLabel(state) }))}
      onChange={(state) => move.mutate(state)}
    />
  );
}
