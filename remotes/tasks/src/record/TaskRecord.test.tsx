import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { tasks } from '@mizan/contracts';
import { recordElement } from '@mizan/ui';
import { captureToasts, pointSdkAt, signIn } from '@mizan/ui/testing/render';
import { ENTITY_OVERRIDES } from '../entityScreens';
import { startTaskServer, TASK } from '../test/fixtures';
import { renderRoute, switchLanguage } from '../test/render';

let server: Awaited<ReturnType<typeof startTaskServer>>;

beforeEach(async () => {
  captureToasts();
  await switchLanguage('ar');
});
afterEach(() => server.close());

describe('task record page', () => {
  it('shows the text, comments, files and history tabs and moves the state from its select', async () => {
    server = await startTaskServer([TASK], (req) =>
      req.path.endsWith('/comments')
        ? { status: 200, body: { data: { items: [], total: 0, page: 1, pageSize: 100 } } }
        : undefined,
    );
    pointSdkAt(server.url);
    signIn(['tasks.view', 'tasks.status', 'tasks.updateText', 'taskComments.view', 'taskComments.create']);
    renderRoute(
      `${tasks.route}/${TASK.id}`,
      `${tasks.route}/:id`,
      recordElement(tasks, ENTITY_OVERRIDES.tasks),
    );

    const tabs = await screen.findByRole('tablist');
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['المرفق النصي', 'التعليقات', 'الملفات', 'سجل التغييرات']);
    expect(await screen.findByRole('textbox', { name: 'نص المرفق النصي' })).toHaveTextContent(
      'مسودة المذكرة',
    );

    const state = screen.getByRole('combobox', { name: 'حالة المهمة' });
    fireEvent.mouseDown(state);
    fireEvent.click(await screen.findByText('منجزة', { selector: '.ant-select-item-option-content' }));

    await waitFor(() => expect(server.store[0]!.state).toBe('done'));
    const [sent] = server.calls('PATCH', `/api/admin/lawsuits/tasks/status/${TASK.id}`);
    expect(JSON.parse(sent!.body)).toEqual({ state: 'done', updatedAt: TASK.updatedAt });
  });
});
