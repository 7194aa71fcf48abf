import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { pointSdkAt, renderAt, signIn } from '@mizan/ui/testing/render';
import { startTaskServer, TASK } from '../test/fixtures';
import { TaskText } from './TaskText';

const THEIRS = {
  ...TASK,
  text: '<p>نص الزميل بعد المراجعة</p>',
  updatedAt: '2026-11-05T10:00:00.000Z',
};
const TEXT_PATH = `/api/admin/lawsuits/tasks/update/text/${TASK.id}`;

let server: Awaited<ReturnType<typeof startTaskServer>>;

/** A server whose first text save is stale (someone saved since), the next ones accepted. */
async function serveStaleOnce() {
  let refused = false;
  server = await startTaskServer([TASK], (req) => {
    if (req.method !== 'PATCH' || refused) return undefined;
    refused = true;
    return {
      status: 409,
      body: {
        code: 'stale',
        message: 'عُدّلت المهمة بعد قراءتها',
        current: THEIRS,
        changedBy: { id: 2, name: 'سارة' },
        changedAt: THEIRS.updatedAt,
      },
    };
  });
  pointSdkAt(server.url);
}

/** Makes the first paragraph a bulleted list (a real change of the text) and saves. */
async function editAndSave() {
  renderAt('/task', <TaskText task={TASK} />);
  fireEvent.click(await screen.findByRole('button', { name: 'قائمة نقطية' }));
  fireEvent.click(screen.getByRole('button', { name: /حفظ النص/ }));
  return screen.findByRole('dialog', { name: 'عُدّل النص أثناء تحريرك' });
}

beforeEach(() => signIn(['tasks.view', 'tasks.updateText']));
afterEach(() => server.close());

describe('text attachment conflict', () => {
  it('shows the saved text and, on "keep mine", saves my text over the new version', async () => {
    await serveStaleOnce();
    const dialog = await editAndSave();
    expect(within(dialog).getByText(/سارة/)).toBeInTheDocument();
    expect(
      within(within(dialog).getByRole('region', { name: 'النسخة المحفوظة' })).getByText(
        'نص الزميل بعد المراجعة',
      ),
    ).toBeInTheDocument();
    expect(server.calls('PATCH', TEXT_PATH)).toHaveLength(1);

    fireEvent.click(within(dialog).getByRole('button', { name: 'الإبقاء على نصي' }));

    await waitFor(() => expect(server.calls('PATCH', TEXT_PATH)).toHaveLength(2));
    const second = JSON.parse(server.calls('PATCH', TEXT_PATH)[1]!.body) as {
      text: string;
      updatedAt: string;
    };
    expect(second.updatedAt).toBe(THEIRS.updatedAt);
    expect(second.text).toMatch(/<ul[ >]/);
    expect(second.text).toContain('مسودة المذكرة');
    await waitFor(() => expect(server.store[0]!.text).toBe(second.text));
  });

  it('on "take theirs" shows the saved text in the editor and saves nothing', async () => {
    await serveStaleOnce();
    const dialog = await editAndSave();

    fireEvent.click(within(dialog).getByRole('button', { name: 'أخذ النسخة المحفوظة' }));

    const editor = await screen.findByRole('textbox', { name: 'نص المرفق النصي' });
    await waitFor(() => expect(editor).toHaveTextContent('نص الزميل بعد المراجعة'));
    expect(editor).not.toHaveTextContent('مسودة المذكرة');
    expect(screen.getByRole('button', { name: /حفظ النص/ })).toBeDisabled();
    expect(server.calls('PATCH', TEXT_PATH)).toHaveLength(1);
    expect(server.store[0]!.text).toBe(TASK.text);
  });
});
