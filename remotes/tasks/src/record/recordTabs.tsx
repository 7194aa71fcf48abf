import { lazy } from 'react';
import { i18n } from '@mizan/i18n';
import type { RecordTab, RecordTabContext } from '@mizan/ui';
import { CommentsThread } from '../comments/CommentsThread';
import { TaskFiles } from '../files/TaskFiles';
import { LazyPart } from '../LazyPart';

// Tiptap and ProseMirror come with the task's page, in their own chunk, not with the list.
const TaskText = lazy(() => import('../text/TaskText').then((m) => ({ default: m.TaskText })));

/** The derived tabs the task page replaces: the comments' generic list and the plain files list. */
const REPLACED = new Set(['taskComments.taskId', 'files']);

/**
 * The task page's tabs: the text attachment first (the working note), then the comment thread,
 * the files with upload and preview, then the rest of the derived ones (the history last).
 */
export function taskTabs(derived: RecordTab[], { row }: RecordTabContext): RecordTab[] {
  const t = (key: string) => i18n.t(key, { ns: 'tasks' });
  const own: RecordTab[] = [
    // Keyed by task: another task's page starts a fresh editor.
    {
      key: 'text',
      label: t('text.title'),
      children: (
        <LazyPart>
          <TaskText key={row.id} task={row} />
        </LazyPart>
      ),
    },
    { key: 'comments', label: t('comments.title'), children: <CommentsThread taskId={row.id} /> },
    { key: 'files', label: t('files.title'), children: <TaskFiles task={row} /> },
  ];
  return [...own, ...derived.filter((tab) => !REPLACED.has(tab.key))];
}
