import {
  CHAT_ROUTES,
  CHAT_PRESENCE_CHANNEL,
  foldArabic,
  chatInboxChannel,
  pathOf,
  chatRoomChannel,
  UPLOAD_DEFAULTS,
  uploadLimitBytes,
  type ChatMessage,
} from '@mizan/contracts';
import { createUserWith } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { openSocket, type Listener } from './testing';

const api = (path: string) => `/api${path}`;

describe.each(dialects())('chat on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let admin: Session;
  let ali: Session;
  let sara: Session;
  let omar: Session;
  let noChat: Session;
  const sockets: Listener[] = [];

  const call = async (session: Session, method: string, path: string, payload?: unknown) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url: api(path),
      headers: session.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.json() as { data: any } & Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test answers of many shapes
  };
  const socket = async (session: Session) => {
    const s = await openSocket(base, session);
    sockets.push(s);
    return s;
  };
  let seq = 0;
  const send = (session: Session, chatId: number, text: string, extra: Record<string, unknown> = {}) =>
    call(session, 'POST', CHAT_ROUTES.send.path, {
      chatId,
      clientId: `c-${dialect}-${++seq}`,
      text,
      ...extra,
    });

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    const user = async (name?: string) => {
      const creds = await createUserWith(
        t.app,
        admin.headers,
        name === 'none' ? ['courts.view'] : ['chat.use'],
      );
      return t.login(creds.email, creds.password);
    };
    [ali, sara, omar, noChat] = [await user(), await user(), await user(), await user('none')];
    await t.app.db
      .updateTable('employees')
      .set({ name: 'أحمد علي', search_text: foldArabic('أحمد علي') })
      .where('id', '=', ali.user.id)
      .execute();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = address.replace('http', 'ws');
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.socket.terminate();
  });
  afterAll(() => t.close());

  it('opens one one-to-one chat per pair, whoever opens it', async () => {
    const first = await call(ali, 'POST', CHAT_ROUTES.list.path, { kind: 'direct', memberId: sara.user.id });
    expect(first.status).toBe(200);
    expect(first.body.data.created).toBe(true);
    const again = await call(sara, 'POST', CHAT_ROUTES.list.path, { kind: 'direct', memberId: ali.user.id });
    expect(again.body.data).toMatchObject({ created: false, chat: { id: first.body.data.chat.id } });
    expect(
      (await call(ali, 'POST', CHAT_ROUTES.list.path, { kind: 'direct', memberId: ali.user.id })).status,
    ).toBe(422);
  });

  it('refuses a group without another member, and lists the employee picker folded', async () => {
    const lonely = await call(ali, 'POST', CHAT_ROUTES.list.path, {
      kind: 'group',
      name: 'وحدي',
      memberIds: [ali.user.id],
    });
    expect(lonely.status).toBe(422);
    expect(Object.keys(lonely.body.errors)).toEqual(['memberIds']);
    const picker = await call(sara, 'GET', `${CHAT_ROUTES.employees.path}?q=${encodeURIComponent('احمد')}`);
    expect(picker.status).toBe(200);
    expect(picker.body.data.items.map((e: { id: number }) => e.id)).toEqual([ali.user.id]);
    expect((await call(noChat, 'GET', CHAT_ROUTES.employees.path)).status).toBe(403);
  });

  it('keeps non-members out on HTTP and on the socket', async () => {
    const group = await call(ali, 'POST', CHAT_ROUTES.list.path, {
      kind: 'group',
      name: 'الاستئناف',
      memberIds: [sara.user.id],
    });
    const chatId = group.body.data.chat.id as number;
    await send(ali, chatId, 'سري');
    expect((await call(omar, 'GET', pathOf(CHAT_ROUTES.messages.path, { chatId }))).status).toBe(403);
    expect((await call(omar, 'GET', pathOf(CHAT_ROUTES.one.path, { id: chatId }))).status).toBe(403);
    expect((await send(omar, chatId, 'مرحبا')).status).toBe(403);
    expect((await call(omar, 'PUT', CHAT_ROUTES.read.path, { chatId })).status).toBe(403);
    const outsider = await socket(omar);
    expect(await outsider.subscribe(chatRoomChannel(chatId))).toMatchObject({ type: 'error' });
    expect(await outsider.subscribe(chatInboxChannel(ali.user.id))).toMatchObject({ type: 'error' });
    const member = await socket(sara);
    expect(await member.subscribe(chatRoomChannel(chatId))).toMatchObject({ type: 'subscribed' });
    await send(ali, chatId, 'ثانية');
    await member.wait((f) => f.action === 'create');
    outsider.send({ type: 'ping' });
    await outsider.wait((f) => f.type === 'pong' && outsider.frames.indexOf(f) > 2);
    expect(
      outsider.frames.filter((f) => f.channel === chatRoomChannel(chatId) && f.type !== 'error'),
    ).toEqual([]);

    // Removed from the group: out of the room at once, and nothing more reaches the socket.
    const removed = await call(ali, 'PUT', pathOf(CHAT_ROUTES.one.path, { id: chatId }), {
      memberIds: [ali.user.id, omar.user.id],
    });
    expect(removed.status).toBe(200);
    await member.wait((f) => f.type === 'unsubscribed' && f.channel === chatRoomChannel(chatId));
    const after = member.frames.length;
    await send(ali, chatId, 'بعد الإزالة');
    member.send({ type: 'ping' });
    await member.wait((f) => f.type === 'pong' && member.frames.indexOf(f) >= after);
    expect(member.frames.slice(after).filter((f) => f.action === 'create')).toEqual([]);
    expect((await call(sara, 'GET', pathOf(CHAT_ROUTES.messages.path, { chatId }))).status).toBe(403);
  });

  it('refuses empty, too long and unknown input with 422, and stores nothing', async () => {
    const chat = await call(ali, 'POST', CHAT_ROUTES.list.path, { kind: 'direct', memberId: omar.user.id });
    const chatId = chat.body.data.chat.id as number;
    expect((await send(ali, chatId, '   \n ')).status).toBe(422);
    expect((await send(ali, chatId, 'ا'.repeat(10_001))).status).toBe(422);
    expect((await send(ali, chatId, 'ا'.repeat(10_000))).status).toBe(200);
    expect((await call(ali, 'POST', CHAT_ROUTES.send.path, { chatId, text: 'بلا معرّف' })).status).toBe(422);
    const page = await call(ali, 'GET', pathOf(CHAT_ROUTES.messages.path, { chatId }));
    expect(page.body.data.items).toHaveLength(1);
  });

  it('stores a retried send once, with the same answer', async () => {
    const chat = await call(ali, 'POST', CHAT_ROUTES.list.path, { kind: 'direct', memberId: omar.user.id });
    const chatId = chat.body.data.chat.id as number;
    const body = { chatId, clientId: `retry-${dialect}`, text: 'مرة واحدة' };
    const [a, b] = await Promise.all([
      call(ali, 'POST', CHAT_ROUTES.send.path, body),
      call(ali, 'POST', CHAT_ROUTES.send.path, body),
    ]);
    const c = await call(ali, 'POST', CHAT_ROUTES.send.path, body);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(new Set([a.body.data.message.id, b.body.data.message.id, c.body.data.message.id]).size).toBe(1);
    expect(c.body.data.created).toBe(false);
    const rows = await t.app.db
      .selectFrom('chat_messages')
      .select('id')
      .where('client_id', '=', `retry-${dialect}`)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('orders concurrent senders by id, all delivered, none doubled', async () => {
    const group = await call(ali, 'POST', CHAT_ROUTES.list.path, {
      kind: 'group',
      name: 'سباق',
      memberIds: [sara.user.id, omar.user.id],
    });
    const chatId = group.body.data.chat.id as number;
    const watcher = await socket(omar);
    await watcher.subscribe(chatRoomChannel(chatId));
    const sends = [];
    for (let i = 0; i < 15; i++) {
      sends.push(send(ali, chatId, `ع${i}`));
      sends.push(send(sara, chatId, `س${i}`));
    }
    const answers = await Promise.all(sends);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const page = await call(omar, 'GET', `${pathOf(CHAT_ROUTES.messages.path, { chatId })}?limit=100`);
    const ids = (page.body.data.items as ChatMessage[]).map((m) => m.id);
    expect(ids).toHaveLength(30);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    // Each sender's own messages keep their sending order.
    const aliTexts = (page.body.data.items as ChatMessage[]).filter((m) => m.senderId === ali.user.id);
    expect(aliTexts).toHaveLength(15);
    await watcher.wait(() => watcher.frames.filter((f) => f.action === 'create').length === 30);
    const live = watcher.frames.filter((f) => f.action === 'create').map((f) => (f.data as ChatMessage).id);
    expect(new Set(live)).toEqual(new Set(ids));
  });

  it('fills the gap after a reconnect from the last seen id, page by page', async () => {
    const chat = await call(sara, 'POST', CHAT_ROUTES.list.path, { kind: 'direct', memberId: omar.user.id });
    const chatId = chat.body.data.chat.id as number;
    const seen = (await send(sara, chatId, 'قبل الانقطاع')).body.data.message.id as number;
    const missed: number[] = [];
    for (let i = 0; i < 5; i++) missed.push((await send(sara, chatId, `فائتة ${i}`)).body.data.message.id);
    const first = await call(
      omar,
      'GET',
      `${pathOf(CHAT_ROUTES.messages.path, { chatId })}?after=${seen}&limit=3`,
    );
    expect(first.body.data.hasMore).toBe(true);
    const last = first.body.data.items.at(-1).id as number;
    const second = await call(
      omar,
      'GET',
      `${pathOf(CHAT_ROUTES.messages.path, { chatId })}?after=${last}&limit=3`,
    );
    expect(second.body.data.hasMore).toBe(false);
    expect([...first.body.data.items, ...second.body.data.items].map((m: ChatMessage) => m.id)).toEqual(
      missed,
    );
    const older = await call(
      omar,
      'GET',
      `${pathOf(CHAT_ROUTES.messages.path, { chatId })}?before=${missed[0]}`,
    );
    expect(older.body.data.items.map((m: ChatMessage) => m.id)).toEqual([seen]);
    const found = await call(
      omar,
      'GET',
      `${pathOf(CHAT_ROUTES.messages.path, { chatId })}?q=${encodeURIComponent('فائته 3')}`,
    );
    expect(found.body.data.items.map((m: ChatMessage) => m.id)).toEqual([missed[3]]);
  });

  it('moves statuses sent → delivered → read, counts unread, and tells the room and the inbox', async () => {
    const chat = await call(ali, 'POST', CHAT_ROUTES.list.path, { kind: 'direct', memberId: sara.user.id });
    const chatId = chat.body.data.chat.id as number;
    await call(sara, 'PUT', CHAT_ROUTES.read.path, { chatId });
    const before = (await call(sara, 'GET', CHAT_ROUTES.unread.path)).body.data.total as number;
    const authorSocket = await socket(ali);
    await authorSocket.subscribe(chatRoomChannel(chatId));
    const inbox = await socket(sara);
    expect(await inbox.subscribe(chatInboxChannel(sara.user.id))).toMatchObject({ type: 'subscribed' });
    const sent = (await send(ali, chatId, 'هل وصلت؟ @أحمد')).body.data.message as ChatMessage;
    expect(sent.status).toBe('sent');
    expect(
      await inbox.wait((f) => f.type === 'message' && f.channel === chatInboxChannel(sara.user.id)),
    ).toMatchObject({
      data: { kind: 'newMessage', chatId, messageId: sent.id, mentioned: false },
    });
    const unread = await call(sara, 'GET', CHAT_ROUTES.unread.path);
    expect(unread.body.data.total).toBe(before + 1);
    expect(unread.body.data.chats[String(chatId)]).toBe(1);

    await call(sara, 'PUT', CHAT_ROUTES.delivered.path, { chatId, messageId: sent.id });
    await authorSocket.wait(
      (f) => f.action === 'status' && (f.data as { lastDeliveredId: number }).lastDeliveredId === sent.id,
    );
    let page = await call(ali, 'GET', pathOf(CHAT_ROUTES.messages.path, { chatId }));
    expect(page.body.data.items.at(-1).status).toBe('delivered');

    const read = await call(sara, 'PUT', CHAT_ROUTES.read.path, { chatId });
    expect(read.body.data).toMatchObject({ chatId, lastReadId: sent.id, unread: 0, unreadTotal: before });
    await authorSocket.wait(
      (f) => f.action === 'status' && (f.data as { lastReadId: number }).lastReadId === sent.id,
    );
    page = await call(ali, 'GET', pathOf(CHAT_ROUTES.messages.path, { chatId }));
    expect(page.body.data.items.at(-1).status).toBe('read');
    expect(await inbox.wait((f) => (f.data as { kind?: string } | undefined)?.kind === 'read')).toMatchObject(
      {
        data: { kind: 'read', chatId, unread: 0 },
      },
    );
  });

  it('notifies an @mentioned member through the notification centre', async () => {
    const group = await call(sara, 'POST', CHAT_ROUTES.list.path, {
      kind: 'group',
      name: 'إشارات',
      memberIds: [ali.user.id],
    });
    const chatId = group.body.data.chat.id as number;
    const sent = await send(sara, chatId, 'راجع الملف يا @احمد علي');
    expect(sent.body.data.message.mentions).toEqual([ali.user.id]);
    const list = await call(ali, 'GET', '/notifications');
    expect(list.body.data.items[0]).toMatchObject({ kind: 'chatMention', link: `/admin/chats/${chatId}` });
  });

  it('edits and deletes one’s own messages only, replies, typing relayed', async () => {
    const chat = await call(ali, 'POST', CHAT_ROUTES.list.path, { kind: 'direct', memberId: sara.user.id });
    const chatId = chat.body.data.chat.id as number;
    const first = (await send(ali, chatId, 'أصل')).body.data.message as ChatMessage;
    const reply = await send(sara, chatId, 'رد', { replyToId: first.id });
    expect(reply.body.data.message.replyTo).toMatchObject({ id: first.id, text: 'أصل' });
    expect(
      (
        await call(sara, 'PUT', pathOf(CHAT_ROUTES.editMessage.path, { messageId: first.id }), {
          text: 'تعديل',
        })
      ).status,
    ).toBe(403);
    const edited = await call(ali, 'PUT', pathOf(CHAT_ROUTES.editMessage.path, { messageId: first.id }), {
      text: 'معدّل',
    });
    expect(edited.body.data.editedAt).not.toBeNull();
    const deleted = await call(ali, 'DELETE', pathOf(CHAT_ROUTES.editMessage.path, { messageId: first.id }));
    expect(deleted.body.data).toMatchObject({ text: '', deletedAt: expect.any(String) });

    await t.app.db.updateTable('employees').set({ gender: 'male' }).where('id', '=', ali.user.id).execute();
    const typist = await socket(ali);
    const reader = await socket(sara);
    await typist.subscribe(chatRoomChannel(chatId));
    await reader.subscribe(chatRoomChannel(chatId));
    typist.send({ type: 'message', channel: chatRoomChannel(chatId), data: { typing: true } });
    expect(await reader.wait((f) => f.type === 'message')).toMatchObject({
      data: { kind: 'typing', employeeId: ali.user.id, gender: 'male', typing: true },
    });
    // The typist's gender comes along, for the verb of "X is typing" (تكتب).
    await t.app.db
      .updateTable('employees')
      .set({ gender: 'female' })
      .where('id', '=', sara.user.id)
      .execute();
    const woman = await socket(sara);
    await woman.subscribe(chatRoomChannel(chatId));
    woman.send({ type: 'message', channel: chatRoomChannel(chatId), data: { typing: true } });
    expect(
      await typist.wait(
        (f) => f.type === 'message' && (f.data as { employeeId?: number }).employeeId === sara.user.id,
      ),
    ).toMatchObject({ data: { kind: 'typing', employeeId: sara.user.id, gender: 'female', typing: true } });
  });

  it('takes files with previews, and refuses too large (413) and refused types (415)', async () => {
    const chat = await call(ali, 'POST', CHAT_ROUTES.list.path, { kind: 'direct', memberId: sara.user.id });
    const chatId = chat.body.data.chat.id as number;
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const upload = (name: string, type: string, content: Buffer) => {
      const form = new FormData();
      form.append('chatId', String(chatId));
      form.append('clientId', `file-${dialect}-${++seq}`);
      form.append('files', new Blob([content], { type }), name);
      return t.app.inject({
        method: 'POST',
        url: api(CHAT_ROUTES.send.path),
        headers: ali.headers,
        payload: form,
      });
    };
    const ok = await upload('صورة.png', 'image/png', png);
    expect(ok.statusCode).toBe(200);
    const file = ok.json().data.message.files[0];
    expect(file).toMatchObject({ name: 'صورة.png', mimeType: 'image/png', image: true });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/files/${file.id}`, headers: sara.headers })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/files/${file.id}`, headers: omar.headers })).statusCode,
    ).toBe(403);
    expect(
      (await upload('a.exe', 'application/x-msdownload', Buffer.from('MZ\x90\x00binary'))).statusCode,
    ).toBe(415);
    expect(
      (
        await upload(
          'big.txt',
          'text/plain',
          Buffer.alloc(uploadLimitBytes(UPLOAD_DEFAULTS.maxUploadMb) + 1, 'a'),
        )
      ).statusCode,
    ).toBe(413);
  });

  it('shows who has a socket open, and tells a new member of the chat on their inbox', async () => {
    const watcher = await socket(ali);
    await watcher.subscribe(CHAT_PRESENCE_CHANNEL);
    await watcher.subscribe(chatInboxChannel(ali.user.id));
    const omarSocket = await socket(omar);
    expect(
      await watcher.wait((f) => (f.data as { employeeId?: number } | undefined)?.employeeId === omar.user.id),
    ).toMatchObject({ data: { kind: 'presence', online: true } });
    expect((await call(ali, 'GET', CHAT_ROUTES.presence.path)).body.data.online).toContain(omar.user.id);
    omarSocket.socket.terminate();
    await watcher.wait(
      (f) =>
        (f.data as { employeeId?: number; online?: boolean } | undefined)?.employeeId === omar.user.id &&
        (f.data as { online: boolean }).online === false,
    );
    expect((await call(ali, 'GET', CHAT_ROUTES.presence.path)).body.data.online).not.toContain(omar.user.id);

    const group = await call(sara, 'POST', CHAT_ROUTES.list.path, {
      kind: 'group',
      name: 'جديدة',
      memberIds: [ali.user.id],
    });
    expect(
      await watcher.wait((f) => (f.data as { kind?: string } | undefined)?.kind === 'chat'),
    ).toMatchObject({ data: { chat: { id: group.body.data.chat.id, name: 'جديدة', unread: 0 } } });
  });

  it('archives per user, leaves, and deletes by the creator only', async () => {
    const group = await call(ali, 'POST', CHAT_ROUTES.list.path, {
      kind: 'group',
      name: 'أرشيف',
      memberIds: [sara.user.id, omar.user.id],
    });
    const chatId = group.body.data.chat.id as number;
    const archived = await call(sara, 'PATCH', pathOf(CHAT_ROUTES.archive.path, { id: chatId }), {
      archived: true,
    });
    expect(archived.body.data.archived).toBe(true);
    const list = await call(sara, 'GET', `${CHAT_ROUTES.list.path}?archived=true`);
    expect(list.body.data.items.map((c: { id: number }) => c.id)).toContain(chatId);
    const aliList = await call(ali, 'GET', CHAT_ROUTES.list.path);
    expect(aliList.body.data.items.map((c: { id: number }) => c.id)).toContain(chatId);
    expect((await call(sara, 'DELETE', pathOf(CHAT_ROUTES.one.path, { id: chatId }))).status).toBe(403);
    expect((await call(omar, 'POST', pathOf(CHAT_ROUTES.leave.path, { id: chatId }))).status).toBe(200);
    expect((await call(omar, 'GET', pathOf(CHAT_ROUTES.one.path, { id: chatId }))).status).toBe(403);
    expect((await call(ali, 'DELETE', pathOf(CHAT_ROUTES.one.path, { id: chatId }))).status).toBe(200);
    expect((await call(ali, 'GET', pathOf(CHAT_ROUTES.one.path, { id: chatId }))).status).toBe(404);
  });
});
