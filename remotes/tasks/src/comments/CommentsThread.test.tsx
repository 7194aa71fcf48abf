import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { taskChannel } from '@mizan/contracts';
import { connectFakeSocket } from '@mizan/ui/testing/fakeSocket';
import { pointSdkAt, renderAt, signIn } from '@mizan/ui/testing/render';
import { startApiServer, type Routes } from '@mizan/sdk/testing/apiServer';
import { useTaskChannel } from '../useTaskChannel';
import { CommentsThread } from './CommentsThread';

const TASK_ID = 7;
const comment = (id: number, body: string, authorId: number, author: string) => ({
  id,
  taskId: TASK_ID,
  body,
  authorId,
  author: { id: authorId, name: author },
  files: [],
  createdAt: '2026-11-01T09:00:00.000Z',
  updatedAt: '2026-11-01T09:00:00.000Z',
});
const MINE = comment(1, 'راجعت المذكرة', 1, 'مدير');
const THEIRS = comment(2, 'أرفقت الحكم', 2, 'سارة');

/** The thread with the task's channel followed, as the task's page does. */
function Page() {
  useTaskChannel(TASK_ID);
  return <CommentsThread taskId={TASK_ID} />;
}

let items = [MINE];
const POSTED = comment(3, 'سأحضر الجلسة', 1, 'مدير');
const routes: Routes = {
  'POST /api/admin/lawsuits/tasks/comments': () => {
    items = [...items, POSTED];
    return { status: 201, body: { data: POSTED } };
  },
  [`GET /api/admin/lawsuits/tasks/${TASK_ID}/comments`]: () => ({
    body: { data: { items, total: items.length, page: 1, pageSize: 100 } },
  }),
};

describe('comment thread', () => {
  it("shows a colleague's new comment from the task's channel, without edit or delete on it", async () => {
    const server = await startApiServer(routes);
    pointSdkAt(server.url);
    signIn([
      'tasks.view',
      'taskComments.view',
      'taskComments.create',
      'taskComments.update',
      'taskComments.delete',
    ]);
    const live = await connectFakeSocket();
    try {
      renderAt('/task', <Page />);
      const feed = await screen.findByRole('feed', { name: 'التعليقات' });
      expect(within(feed).getByText('راجعت المذكرة')).toBeInTheDocument();
      // Mine: edit and delete offered.
      expect(within(feed).getByRole('button', { name: 'تعديل تعليق مدير' })).toBeInTheDocument();
      expect(live.socket.sent).toContainEqual({ type: 'subscribe', channel: taskChannel(TASK_ID) });

      items = [MINE, THEIRS];
      live.event(taskChannel(TASK_ID), 'commentCreate', THEIRS);

      expect(await within(feed).findByText('أرفقت الحكم')).toBeInTheDocument();
      expect(within(feed).getByText('سارة')).toBeInTheDocument();
      expect(within(feed).queryByRole('button', { name: 'تعديل تعليق سارة' })).toBeNull();
      expect(within(feed).queryByRole('button', { name: 'حذف تعليق سارة' })).toBeNull();
      expect(server.calls('GET', `/api/admin/lawsuits/tasks/${TASK_ID}/comments`)).toHaveLength(2);
    } finally {
      live.restore();
      await server.close();
    }
  });

  it('sends a new comment with its task and shows it in the thread', async () => {
    items = [MINE];
    const server = await startApiServer(routes);
    pointSdkAt(server.url);
    signIn(['tasks.view', 'taskComments.view', 'taskComments.create']);
    try {
      renderAt('/task', <CommentsThread taskId={TASK_ID} />);
      await screen.findByText('راجعت المذكرة');
      fireEvent.change(screen.getByRole('textbox', { name: 'تعليق جديد' }), {
        target: { value: ' سأحضر الجلسة ' },
      });
      fireEvent.click(screen.getByRole('button', { name: 'إرسال التعليق' }));

      const feed = screen.getByRole('feed', { name: 'التعليقات' });
      expect(await within(feed).findByText('سأحضر الجلسة')).toBeInTheDocument();
      const [sent] = server.calls('POST', '/api/admin/lawsuits/tasks/comments');
      expect(JSON.parse(sent!.body)).toMatchObject({ taskId: TASK_ID, body: 'سأحضر الجلسة' });
      await waitFor(() => expect(screen.getByRole('textbox', { name: 'تعليق جديد' })).toHaveValue(''));
    } finally {
      await server.close();
    }
  });
});
