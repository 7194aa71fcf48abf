import WebSocket from 'ws';
import { createRow, createUserWith, entityUrl } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { hashToken } from '../auth/tokens';
import { revocation } from '../bus';

type Frame = Record<string, unknown>;

/** A client that queues every frame, so a test can await the next one. */
class Client {
  readonly frames: Frame[] = [];
  private waiters: ((frame: Frame) => void)[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      const frame = JSON.parse(String(raw)) as Frame;
      const waiter = this.waiters.shift();
      if (waiter) waiter(frame);
      else this.frames.push(frame);
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
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

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  async request(frame: unknown): Promise<Frame> {
    this.send(frame);
    return this.next();
  }
}

describe.each(dialects())('WebSocket hub on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let base: string;
  const open: WebSocket[] = [];

  async function connect(session: Session | null, fingerprint?: string): Promise<Client> {
    const query = new URLSearchParams();
    if (session) query.set('Authorization', session.token);
    query.set('x-fingerprint-session', fingerprint ?? session?.headers['x-fingerprint-session'] ?? '');
    query.set('x-fingerprint', 'test-device');
    const socket = new WebSocket(`${base}/api/ws?${query}`);
    open.push(socket);
    const client = new Client(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { wsRecheckMs: 100 } });
    admin = await t.login();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = address.replace('http', 'ws');
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.terminate();
  });
  afterAll(() => t.close());

  it('closes with 4401 without a valid token or with another fingerprint', async () => {
    const anonymous = await connect(null);
    expect(await anonymous.closed).toEqual({ code: 4401, reason: expect.any(String) });
    const forged = await connect({ ...admin, token: 'not-a-token' });
    expect((await forged.closed).code).toBe(4401);
    const stolen = await connect(admin, 'another-device-session');
    expect((await stolen.closed).code).toBe(4401);
  });

  it('answers ping with pong, even when sent before authentication finished', async () => {
    const client = await connect(admin);
    expect(await client.request({ type: 'ping' })).toEqual({ type: 'pong' });
  });

  it('delivers entity events to subscribers only, until they unsubscribe', async () => {
    const client = await connect(admin);
    const other = await connect(admin);
    expect(await client.request({ type: 'subscribe', channel: 'courts' })).toEqual({
      type: 'subscribed',
      channel: 'courts',
    });
    expect(await client.request({ type: 'subscribe', channel: 'courts' })).toEqual({
      type: 'resubscribed',
      channel: 'courts',
    });
    const court = await createRow(t.app, admin.headers, 'courts');
    expect(await client.next()).toEqual({ type: 'event', channel: 'courts', action: 'create', data: court });
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${entityUrl('courts')}/status/${court.id}`,
      headers: admin.headers,
    });
    expect(await client.next()).toEqual({
      type: 'event',
      channel: 'courts',
      action: 'status',
      data: res.json().data,
    });
    expect(await client.request({ type: 'unsubscribe', channel: 'courts' })).toEqual({
      type: 'unsubscribed',
      channel: 'courts',
    });
    await createRow(t.app, admin.headers, 'courts');
    expect(await client.request({ type: 'ping' })).toEqual({ type: 'pong' });
    expect(other.frames).toEqual([]);
  });

  it('answers error frames to unknown types, malformed frames and refused channels', async () => {
    const client = await connect(admin);
    expect(await client.request({ type: 'shout' })).toEqual({ type: 'error', message: expect.any(String) });
    expect(await client.request('not json')).toEqual({ type: 'error', message: expect.any(String) });
    expect(await client.request({ type: 'subscribe' })).toEqual({
      type: 'error',
      message: expect.any(String),
    });
    expect(await client.request({ type: 'subscribe', channel: 'secrets' })).toMatchObject({
      type: 'error',
      channel: 'secrets',
    });
    expect(await client.request({ type: 'message', channel: 'courts', data: 1 })).toMatchObject({
      type: 'error',
      channel: 'courts',
    });
  });

  it('joins the rooms a module guard grants, and hands their messages to the registered handler', async () => {
    const received: unknown[] = [];
    const removeHandler = t.app.hub.handle('chats:room:', (user, channel, data) => {
      received.push({ user: user.id, channel, data });
      t.app.bus.publish(channel, { type: 'message', channel, data, from: user.id });
    });
    const removeGuard = t.app.hub.guard((_user, channel) =>
      channel === 'chats:room:7' ? true : channel === 'chats:room:99' ? false : undefined,
    );
    try {
      const client = await connect(admin);
      expect(await client.request({ type: 'subscribe', channel: 'chats:room:7' })).toEqual({
        type: 'subscribed',
        channel: 'chats:room:7',
      });
      expect(await client.request({ type: 'subscribe', channel: 'chats:room:99' })).toMatchObject({
        type: 'error',
      });
      expect(
        await client.request({ type: 'message', channel: 'chats:room:7', data: { text: 'مرحبا' } }),
      ).toEqual({
        type: 'message',
        channel: 'chats:room:7',
        data: { text: 'مرحبا' },
        from: admin.user.id,
      });
      expect(received).toEqual([{ user: admin.user.id, channel: 'chats:room:7', data: { text: 'مرحبا' } }]);
    } finally {
      removeHandler();
      removeGuard();
    }
  });

  it('refuses an entity channel without its view permission', async () => {
    const creds = await createUserWith(t.app, admin.headers, ['judges.view']);
    const user = await t.login(creds.email, creds.password);
    const client = await connect(user);
    expect(await client.request({ type: 'subscribe', channel: 'judges' })).toEqual({
      type: 'subscribed',
      channel: 'judges',
    });
    expect(await client.request({ type: 'subscribe', channel: 'courts' })).toMatchObject({
      type: 'error',
      channel: 'courts',
    });
  });

  it('closes a socket whose session was signed out, and leaves channels whose permission was withdrawn', async () => {
    const session = await t.login();
    const client = await connect(session);
    expect(await client.request({ type: 'subscribe', channel: 'courts' })).toEqual({
      type: 'subscribed',
      channel: 'courts',
    });
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: session.headers });
    expect(out.statusCode).toBe(200);
    expect((await client.closed).code).toBe(4403);

    const creds = await createUserWith(t.app, admin.headers, ['judges.view', 'courts.view']);
    const user = await t.login(creds.email, creds.password);
    const limited = await connect(user);
    expect(await limited.request({ type: 'subscribe', channel: 'judges' })).toEqual({
      type: 'subscribed',
      channel: 'judges',
    });
    const roleId = (user.user.Roles as { id: number }[])[0]!.id;
    const role = (
      await t.app.inject({ method: 'GET', url: `${entityUrl('roles')}/${roleId}`, headers: admin.headers })
    ).json().data;
    const courtsView = role.permissions.find((p: { name: string }) => p.name === 'courts.view').id;
    const changed = await t.app.inject({
      method: 'PUT',
      url: entityUrl('roles'),
      headers: admin.headers,
      payload: { id: roleId, name: role.name, permissionIds: [courtsView] },
    });
    expect(changed.statusCode).toBe(200);
    expect(await limited.next()).toEqual({ type: 'unsubscribed', channel: 'judges' });
  });

  it('closes the sockets a revocation on the bus names with 4403 and its reason, and no others', async () => {
    const client = await connect(admin);
    const session = await t.login();
    const other = await connect(session);
    expect(await client.request({ type: 'ping' })).toEqual({ type: 'pong' });
    expect(await other.request({ type: 'ping' })).toEqual({ type: 'pong' });
    const row = await t.app.db
      .selectFrom('sessions')
      .select('id')
      .where('token_hash', '=', hashToken(session.token))
      .executeTakeFirstOrThrow();
    const bySession = revocation({ sessionIds: [Number(row.id)] });
    t.app.bus.publish(bySession.channel, bySession.message);
    expect((await other.closed).code).toBe(4403);
    expect(await client.request({ type: 'ping' })).toEqual({ type: 'pong' });
    const byEmployee = revocation({ employeeIds: [admin.user.id], reason: 'employeeBanned' });
    t.app.bus.publish(byEmployee.channel, byEmployee.message);
    expect(await client.closed).toEqual({ code: 4403, reason: 'employeeBanned' });
  });

  it('closes a socket whose session is revoked while the socket is still being authenticated', async () => {
    const session = await t.login();
    const row = await t.app.db
      .selectFrom('sessions')
      .select('id')
      .where('token_hash', '=', hashToken(session.token))
      .executeTakeFirstOrThrow();
    const ended = revocation({ sessionIds: [Number(row.id)], reason: 'loggedOut' });
    const authenticate = t.app.hub.authenticate.bind(t.app.hub);
    // The sign-out lands after the socket's session was read as open, before the socket is admitted.
    const spy = jest.spyOn(t.app.hub, 'authenticate').mockImplementationOnce(async (...args) => {
      const user = await authenticate(...args);
      t.app.bus.publish(ended.channel, ended.message);
      return user;
    });
    try {
      const client = await connect(session);
      const stillOpen = new Promise((resolve) => setTimeout(() => resolve('still open'), 3000));
      expect(await Promise.race([client.closed, stillOpen])).toEqual({ code: 4403, reason: 'loggedOut' });
    } finally {
      spy.mockRestore();
    }
  });

  it('never lets a client join the revocation channel', async () => {
    const client = await connect(admin);
    expect(await client.request({ type: 'subscribe', channel: revocation({}).channel })).toMatchObject({
      type: 'error',
    });
  });
});
