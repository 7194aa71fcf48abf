import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { taskEmployeeChannel, tasks, type EventAction } from '@mizan/contracts';
import { applyEntityEvent, useAuth, wsClient } from '@mizan/sdk';

/**
 * Keeps the cached task lists live for the signed-in employee: the entity channel `tasks` (every
 * task) is open only to `tasks.moderate`, so everyone else follows their own feed, the writes of
 * the tasks they are assigned to or created, applied as the entity channel's events are.
 */
export function useTaskFeed(): void {
  const { user, can } = useAuth();
  const queryClient = useQueryClient();
  const moderator = can('tasks.moderate');
  const userId = user?.id;
  useEffect(() => {
    if (userId === undefined) return undefined;
    const channel = moderator ? tasks.name : taskEmployeeChannel(userId);
    return wsClient.subscribe(channel, (message) => {
      if (message.type === 'event')
        applyEntityEvent(queryClient, tasks.name, message.action as EventAction, message.data);
    });
  }, [moderator, queryClient, userId]);
}
