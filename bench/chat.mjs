// Chat fan-out: one message to a group whose room 1,000 sockets have joined, timed from the send
// (before the POST) to its arrival on each socket; on one instance, then with the sockets on a
// second instance behind one Redis (a private redis-server). Called from run.mjs; on its own:
// `node bench/chat.mjs` (built server in server/dist, or BENCH_SERVER_DIST).
import { spawn, spawnSync } from 'node:child_process';
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
const MESSAGES = Number(process.env.BENCH_CHAT_MESSAGES ?? 20);
const ADMIN = { email: 'chat-bench@mizan.local', password: 'Bench-Passw0rd!' };

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function waitFor(check, what, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not answer in ${timeoutMs} ms`);
}

function spawnServer(serverDist, dataDir, env) {
  return spawn(process.execPath, [path.join(serverDist, 'main.js')], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${path.join(dataDir, 'chat.db')}`,
      MIZAN_STATIC_DIR: root,
      MIZAN_LOGIN_LIMIT_PER_IP: String(SOCKETS * 4),
      MIZAN_ADMIN_EMAIL: ADMIN.email,
      MIZAN_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function startServer(serverDist, dataDir, env) {
  const port = await freePort();
  const child = spawnServer(serverDist, dataDir, { PORT: String(port), ...env });
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

/** An open socket joined to `channel`; `arrivals` gets the arrival time of each new message by id. */
async function joinedSocket(wsUrl, session, channel, arrivals) {
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
    socket.on('message', (raw) => {
      const at = performance.now();
      const frame = JSON.parse(String(raw));
      if (frame.type === 'subscribed') resolve();
      else if (frame.type === 'error') reject(new Error(frame.message));
      else if (frame.action === 'create') arrivals.get(frame.data.clientId)?.push(at);
    });
    socket.send(JSON.stringify({ type: 'subscribe', channel }));
  });
  return socket;
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Sends `MESSAGES` messages one after another; per message, the time until every socket had it. */
async function fanOut(sendApi, sender, chatId, sockets, arrivals, label, sendPath = '/admin/chats/messages') {
  const all = [];
  const lastArrival = [];
  const firstArrival = [];
  const answered = [];
  for (let i = 0; i < MESSAGES; i++) {
    const clientId = `${label}-${i}-${Date.now()}`;
    const got = [];
    arrivals.set(clientId, got);
    const t0 = performance.now();
    await call(sendApi, sender, 'POST', sendPath, { chatId, clientId, text: `رسالة ${i}` });
    answered.push(performance.now() - t0);
    const until = Date.now() + 10_000;
    while (got.length < sockets && Date.now() < until) await new Promise((r) => setTimeout(r, 2));
    if (got.length < sockets)
      throw new Error(`${label}: ${got.length} of ${sockets} sockets got message ${i}`);
    const latencies = got.map((at) => at - t0);
    all.push(...latencies);
    lastArrival.push(Math.max(...latencies));
    firstArrival.push(Math.min(...latencies));
    arrivals.delete(clientId);
  }
  all.sort((a, b) => a - b);
  for (const list of [lastArrival, firstArrival, answered]) list.sort((a, b) => a - b);
  const round = (v) => +v.toFixed(1);
  return {
    sockets,
    messages: MESSAGES,
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
    const arrivals = new Map();
    const sockets = [];
    for (let i = 0; i < SOCKETS; i++)
      sockets.push(await joinedSocket(`ws://127.0.0.1:${port}`, session, 'bare', arrivals));
    const out = await fanOut(`http://127.0.0.1:${port}`, session, 0, SOCKETS, arrivals, 'bare', '/send');
    for (const s of sockets) s.terminate();
    return out;
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
  const sockets = [];
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

    const arrivals = new Map();
    for (const s of sessions) sockets.push(await joinedSocket(first.ws, s, channel, arrivals));
    const results = {
      loadAverage: os.loadavg().map((l) => +l.toFixed(2)),
      bareWs: await measureBareWs(),
      oneInstance: await fanOut(first.api, sender, chat.id, SOCKETS, arrivals, 'one'),
    };
    for (const s of sockets.splice(0)) s.terminate();

    if (redis) {
      const second = await startServer(serverDist, dataDir, env);
      servers.push(second);
      for (const s of sessions) sockets.push(await joinedSocket(second.ws, s, channel, arrivals));
      results.acrossRedis = await fanOut(first.api, sender, chat.id, SOCKETS, arrivals, 'across');
      results.redisExtraP99Ms = +(results.acrossRedis.p99 - results.oneInstance.p99).toFixed(1);
    }
    return results;
  } finally {
    for (const s of sockets) s.terminate();
    for (const server of servers) await server.stop();
    redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--bare-ws') bareWsServer();
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
