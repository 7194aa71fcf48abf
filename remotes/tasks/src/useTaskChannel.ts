import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { taskChannel, tasks, type EventAction } from '@mizan/contracts';
import { applyEntityEvent, wsClient } from '@mizan/sdk';

/** Query keys of one task's comment thread. */
export const commentKeys = {
  thread: (taskId: number) => ['tasks', 'comments', taskId] as const,
};

const COMMENT_ACTIONS = new Set(['commentCreate', 'commentUpdate', 'commentDelete']);

/**
 * Follows one task's channel while its page is open: the task's own writes patch the cached
 * record (state, text, files), and any comment written, edited or deleted refreshes the thread.
 */
export function useTaskChannel(taskId: number): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      wsClient.subscribe(taskChannel(taskId), (message) => {
        if (message.type !== 'event') return;
        if (COMMENT_ACTIONS.has(message.action))
          void queryClient.invalidateQueries({ queryKey: commentKeys.thread(taskId) });
        else applyEntityEvent(queryClient, tasks.name, message.action as EventAction, message.data);
      }),
    [queryClient, taskId],
  );
}
