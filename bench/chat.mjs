// Chat fan-out: one message to a group whose room 1,000 sockets have joined, timed from the send
// (before the POST) to its arrival on each socket; on one instance, then with the sockets on a
// second instance behind one Redis (a private redis-server). Called from run.mjs; on its own:
// `node bench/chat.mjs` (built server in server/dist, or BENCH_SERVER_DIST).
//
// The sockets live in a receiver process of their own (BENCH_CHAT_RECEIVERS processes, default 1:
// on two cores, more receivers compete with the server for the CPU and every figure rises), which
// notes each frame's arrival without parsing it, so that the figure is the server's fan-out and
// not the sender's event loop parsing a thousand frames in turn. Times are the system's monotonic clock (process.hrtime), the same in
// every process. The first BENCH_CHAT_WARMUP messages (default 10) are sent and not counted: the
// first frames through fresh sockets run cold on both sides.
import { freePort, spawnServer } from './net.mjs';
import { fork, spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverRequire = createRequire(path.join(root, 'server', 'package.json'));
const WebSocket = serverRequire('ws');

const SOCKETS = Number(process.env.BENCH_CHAT_SOCKETS ?? 1000);
const MESSAGES = Number(process.env.BENCH_CHAT_MESSAGES ?? 100);
const WARMUP = Number(process.env.BENCH_CHAT_WARMUP ?? 10);
const RECEIVERS = Number(process.env.BENCH_CHAT_RECEIVERS ?? 1);

/** Milliseconds on the system's monotonic clock, comparable between processes of this machine. */
const now = () => Number(process.hrtime.bigint()) / 1e6;
const ADMIN = { email: 'chat-bench@mizan.local', password: 'Bench-Passw0rd!' };

async function waitFor(check, what, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not answer in ${timeoutMs} ms`);
}

async function startServer(serverDist, dataDir, env) {
  const port = await freePort();
  const child = spawnServer(serverDist, {
    port,
    dataDir,
    databaseUrl: `sqlite:${path.join(dataDir, 'chat.db')}`,
    admin: ADMIN,
    env: { MIZAN_LOGIN_LIMIT_PER_IP: String(SOCKETS * 4), ...env },
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${origin}/api/health`)).ok, origin);
  return {
    api: `${origin}/api`,
    ws: `ws://127.0.0.1:${port}/api/ws`,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

async function startRedis() {
  if (spawnSync('redis-server', ['--version']).status !== 0) return null;
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  await waitFor(
    () =>
      new Promise((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.end(() => resolve(true)));
        socket.on('error', () => resolve(false));
      }),
    'redis-server',
  );
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill() };
}

