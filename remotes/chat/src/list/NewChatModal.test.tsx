import { i18n } from '@mizan/i18n';
import { createQueryClient } from '@mizan/sdk';
import { captureToasts, pointSdkAt, signIn } from '@mizan/ui/testing/render';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import { MemoryRouter } from 'react-router-dom';
import { startChatServer } from '../test/chatServer';
import { NewChatModal } from './NewChatModal';

const t = (key: string) => i18n.t(`chat:${key}`);
let server: Awaited<ReturnType<typeof startChatServer>>;

beforeAll(() => {
  signIn(['chat.use']);
  captureToasts();
});
afterAll(() => server?.close());

/** Picks an employee found by typing `search` in the picker labelled `label`. */
async function pick(label: string, search: string, option: string) {
  const input = screen.getByLabelText(label);
  fireEvent.mouseDown(input);
  fireEvent.change(input, { target: { value: search } });
  await waitFor(() => expect(server.seen.some((r) => r.query.get('q') === search)).toBe(true));
  const choice = await screen.findByTitle(option);
  fireEvent.click(choice);
}

describe('NewChatModal', () => {
  it('starts a group with a name and members found by the picker’s search, then opens it', async () => {
    server = await startChatServer();
    pointSdkAt(server.url);
    const opened = jest.fn();
    render(
      <ConfigProvider direction="rtl" wave={{ disabled: true }} virtual={false}>
        <App>
          <QueryClientProvider client={createQueryClient()}>
            <MemoryRouter>
              <NewChatModal open onClose={() => undefined} onOpened={opened} />
            </MemoryRouter>
          </QueryClientProvider>
        </App>
      </ConfigProvider>,
    );
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByText(t('new.group')));
    fireEvent.change(await within(dialog).findByLabelText(t('new.name')), {
      target: { value: 'فريق الاستئناف' },
    });
    await pick(t('new.members'), 'Omar', 'Omar Nabil');
    fireEvent.click(screen.getByRole('button', { name: t('new.start') }));
    await waitFor(() => expect(opened).toHaveBeenCalledWith(4));
    expect(JSON.parse(server.calls('POST', '/api/admin/chats')[0]!.body)).toEqual({
      kind: 'group',
      name: 'فريق الاستئناف',
      memberIds: [3],
      adminIds: [],
    });
  });
});
