import WebSocket from 'ws';
import { notificationChannel, type NotificationRow } from '@mizan/contracts';
import { dateTexts } from '../documents/fields';
import { mailText, startTestSmtp } from '../mail/testSmtp';
import { createUserWith } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { notify } from './send';

type Frame = Record<string, unknown>;

/** A socket that queues every frame, so a test can await the next one (or see that none came). */
class Client {
  readonly frames: Frame[] = [];
  private waiters: ((frame: Frame) => void)[] = [];

  constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      const frame = JSON.parse(String(raw)) as Frame;
      const waiter = this.waiters.shift();
      if (waiter) waiter(frame);
      else this.frames.push(frame);
    });
  }

  next(timeoutMs = 3000): Promise<Frame> {
    const queued = this.frames.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no frame arrived')), timeoutMs);
      this.waiters.push((frame) => {
        clearTimeout(timer);
        resolve(frame);
      });
    });
  }

  async request(frame: unknown): Promise<Frame> {
    this.socket.send(JSON.stringify(frame));
    return this.next();
  }
}

const hearing = (id: number) => ({
  kind: 'hearingTomorrow' as const,
  params: { fileNumber: `${id}/2026`, date: '2026-11-24', time: '09:30', court: 'North Cairo' },
  link: `/admin/lawsuits/sessions/${id}`,
});