async function call(api, session, method, url, body) {
  const res = await fetch(`${api}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...session.headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function signIn(api, credentials, n) {
  const fingerprint = `chat-bench-${n}`;
  const res = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-fingerprint-session': fingerprint },
    body: JSON.stringify(credentials),
  });
  if (!res.ok) throw new Error(`sign-in ${res.status}: ${await res.text()}`);
  const { data } = await res.json();
  return {
    token: data.token,
    headers: { authorization: `Bearer ${data.token}`, 'x-fingerprint-session': fingerprint },
  };
}

/**
 * An open socket joined to `channel`; `onArrival(clientId, at)` for each frame carrying a
 * `clientId` afterwards, found without parsing the frame (the receiver's own work stays small).
 */
async function joinedSocket(wsUrl, session, channel, onArrival) {
  const query = new URLSearchParams({
    Authorization: session.token,
    'x-fingerprint-session': session.headers['x-fingerprint-session'],
  });
  const socket = new WebSocket(`${wsUrl}?${query}`);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  await new Promise((resolve, reject) => {
    const onJoin = (raw) => {
      const frame = JSON.parse(String(raw));
      if (frame.type === 'error') reject(new Error(frame.message));
      if (frame.type !== 'subscribed') return;
      socket.off('message', onJoin);
      socket.on('message', (data) => {
        const at = now();
        const key = data.indexOf(CLIENT_ID_KEY);
        if (key < 0 || data.indexOf(CREATE) < 0) return;
        const from = key + CLIENT_ID_KEY.length;
        onArrival(data.toString('latin1', from, data.indexOf(34, from)), at);
      });
      resolve();
    };
    socket.on('message', onJoin);
    socket.send(JSON.stringify({ type: 'subscribe', channel }));
  });
  return socket;
}

const CLIENT_ID_KEY = Buffer.from('"clientId":"');
const CREATE = Buffer.from('"action":"create"');

/**
 * A receiver process (`node bench/chat.mjs --receiver`): joins its share of the sockets when told
 * (`join`), then answers each bench message's arrival times once all of its sockets have it.
 */
function receiver() {
  const sockets = [];
  const arrivals = new Map();
  process.on('message', async (command) => {
    if (command.type === 'join') {
      const report = (clientId, at) => {
        let times = arrivals.get(clientId);
        if (!times) arrivals.set(clientId, (times = []));
        times.push(at);
        if (times.length !== sockets.length) return;
        arrivals.delete(clientId);
        process.send({ type: 'arrived', clientId, times });
      };
      try {
        for (const session of command.sessions)
          sockets.push(await joinedSocket(command.wsUrl, session, command.channel, report));
        process.send({ type: 'joined' });
      } catch (error) {
        process.send({ type: 'failed', message: String(error) });
      }
    } else if (command.type === 'leave') {
      for (const socket of sockets.splice(0)) socket.terminate();
      process.send({ type: 'left' });
    }
  });
}

/** Receiver processes holding `sessions`' sockets, joined to `channel` at `wsUrl`. */
async function startReceivers(wsUrl, sessions, channel) {
  const count = Math.max(1, Math.min(RECEIVERS, sessions.length));
  const children = Array.from({ length: count }, () =>
    fork(fileURLToPath(import.meta.url), ['--receiver'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  const waiting = new Map();
  for (const child of children)
    child.on('message', (message) => {
      if (message.type === 'arrived') waiting.get(message.clientId)?.(message.times);
    });
  const answer = (child, type) =>
    new Promise((resolve, reject) => {
      const onMessage = (message) => {
        if (message.type === 'failed') reject(new Error(message.message));
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve();
      };
      child.on('message', onMessage);
    });
  await Promise.all(
    children.map((child, i) => {
      const share = sessions.filter((_, n) => n % count === i);
      const joined = answer(child, 'joined');
      child.send({ type: 'join', wsUrl, sessions: share, channel });
      return joined;
    }),
  );
  return {
    /** Resolves to every socket's arrival time of `clientId` (rejects after 10 s). */
    arrivals(clientId) {
      const times = [];
      let left = children.length;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(clientId);
          reject(new Error(`${times.length} of ${sessions.length} sockets got ${clientId}`));
        }, 10_000);
        waiting.set(clientId, (part) => {
          times.push(...part);
          if (--left > 0) return;
          clearTimeout(timer);
          waiting.delete(clientId);
          resolve(times);
        });
      });
    },
    async stop() {
      await Promise.all(
        children.map((child) => {
          const left = answer(child, 'left');
          child.send({ type: 'leave' });
          return left;
        }),
      );
      for (const child of children) child.kill();
    },
  };
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * Sends `WARMUP` + `MESSAGES` messages one after another; per counted message, the time from the
 * send until every socket had it.
 */
async function fanOut(sendApi, sender, chatId, receivers, label, sendPath = '/admin/chats/messages') {
  const all = [];
  const lastArrival = [];
  const firstArrival = [];
  const answered = [];
  let sockets = 0;
  for (let i = -WARMUP; i < MESSAGES; i++) {
    const clientId = `${label}-${i}-${Date.now()}`;
    const arrived = receivers.arrivals(clientId);
    const t0 = now();
    await call(sendApi, sender, 'POST', sendPath, { chatId, clientId, text: `رسالة ${i}` });
    const answeredAt = now();
    const times = await arrived;
    if (i < 0) continue;
    sockets = times.length;
    answered.push(answeredAt - t0);
    const latencies = times.map((at) => at - t0);
    all.push(...latencies);
    lastArrival.push(Math.max(...latencies));
    firstArrival.push(Math.min(...latencies));
  }
  all.sort((a, b) => a - b);
  for (const list of [lastArrival, firstArrival, answered]) list.sort((a, b) => a - b);
  const round = (v) => +v.toFixed(1);
  return {
    sockets,
    messages: MESSAGES,
    warmup: WARMUP,
    receivers: RECEIVERS,
    p50: round(percentile(all, 50)),
    p99: round(percentile(all, 99)),
    max: round(all.at(-1)),
    /** The slowest socket per message, as a median over the messages. */
    lastSocketMedian: round(percentile(lastArrival, 50)),
    /** The first socket per message (the send's own work), and the POST's answer, as medians. */
    firstSocketMedian: round(percentile(firstArrival, 50)),
    sendAnsweredMedian: round(percentile(answered, 50)),
  };
}

/**
 * The reference on this machine at this moment: a bare `ws` server in its own process that
 * broadcasts what is POSTed to `/send` to every socket, measured exactly like the chat (no
 * database, no auth, no channels). Run as `node bench/chat.mjs --bare-ws`; prints its port.
 */
function bareWsServer() {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const data = JSON.parse(Buffer.concat(chunks).toString());
      const frame = JSON.stringify({ type: 'event', channel: 'bare', action: 'create', data });
      for (const client of wss.clients) client.send(frame);
      res.setHeader('content-type', 'application/json');
      res.end('{"data":{}}');
    });
  });
  const wss = new (serverRequire('ws').WebSocketServer)({ server });
  wss.on('connection', (socket) =>
    socket.on('message', (raw) => {
      const { channel } = JSON.parse(String(raw));
      socket.send(JSON.stringify({ type: 'subscribed', channel }));
    }),
  );
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
}

async function measureBareWs() {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--bare-ws'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d)))));
    const session = { token: 'none', headers: { 'x-fingerprint-session': 'none' } };
    const receivers = await startReceivers(`ws://127.0.0.1:${port}`, Array(SOCKETS).fill(session), 'bare');
    try {
      return await fanOut(`http://127.0.0.1:${port}`, session, 0, receivers, 'bare', '/send');
    } finally {
      await receivers.stop();
    }
  } finally {
    child.kill();
  }
}

