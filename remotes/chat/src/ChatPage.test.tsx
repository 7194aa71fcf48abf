import { chatRoomChannel } from '@mizan/contracts';
import { i18n } from '@mizan/i18n';
import { clearSession, createQueryClient, wsClient } from '@mizan/sdk';
import { connectFakeSocket } from '@mizan/ui/testing/fakeSocket';
import { captureToasts, pointSdkAt, signIn } from '@mizan/ui/testing/render';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { ChatPage } from './ChatPage';
import { message, startChatServer } from './test/chatServer';

type ChatServer = Awaited<ReturnType<typeof startChatServer>>;
let server: ChatServer;
let socket: Awaited<ReturnType<typeof connectFakeSocket>>;
const ROOM = chatRoomChannel(4);
const t = (key: string) => i18n.t(`chat:${key}`);

beforeAll(() => {
  signIn(['chat.use']);
  captureToasts();
});
afterEach(async () => {
  // Unmounted before the server goes, so no request of the page outlives its test.
  cleanup();
  afterPage?.();
  afterPage = null;
  socket?.restore();
  await server?.close();
});
/** What a test set up for its page that must outlive it until it is unmounted. */
let afterPage: (() => void) | null = null;

/** Chat 4 open at `/admin/chats/4` over the test server and the stand-in socket, its messages shown. */
async function openChat(messages = [message(1, 'أهلا'), message(2, 'hello')]) {
  server = await startChatServer(messages);
  pointSdkAt(server.url);
  socket = await connectFakeSocket();
  showChatPage();
  await waitFor(() => expect(socket.socket.sent).toContainEqual({ type: 'subscribe', channel: ROOM }));
  // The newest page (50) shows first.
  if (messages.length) await waitFor(() => expect(shown()).toEqual(messages.slice(-50).map((m) => m.text)));
}

/** The chat page at `/admin/chats/4` (again, after `cleanup()`, for a reload). */
function showChatPage() {
  render(
    <ConfigProvider direction="rtl" wave={{ disabled: true }} virtual={false}>
      <App>
        <QueryClientProvider client={createQueryClient()}>
          <MemoryRouter initialEntries={['/admin/chats/4']}>
            <Routes>
              <Route path="/admin/chats/:id" element={<ChatPage />} />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </App>
    </ConfigProvider>,
  );
}

/** The texts of the stored messages on screen, top to bottom. */
const shown = () =>
  screen.queryAllByTestId('message').map((li) => within(li).queryByTestId('message-text')?.textContent ?? '');
const pending = () => screen.queryAllByTestId('pending-message');

async function write(text: string) {
  const box = screen.getByRole('textbox', { name: t('composer.label') });
  fireEvent.change(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: 'Enter' });
}

