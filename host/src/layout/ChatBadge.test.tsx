import { AREA_PERMISSIONS, chatInboxChannel } from '@mizan/contracts';
import { createI18n } from '@mizan/i18n';
import { createQueryClient } from '@mizan/sdk';
import { connectFakeSocket } from '@mizan/ui/testing/fakeSocket';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { serveApiForFile } from '../test/apiServer';
import { makeUser, resetPage, signIn } from '../test/renderApp';
import { ChatBadge } from './ChatBadge';

let total = 3;
const api = serveApiForFile({
  'GET /api/admin/chats/unread': () => ({ body: { data: { total, chats: { 4: total } } } }),
  'PUT /api/admin/chats/messages/delivered': () => ({
    body: { data: { chatId: 9, lastReadId: 0, lastDeliveredId: 51, unread: 1, unreadTotal: 4 } },
  }),
});
/** The delivered marks the badge sent, in the order the server got them. */
const deliveredMarks = () =>
  api.server!.calls('PUT', '/api/admin/chats/messages/delivered').map((r) => JSON.parse(r.body));

const name = (count: number) => createI18n('en').t('layout:chat.badge', { count });
const inbox = (data: unknown) => ({ type: 'message', channel: chatInboxChannel(1), data });
const newMessage = (chatId: number, senderId = 2, messageId = 50) =>
  inbox({ kind: 'newMessage', chatId, messageId, senderId, mentioned: false });

function renderBadge(path = '/admin/dashboard') {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <ChatBadge />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('ChatBadge', () => {
  beforeEach(async () => {
    total = 3;
    await resetPage();
  });

  it('shows the unread total and follows the inbox: others’ messages raise it, read marks set it', async () => {
    await signIn(makeUser([AREA_PERMISSIONS.chatUse]));
    const { socket, restore } = await connectFakeSocket();
    try {
      await act(async () => void renderBadge());
      const link = await screen.findByRole('link', { name: name(3) });
      expect(link).toHaveAttribute('href', '/admin/chats');
      await waitFor(() =>
        expect(socket.sent).toContainEqual({ type: 'subscribe', channel: chatInboxChannel(1) }),
      );
      socket.frame(newMessage(4));
      await screen.findByRole('link', { name: name(4) });
      // My own message (sent from another tab) does not count.
      socket.frame(newMessage(4, 1));
      socket.frame(inbox({ kind: 'read', chatId: 4, unread: 0, unreadTotal: 1 }));
      await screen.findByRole('link', { name: name(1) });
    } finally {
      restore();
    }
  });

  it('does not count a message of the chat on screen', async () => {
    await signIn(makeUser([AREA_PERMISSIONS.chatUse]));
    const { socket, restore } = await connectFakeSocket();
    try {
      await act(async () => void renderBadge('/admin/chats/4'));
      await screen.findByRole('link', { name: name(3) });
      await waitFor(() =>
        expect(socket.sent).toContainEqual({ type: 'subscribe', channel: chatInboxChannel(1) }),
      );
      socket.frame(newMessage(4));
      socket.frame(newMessage(9));
      await screen.findByRole('link', { name: name(4) });
    } finally {
      restore();
    }
  });

  it('marks others’ messages delivered wherever the employee is, but not those of the chat on screen', async () => {
    await signIn(makeUser([AREA_PERMISSIONS.chatUse]));
    const { socket, restore } = await connectFakeSocket();
    try {
      await act(async () => void renderBadge('/admin/chats/4'));
      await waitFor(() =>
        expect(socket.sent).toContainEqual({ type: 'subscribe', channel: chatInboxChannel(1) }),
      );
      // The server serves the whole file: earlier tests' marks come first.
      const earlier = deliveredMarks().length;
      const marks = () => deliveredMarks().slice(earlier);
      // The open chat marks its own messages; my own messages need no mark.
      socket.frame(newMessage(4, 2, 50));
      socket.frame(newMessage(9, 1, 51));
      socket.frame(newMessage(9, 2, 52));
      socket.frame(newMessage(12, 3, 53));
      await waitFor(() => expect(marks()).toHaveLength(2));
      expect(marks()).toEqual(
        expect.arrayContaining([
          { chatId: 9, messageId: 52 },
          { chatId: 12, messageId: 53 },
        ]),
      );
    } finally {
      restore();
    }
  });

  it('is absent without chat.use', async () => {
    await signIn(makeUser([AREA_PERMISSIONS.dashboardView]));
    await act(async () => void renderBadge());
    expect(screen.queryByRole('link')).toBeNull();
  });
});
