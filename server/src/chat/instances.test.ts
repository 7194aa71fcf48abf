import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { CHAT_ROUTES, CHAT_PRESENCE_CHANNEL, chatRoomChannel, type ChatMessage } from '@mizan/contracts';
import { createUserWith } from '../test/fixtures';
import { createTestApp, dialects, type TestApp } from '../test/harness';
import { openSocket } from './testing';

/** Runs when a `redis-server` binary is installed: a private one per run, so no other test hears it. */
const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function startRedis(): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 50; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return { url: `redis://127.0.0.1:${port}`, process: child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('redis-server did not start');
}

(hasRedis ? describe : describe.skip)('chat across two instances behind one Redis', () => {
  let redis: { url: string; process: ChildProcess };
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.process.kill());

  it.each(dialects())(
    'delivers messages, reads, typing and presence from one instance to the other (%s)',
    async (dialect) => {
      const first: TestApp = await createTestApp({ dialect, env: { REDIS_URL: redis.url } });
      const second: TestApp = await createTestApp({
        env: { REDIS_URL: redis.url, DATABASE_URL: first.config.databaseUrl },
      });
      try {
        const admin = await first.login();
        const [a, b] = [
          await createUserWith(first.app, admin.headers, ['chat.use']),
          await createUserWith(first.app, admin.headers, ['chat.use']),
        ];
        const sender = await first.login(a.email, a.password);
        const reader = await second.login(b.email, b.password);
        const onFirst = await openSocket(
          (await first.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws'),
          sender,
        );
        const secondBase = (await second.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
        await onFirst.subscribe(CHAT_PRESENCE_CHANNEL);
        const onSecond = await openSocket(secondBase, reader);
        // The reader's socket is on the other instance: the sender's instance learns it is online.
        await onFirst.wait(
          (f) =>
            f.channel === CHAT_PRESENCE_CHANNEL &&
            (f.data as { employeeId?: number } | undefined)?.employeeId === b.employeeId,
        );

        const chat = await first.app.inject({
          method: 'POST',
          url: `/api${CHAT_ROUTES.list.path}`,
          headers: sender.headers,
          payload: { kind: 'direct', memberId: b.employeeId },
        });
        const chatId = chat.json().data.chat.id as number;
        const room = chatRoomChannel(chatId);
        expect(await onSecond.subscribe(room)).toMatchObject({ type: 'subscribed' });
        expect(await onFirst.subscribe(room)).toMatchObject({ type: 'subscribed' });

        const sent = await first.app.inject({
          method: 'POST',
          url: `/api${CHAT_ROUTES.send.path}`,
          headers: sender.headers,
          payload: { chatId, clientId: `across-${dialect}`, text: 'من الخادم الأول' },
        });
        const message = sent.json().data.message as ChatMessage;
        expect(await onSecond.wait((f) => f.action === 'create')).toMatchObject({ data: { id: message.id } });

        const read = await second.app.inject({
          method: 'PUT',
          url: `/api${CHAT_ROUTES.read.path}`,
          headers: reader.headers,
          payload: { chatId },
        });
        expect(read.statusCode).toBe(200);
        expect(
          await onFirst.wait(
            (f) => f.action === 'status' && (f.data as { lastReadId: number }).lastReadId === message.id,
          ),
        ).toMatchObject({ data: { employeeId: b.employeeId } });

        onSecond.send({ type: 'message', channel: room, data: { typing: true } });
        expect(await onFirst.wait((f) => f.type === 'message' && f.channel === room)).toMatchObject({
          data: { kind: 'typing', employeeId: b.employeeId, typing: true },
        });
        onFirst.socket.terminate();
        onSecond.socket.terminate();
      } finally {
        await second.close();
        await first.close();
      }
    },
  );
});
