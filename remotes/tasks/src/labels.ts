import { i18n } from '@mizan/i18n';
import type { TaskPriority, TaskState } from '@mizan/contracts';

/** A state's name as the tasks definition's translations give it (`entities:tasks.values.state`). */
export const stateLabel = (state: TaskState | string) =>
  i18n.t(`tasks.values.state.${state}`, { ns: 'entities', defaultValue: state });

/** A priority's name (`entities:tasks.values.priority`). */
export const priorityLabel = (priority: TaskPriority | string) =>
  i18n.t(`tasks.values.priority.${priority}`, { ns: 'entities', defaultValue: priority });

/** antd tag colours by priority: the urgent ones stand out in light and dark themes alike. */
export const PRIORITY_COLORS: Record<TaskPriority, string | undefined> = {
  low: undefined,
  normal: 'blue',
  high: 'orange',
  urgent: 'red',
};