/**
 * The chat fan-out figures: `oneInstance` (sockets and sender on one server) and, when a
 * `redis-server` binary exists, `acrossRedis` (sockets on a second instance, the send on the
 * first, one SQLite file and one Redis between them) and `redisExtraP99Ms`; `bareWs` is the
 * same measure on a bare `ws` broadcast, so a loaded machine shows as such.
 */
export async function measureChatFanOut({ serverDist = path.join(root, 'server', 'dist') } = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mizan-chat-bench-'));
  const redis = await startRedis();
  const servers = [];
  let receivers;
  try {
    const env = redis ? { REDIS_URL: redis.url } : {};
    const first = await startServer(serverDist, dataDir, env);
    servers.push(first);
    const sender = await signIn(first.api, ADMIN, 'sender');
    const other = await call(first.api, sender, 'GET', '/admin/chats/employees?limit=1');
    // The sockets are the administrator's sessions (one sign-in each); a group needs another member.
    const memberId =
      other.items[0]?.id ??
      (
        await call(first.api, sender, 'POST', '/employees/employees', {
          name: 'عضو المقياس',
          email: 'chat-member@mizan.local',
          username: 'chatmember',
          password: ADMIN.password,
        })
      ).id;
    const { chat } = await call(first.api, sender, 'POST', '/admin/chats', {
      kind: 'group',
      name: 'مقياس الرسائل',
      memberIds: [memberId],
    });
    const channel = `chats:room:${chat.id}`;
    const sessions = [];
    for (let i = 0; i < SOCKETS; i++) sessions.push(await signIn(first.api, ADMIN, i));

    const results = { loadAverage: os.loadavg().map((l) => +l.toFixed(2)), bareWs: await measureBareWs() };
    receivers = await startReceivers(first.ws, sessions, channel);
    results.oneInstance = await fanOut(first.api, sender, chat.id, receivers, 'one');
    await receivers.stop();
    receivers = undefined;

    if (redis) {
      const second = await startServer(serverDist, dataDir, env);
      servers.push(second);
      receivers = await startReceivers(second.ws, sessions, channel);
      results.acrossRedis = await fanOut(first.api, sender, chat.id, receivers, 'across');
      results.redisExtraP99Ms = +(results.acrossRedis.p99 - results.oneInstance.p99).toFixed(1);
    }
    return results;
  } finally {
    await receivers?.stop();
    for (const server of servers) await server.stop();
    redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--bare-ws') bareWsServer();
else if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--receiver') receiver();
else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const serverDist = path.resolve(root, process.env.BENCH_SERVER_DIST ?? 'server/dist');
  measureChatFanOut({ serverDist }).then(
    (results) => console.log(JSON.stringify(results, null, 2)),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
