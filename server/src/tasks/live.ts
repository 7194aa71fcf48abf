import { permissionKey, taskComments, tasks } from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';
import { mayViewTask, seesAllTasks } from './tasks';

const TASK_CHANNEL = /^tasks:task:(\d+)$/;
const EMPLOYEE_CHANNEL = /^tasks:employee:(\d+)$/;

/**
 * Who joins the tasks' channels (api/tasks.ts): a task's channel, whoever sees the task; an
 * employee's feed, that employee; the entity channel `tasks`, which carries every task, only
 * those who see every task (the moderate permission); `taskComments`, nobody (comments reach readers on
 * their task's channel). Added once the hub exists.
 */
export function installChannelGuard(app: FastifyInstance): void {
  app.addHook('onReady', async () => {
    app.hub.guard(async (user, channel) => {
      if (!user.permissions.has(permissionKey(tasks.name, 'view'))) {
        return channel === tasks.name || channel.startsWith('tasks:') ? false : undefined;
      }
      const task = TASK_CHANNEL.exec(channel);
      if (task) return mayViewTask(app.db, user, Number(task[1]));
      const feed = EMPLOYEE_CHANNEL.exec(channel);
      if (feed) return Number(feed[1]) === user.id;
      if (channel === tasks.name) return seesAllTasks(user);
      if (channel === taskComments.name) return false;
      return channel.startsWith('tasks:') ? false : undefined;
    });
  });
}