describe.each(dialects())('notifications on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let other: Session;
  let otherId: number;
  let base: string;
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  const open: WebSocket[] = [];

  async function connect(session: Session): Promise<Client> {
    const query = new URLSearchParams({
      Authorization: session.token,
      'x-fingerprint-session': session.headers['x-fingerprint-session']!,
      'x-fingerprint': 'test-device',
    });
    const socket = new WebSocket(`${base}/api/ws?${query}`);
    open.push(socket);
    const client = new Client(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  const get = (session: Session, url: string, lang = 'en') =>
    t.app.inject({ method: 'GET', url, headers: { ...session.headers, 'accept-language': lang } });
  const send = (session: Session, method: 'PATCH' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { ...session.headers, 'accept-language': 'en' },
      payload: payload as object,
    });

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp({ dialect, env: { SMTP_URL: smtp.url } });
    admin = await t.login();
    const user = await createUserWith(t.app, admin.headers, ['courts.view']);
    otherId = user.employeeId;
    other = await t.login(user.email, user.password);
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.terminate();
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('reaches only its recipient’s sockets, each of their tabs', async () => {
    const mine = await connect(admin);
    const myOtherTab = await connect(admin);
    const theirs = await connect(other);
    expect(
      await mine.request({ type: 'subscribe', channel: notificationChannel(admin.user.id) }),
    ).toMatchObject({
      type: 'subscribed',
    });
    expect(
      await myOtherTab.request({ type: 'subscribe', channel: notificationChannel(admin.user.id) }),
    ).toMatchObject({ type: 'subscribed' });
    expect(await theirs.request({ type: 'subscribe', channel: notificationChannel(otherId) })).toMatchObject({
      type: 'subscribed',
    });
    // Nobody joins another employee's channel.
    expect(
      await theirs.request({ type: 'subscribe', channel: notificationChannel(admin.user.id) }),
    ).toMatchObject({
      type: 'error',
    });

    expect(await notify(t.app, t.app.db, [{ employeeId: admin.user.id, ...hearing(1) }])).toBe(1);
    const frame = await mine.next();
    expect(frame).toMatchObject({
      type: 'notification',
      channel: notificationChannel(admin.user.id),
      data: { kind: 'hearingTomorrow', link: '/admin/lawsuits/sessions/1', readAt: null },
    });
    expect((frame.data as NotificationRow).params).toEqual(hearing(1).params);
    expect(await myOtherTab.next()).toMatchObject({ type: 'notification' });
    // The other employee's socket heard nothing: its next frame is the answer to a ping.
    expect(await theirs.request({ type: 'ping' })).toEqual({ type: 'pong' });
  });

  it('lists newest first, paged, counts unread and marks read across tabs', async () => {
    const before = (await get(admin, '/api/notifications/unread-count')).json().data.unread as number;
    await notify(
      t.app,
      t.app.db,
      [2, 3, 4].map((id) => ({ employeeId: admin.user.id, ...hearing(id) })),
    );
    await notify(t.app, t.app.db, [{ employeeId: otherId, ...hearing(5) }]);
    expect((await get(admin, '/api/notifications/unread-count')).json().data).toEqual({ unread: before + 3 });

    const page = (await get(admin, '/api/notifications?pageSize=2&page=1')).json().data;
    expect(page).toMatchObject({ page: 1, pageSize: 2, unread: before + 3 });
    expect(page.items.map((n: NotificationRow) => n.link)).toEqual([
      '/admin/lawsuits/sessions/4',
      '/admin/lawsuits/sessions/3',
    ]);
    // Only their own rows.
    const all = (await get(admin, '/api/notifications?pageSize=100')).json().data;
    expect(all.items.some((n: NotificationRow) => n.link === '/admin/lawsuits/sessions/5')).toBe(false);

    const tab = await connect(admin);
    await tab.request({ type: 'subscribe', channel: notificationChannel(admin.user.id) });
    const target = page.items[0] as NotificationRow;
    const read = await send(admin, 'PATCH', `/api/notifications/${target.id}/read`);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toMatchObject({ marked: 1, unread: before + 2, item: { id: target.id } });
    expect(read.json().data.item.readAt).toEqual(expect.any(String));
    expect(await tab.next()).toMatchObject({
      type: 'notificationsRead',
      data: { ids: [target.id], unread: before + 2 },
    });

    const unreadOnly = (await get(admin, '/api/notifications?unread=true&pageSize=100')).json().data;
    expect(unreadOnly.items.every((n: NotificationRow) => n.readAt === null)).toBe(true);
    expect(unreadOnly.total).toBe(before + 2);

    const allRead = await send(admin, 'PATCH', '/api/notifications/read-all');
    expect(allRead.json().data).toMatchObject({ marked: before + 2, unread: 0 });
    expect(await tab.next()).toMatchObject({ type: 'notificationsRead', data: { ids: null, unread: 0 } });
    expect((await get(other, '/api/notifications/unread-count')).json().data.unread).toBeGreaterThan(0);
  });

  it('answers 404 for another employee’s notification, and leaves it unread', async () => {
    await notify(t.app, t.app.db, [{ employeeId: otherId, ...hearing(6) }]);
    const theirs = (await get(other, '/api/notifications?pageSize=1')).json().data
      .items[0] as NotificationRow;
    expect((await send(admin, 'PATCH', `/api/notifications/${theirs.id}/read`)).statusCode).toBe(404);
    expect((await send(admin, 'PATCH', '/api/notifications/999999/read')).statusCode).toBe(404);
    expect((await send(admin, 'PATCH', '/api/notifications/abc/read')).statusCode).toBe(404);
    const again = (await get(other, '/api/notifications?pageSize=1')).json().data.items[0] as NotificationRow;
    expect(again.readAt).toBeNull();
  });

  it('inserts a key once per employee', async () => {
    const input = { employeeId: otherId, ...hearing(7), key: 'hearingTomorrow:7:2026-11-24' };
    expect(await notify(t.app, t.app.db, [input, { ...input, employeeId: admin.user.id }])).toBe(2);
    expect(await notify(t.app, t.app.db, [input])).toBe(0);
    await t.app.entities.transaction({ user: null, ip: '127.0.0.1' }, async (ctx) => {
      expect(await notify(t.app, ctx, [input, { ...input, key: 'hearingTomorrow:7:2026-11-25' }])).toBe(1);
    });
    const links = (await get(other, '/api/notifications?pageSize=100')).json().data
      .items as NotificationRow[];
    expect(links.filter((n) => n.link === '/admin/lawsuits/sessions/7')).toHaveLength(2);
  });

  it('delivers a notification sent in a write only after it commits, and none when it rolls back', async () => {
    const mine = await connect(admin);
    await mine.request({ type: 'subscribe', channel: notificationChannel(admin.user.id) });
    const actor = { user: null, ip: '127.0.0.1' };
    await expect(
      t.app.entities.transaction(actor, async (ctx) => {
        expect(await notify(t.app, ctx, [{ employeeId: admin.user.id, ...hearing(8) }])).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await t.app.entities.transaction(actor, async (ctx) => {
      await notify(t.app, ctx, [{ employeeId: admin.user.id, ...hearing(9) }]);
      // Not yet: the row is not committed.
      expect(mine.frames).toHaveLength(0);
    });
    // The rolled-back one was never stored.
    const links = (await get(admin, '/api/notifications?pageSize=100')).json().data
      .items as NotificationRow[];
    expect(links.map((n) => n.link)).not.toContain('/admin/lawsuits/sessions/8');
    expect(await mine.next()).toMatchObject({
      type: 'notification',
      data: { link: '/admin/lawsuits/sessions/9' },
    });
    expect(await mine.request({ type: 'ping' })).toEqual({ type: 'pong' });
  });

  it('keeps preferences per kind: off sends nothing, email mails in the employee’s language', async () => {
    const initial = (await get(other, '/api/notifications/preferences')).json().data;
    expect(initial).toEqual({
      emailAvailable: true,
      // When the scheduled kinds come: the office's reminder times and thresholds.
      schedule: { evening: '18:00', morning: '07:00', procurationDays: [30, 7] },
      preferences: {
        hearingTomorrow: 'app',
        hearingToday: 'app',
        hearingNoDecision: 'app',
        procurationExpiring: 'app',
        deadlineDue: 'app',
        backupFailed: 'app',
        taskAssigned: 'app',
        taskComment: 'app',
        taskState: 'app',
        taskDueTomorrow: 'app',
        taskOverdue: 'app',
        chatMention: 'app',
      },
    });
    const saved = await send(other, 'PUT', '/api/notifications/preferences', {
      hearingToday: 'off',
      procurationExpiring: 'email',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.preferences).toMatchObject({
      hearingToday: 'off',
      procurationExpiring: 'email',
    });

    expect(
      await notify(t.app, t.app.db, [{ employeeId: otherId, ...hearing(10), kind: 'hearingToday' }]),
    ).toBe(0);
    expect(
      await notify(t.app, t.app.db, [
        {
          employeeId: otherId,
          kind: 'procurationExpiring',
          params: { number: '77', year: 2026, expiresOn: '2026-12-01', days: 8 },
          link: '/admin/customers/procurations/3',
        },
      ]),
    ).toBe(1);
    const mail = await smtp.next();
    const text = mailText(mail.raw);
    // The employee used the app in English (PUT above): the mail is in English.
    // Its date as the app writes it (the office's calendars), never the stored ISO day.
    const style = { lng: 'en', calendar: 'hijri', country: 'EG', timeZone: 'Africa/Cairo' } as const;
    const expires = dateTexts('2026-12-01', 'date', style).both;
    expect(expires).toMatch(/ \(12\/1\/2026\)$/);
    expect(text).toContain(`Power of attorney 77 of 2026 expires on ${expires}. Days left: 8.`);
    expect(text).not.toContain('2026-12-01');
    expect(text).toContain('/admin/customers/procurations/3');
  });

  it('refuses preferences with an unknown kind or channel (422 naming the kind)', async () => {
    const unknownKind = await send(other, 'PUT', '/api/notifications/preferences', { birthday: 'app' });
    expect(unknownKind.statusCode).toBe(422);
    expect(Object.keys(unknownKind.json().errors)).toEqual(['birthday']);
    const badChannel = await send(other, 'PUT', '/api/notifications/preferences', { hearingToday: 'sms' });
    expect(badChannel.statusCode).toBe(422);
    expect(badChannel.json().errors.hearingToday[0]).toContain('Hearing today');
    expect((await get(other, '/api/notifications?pageSize=500')).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
  });
});