describe('chat room', () => {
  it('shows each message once however often it arrives', async () => {
    await openChat();
    socket.event(ROOM, 'create', message(2, 'hello'));
    socket.event(ROOM, 'create', message(3, 'ثالثة'));
    socket.event(ROOM, 'create', message(3, 'ثالثة'));
    await waitFor(() => expect(shown()).toEqual(['أهلا', 'hello', 'ثالثة']));
  });

  it('fetches what it missed after a reconnection and merges it with live copies', async () => {
    await openChat();
    act(() => wsClient.events.emit('close', { code: 1006, reason: '' }));
    // While disconnected, Sara wrote three messages; the last two also come live once reconnected,
    // before and after the room's subscription is confirmed.
    server.state.messages.push(message(3, 'one'), message(4, 'two'), message(5, 'three'));
    socket.event(ROOM, 'create', message(4, 'two'));
    socket.socket.frame({ type: 'subscribed', channel: ROOM });
    socket.event(ROOM, 'create', message(5, 'three'));
    await waitFor(() => expect(shown()).toEqual(['أهلا', 'hello', 'one', 'two', 'three']));
    expect(
      server.seen.some((r) => r.path === '/api/admin/chats/4/messages' && r.query.get('after') === '2'),
    ).toBe(true);
  });

  it('keeps a message pending while the server is unreachable, then sends it once', async () => {
    await openChat([]);
    server.state.mode = 'offline';
    await write('رسالة أثناء الانقطاع');
    await waitFor(() => expect(pending()).toHaveLength(1));
    expect(within(pending()[0]!).getByRole('img', { name: t('status.pending') })).toBeInTheDocument();

    // Back, but the answer of the next attempt is lost: the retry with the same client id is stored once.
    server.state.mode = 'storeThenDrop';
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(server.storedWith('رسالة أثناء الانقطاع')).toHaveLength(1));
    server.state.mode = 'store';
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(shown()).toEqual(['رسالة أثناء الانقطاع']));
    expect(pending()).toHaveLength(0);
    expect(server.storedWith('رسالة أثناء الانقطاع')).toHaveLength(1);
    const sends = server.calls('POST', '/api/admin/chats/messages').map((r) => JSON.parse(r.body).clientId);
    expect(new Set(sends).size).toBe(1);
    expect(
      within(screen.getByTestId('message')).getByRole('img', { name: t('status.sent') }),
    ).toBeInTheDocument();
  });

  it('previews my sent message in my own chat list', async () => {
    await openChat([]);
    const row = screen.getByTestId('chat-row');
    expect(within(row).getByText(t('messages.empty'))).toBeInTheDocument();
    await write('موعد الجلسة غدًا');
    await waitFor(() => expect(within(row).getByText('موعد الجلسة غدًا')).toBeInTheDocument());
  });

  it('marks a refused message failed and sends it on retry', async () => {
    await openChat([]);
    server.state.mode = 'refuse';
    await write('مرفوضة');
    await waitFor(() =>
      expect(within(pending()[0]!).getByRole('img', { name: t('status.failed') })).toBeInTheDocument(),
    );
    expect(pending()[0]).toHaveTextContent('النص طويل جدًا');

    server.state.mode = 'store';
    fireEvent.click(within(pending()[0]!).getByRole('button', { name: t('actions.retry') }));
    await waitFor(() => expect(shown()).toEqual(['مرفوضة']));
    expect(pending()).toHaveLength(0);
  });

  it('turns my message’s ticks to read when Sara reads it', async () => {
    await openChat([message(1, 'hi', 2), message(2, 'mine', 1)]);
    const mine = () => screen.getAllByTestId('message')[1]!;
    expect(within(mine()).getByRole('img', { name: t('status.sent') })).toBeInTheDocument();
    socket.event(ROOM, 'status', { chatId: 4, employeeId: 2, lastDeliveredId: 2, lastReadId: 2 });
    await waitFor(() =>
      expect(within(mine()).getByRole('img', { name: t('status.read') })).toBeInTheDocument(),
    );
  });

  it('gives every message its own direction and opens only safe links, never as HTML', async () => {
    await openChat([
      message(1, 'الجلسة غدًا in court 3'),
      message(2, 'Hearing tomorrow في المحكمة'),
      message(3, '<b>bold</b> https://example.com/a?b=1 javascript:alert(1) ftp://files.example.org'),
    ]);
    const texts = screen.getAllByTestId('message-text');
    expect(texts.map((el) => el.getAttribute('dir'))).toEqual(['auto', 'auto', 'auto']);
    const links = within(texts[2]!).getAllByRole('link');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', 'https://example.com/a?b=1');
    expect(links[0]).toHaveAttribute('target', '_blank');
    expect(links[0]).toHaveAttribute('rel', 'noopener noreferrer');
    expect(texts[2]!.querySelector('b')).toBeNull();
    expect(texts[2]).toHaveTextContent('<b>bold</b>');
  });

  it('marks what it shows read, and shows typing, edits and deletions as they happen', async () => {
    await openChat();
    await waitFor(() =>
      expect(
        server.calls('PUT', '/api/admin/chats/messages/read').map((r) => JSON.parse(r.body)),
      ).toContainEqual({
        chatId: 4,
        messageId: 2,
      }),
    );
    socket.socket.frame({
      type: 'message',
      channel: ROOM,
      from: 2,
      data: { kind: 'typing', employeeId: 2, name: 'سارة', gender: 'female', typing: true },
    });
    // The verb agrees with her (تكتب), and with two typists it is dual.
    await screen.findByText('سارة تكتب…');
    socket.socket.frame({
      type: 'message',
      channel: ROOM,
      from: 3,
      data: { kind: 'typing', employeeId: 3, name: 'عمر', gender: 'male', typing: true },
    });
    await screen.findByText('سارة، عمر يكتبان…');

    socket.event(ROOM, 'update', { ...message(2, 'hello again'), editedAt: '2026-11-23T10:05:00.000Z' });
    socket.event(ROOM, 'delete', { ...message(1, ''), deletedAt: '2026-11-23T10:06:00.000Z' });
    await waitFor(() => expect(shown()).toEqual(['', 'hello again']));
    const [first, second] = screen.getAllByTestId('message');
    expect(first).toHaveTextContent(t('message.deleted'));
    expect(within(second!).getByTestId('edited')).toHaveTextContent(t('message.edited'));
  });

  it('loads older pages when scrolled to the top and searches the chat', async () => {
    const many = Array.from({ length: 60 }, (_, i) => message(i + 1, `رسالة ${i + 1}`));
    await openChat(many);
    const list = screen.getByRole('list', { name: t('messages.label') }).parentElement!;
    list.scrollTop = 0;
    fireEvent.scroll(list);
    await waitFor(() => expect(shown()).toHaveLength(60));
    expect(shown()[0]).toBe('رسالة 1');
    expect(server.seen.some((r) => r.query.get('before') === '11')).toBe(true);

    const search = screen.getByLabelText(t('search.label'));
    fireEvent.change(search, { target: { value: 'رسالة 5' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    const results = await screen.findByTestId('search-results');
    await waitFor(() =>
      expect(
        within(results)
          .getAllByTestId('message-text')
          .map((e) => e.textContent),
      ).toEqual(['رسالة 5', ...Array.from({ length: 10 }, (_, i) => `رسالة ${50 + i}`)]),
    );
  });

  it('keeps a message written offline across a sign-out and sends it at the next sign-in under the same client id', async () => {
    await openChat([]);
    server.state.mode = 'offline';
    await write('كُتبت قبل إعادة التحميل');
    await waitFor(() => expect(pending()).toHaveLength(1));

    // Signed out and in again (the outbox in memory is gone; a reload is the vault's own test), the
    // server back.
    cleanup();
    await clearSession('logout');
    signIn(['chat.use']);
    server.state.mode = 'store';
    showChatPage();
    await waitFor(() => expect(shown()).toEqual(['كُتبت قبل إعادة التحميل']));
    expect(pending()).toHaveLength(0);
    const sends = server.calls('POST', '/api/admin/chats/messages').map((r) => JSON.parse(r.body).clientId);
    expect(sends.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sends).size).toBe(1);
    expect(server.storedWith('كُتبت قبل إعادة التحميل')).toHaveLength(1);
  });

  it('sends attached files with the message and shows them on it, an image as a preview', async () => {
    const previews = stubObjectUrls();
    await openChat([]);
    const photo = new File(['png bytes'], 'صورة الإيصال.png', { type: 'image/png' });
    const contract = new File(['%PDF-1.4'], 'contract.pdf', { type: 'application/pdf' });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [photo, contract] } });
    expect(await screen.findByTestId('attached-files')).toHaveTextContent('صورة الإيصال.png، contract.pdf');

    await write('المستندات');
    await waitFor(() => expect(shown()).toEqual(['المستندات']));
    expect(screen.queryByTestId('attached-files')).toBeNull();
    const [sent] = server.calls('POST', '/api/admin/chats/messages');
    expect(sent!.contentType).toMatch(/^multipart\/form-data/);
    expect(sent!.body).toContain('name="files"; filename="صورة الإيصال.png"');
    expect(sent!.body).toContain('name="files"; filename="contract.pdf"');

    const shownMessage = screen.getByTestId('message');
    expect(
      within(shownMessage).getByRole('button', {
        name: i18n.t('chat:file.download', { name: 'contract.pdf' }),
      }),
    ).toBeInTheDocument();
    const preview = within(shownMessage).getByRole('img', {
      name: i18n.t('chat:file.image', { name: 'صورة الإيصال.png' }),
    });
    // The preview shows the image's own bytes, fetched from the server with the session.
    await waitFor(() => expect(preview).toHaveAttribute('src', 'blob:preview-1'));
    expect(await textOf(previews[0]!)).toBe('png bytes');
    expect(previews[0]!.type).toBe('image/png');
  });
});

/**
 * jsdom has no object URLs: these make `blob:preview-<n>` and keep each blob for the test to read,
 * until the page of the test is gone (it revokes its URLs when unmounted).
 */
function stubObjectUrls(): Blob[] {
  const made: Blob[] = [];
  URL.createObjectURL = (blob: Blob) => `blob:preview-${made.push(blob)}`;
  URL.revokeObjectURL = () => undefined;
  afterPage = () => {
    delete (URL as Partial<typeof URL>).createObjectURL;
    delete (URL as Partial<typeof URL>).revokeObjectURL;
  };
  return made;
}

function textOf(blob: Blob): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });
}
