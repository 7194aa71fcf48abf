// Writes under load: 50 connections creating lawsuits through the API (`POST /admin/lawsuits`, file
// number generated, a client, court, branch, lawyer, agreed fee and filing date each), on a new
// database of its own per run: SQLite, and PostgreSQL with MIZAN_BENCH_PG_URL. Every create runs
// the whole write: the file number's turn, the row and its links, the audit entry, the kept totals
// (row count, court × state, the dashboard's aggregates), the write version; its event after commit.
// After the load, the kept totals are checked against the table. Called from run.mjs; on its own:
// `node bench/creates.mjs` (built server in server/dist, or BENCH_SERVER_DIST).
//
// Figures: creates per second, p50/p95/p99/max ms, requests over 1 s, non-201 answers, the server's
// CPU time per create and the whole machine's (PostgreSQL's backends and the load generator
// included: they share the cores), and the ratio to a bare Fastify POST route measured the same
// way. BENCH_CREATE_CONNECTIONS (50), BENCH_CREATE_SECONDS (10), BENCH_CREATE_DATABASES (`sqlite,postgres`:
// one of them alone for comparing two builds side by side). On its own it writes
// bench/results/<date>-creates.json.
import { createPgDatabase, freePort, serverRequire, signIn, startServer, stop, waitForOk } from './net.mjs';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const CONNECTIONS = Number(process.env.BENCH_CREATE_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_CREATE_SECONDS ?? 10);
/** Creates before the measured part (not counted): V8 compiles the path, pools fill. */
const WARMUP_SECONDS = 2;
const DATABASES = (process.env.BENCH_CREATE_DATABASES ?? 'sqlite,postgres').split(',');
const ADMIN = { email: 'create-bench@mizan.local', password: 'Bench-Passw0rd!' };

/** CPU time (ms, user and system) of process `pid`, from /proc (100 clock ticks a second). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** The whole machine's busy CPU time (ms, every core), from /proc/stat. */
function machineBusyMs() {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number);
  return ((user + nice + system + irq + softirq + steal) * 1000) / 100;
}

/** CPU time (ms) of every PostgreSQL process on this machine (its backends, writer, WAL writer...). */
function postgresCpuMs() {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuMs(pid);
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/** One request on `agent`; its status and parsed body. Never throws. */
function request(agent, url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: payload
          ? { ...headers, 'content-type': 'application/json', 'content-length': payload.length }
          : headers,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          let json = null;
          try {
            json = JSON.parse(Buffer.concat(chunks).toString());
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode, body: json });
        });
      },
    );
    req.on('error', () => resolve({ status: 0, body: null }));
    req.end(payload);
  });
}

async function call(api, headers, method, url, body) {
  const agent = new http.Agent();
  const res = await request(agent, `${api}${url}`, { method, headers, body });
  agent.destroy();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/**
 * `connections` keep-alive connections posting `body()` to `url` for `seconds`: creates per
 * second, latency percentiles and maximum (ms), answers over 1 s, answers other than `expect`, and
 * the CPU time per request of `pid` and of the whole machine.
 */
async function postLoad(url, headers, body, { connections, seconds, pid, expect, agent: given }) {
  const agent = given ?? new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  const statuses = {};
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const machineBefore = machineBusyMs();
  const postgresBefore = postgresCpuMs();
  const selfBefore = process.cpuUsage();
  const until = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      const started = process.hrtime.bigint();
      const { status } = await request(agent, url, { method: 'POST', headers, body: body() });
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const requests = latencies.length;
  const serverCpu = pid ? cpuMs(pid) - cpuBefore : null;
  const machineCpu = machineBusyMs() - machineBefore;
  const postgresCpu = postgresCpuMs() - postgresBefore;
  const self = process.cpuUsage(selfBefore);
  if (!given) agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(requests - 1, Math.floor((p / 100) * requests))] ?? 0;
  return {
    requests,
    perSecond: Math.round(requests / seconds),
    p50: +pct(50).toFixed(1),
    p95: +pct(95).toFixed(1),
    p99: +pct(99).toFixed(1),
    max: +(latencies.at(-1) ?? 0).toFixed(1),
    over1s: latencies.filter((ms) => ms > 1000).length,
    failed: requests - (statuses[expect] ?? 0),
    statuses,
    ...(pid ? { serverCpuMsPerRequest: +(serverCpu / Math.max(1, requests)).toFixed(2) } : {}),
    machineCpuMsPerRequest: +(machineCpu / Math.max(1, requests)).toFixed(2),
    postgresCpuMsPerRequest: +(postgresCpu / Math.max(1, requests)).toFixed(2),
    loadCpuMsPerRequest: +((self.user + self.system) / 1000 / Math.max(1, requests)).toFixed(2),
  };
}

/** A bare Fastify JSON POST route (201 with the body back) in a process of its own, loaded the same way. */
async function bareFastifyPost() {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const app = require(process.env.FASTIFY)({ logger: false });
       app.get('/', async () => ({ ok: true }));
       app.post('/', async (req, reply) => reply.code(201).send({ data: req.body }));
       app.listen({ port: ${port}, host: '127.0.0.1' });`,
    ],
    { env: { ...process.env, FASTIFY: serverRequire.resolve('fastify') }, stdio: 'inherit' },
  );
  try {
    await waitForOk(`http://127.0.0.1:${port}/`);
    return await postLoad(`http://127.0.0.1:${port}/`, {}, () => ({ subject: 'مطالبة', amount: 1 }), {
      connections: CONNECTIONS,
      seconds: SECONDS,
      pid: child.pid,
      expect: 201,
    });
  } finally {
    await stop(child);
  }
}

/** The tables read directly after the load: `get(sql)` answers the first row. */
async function openTables(databaseUrl) {
  if (databaseUrl.startsWith('sqlite:')) {
    const Database = serverRequire('better-sqlite3');
    const db = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true });
    return { get: async (text) => db.prepare(text).get(), close: async () => db.close() };
  }
  const { Client } = serverRequire('pg');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  return { get: async (text) => (await client.query(text)).rows[0], close: () => client.end() };
}

/** One database's case: settings rows made through the API, the load, then the totals checked. */
async function createCase(serverDist, databaseUrl, dataDir, bare) {
  const server = await startServer(serverDist, { dataDir, databaseUrl, admin: ADMIN });
  try {
    const { headers, userId } = await signIn(server.api, ADMIN, 'create-bench');
    const branch = await call(server.api, headers, 'POST', '/admin/settings/offices/branches', {
      name: 'فرع المقياس',
    });
    const court = await call(server.api, headers, 'POST', '/admin/settings/courts/courts', {
      name: 'محكمة المقياس',
    });
    const customers = [];
    for (let i = 0; i < 20; i++)
      customers.push(
        (
          await call(server.api, headers, 'POST', '/admin/customers', {
            name: `موكل المقياس ${i}`,
            nationalId: String(29_001_010_100_000 + i * 7919),
          })
        ).id,
      );
    let n = 0;
    const body = () => {
      n += 1;
      return {
        customerIds: [customers[n % customers.length]],
        courtId: court.id,
        branchId: branch.id,
        lawyerIds: [userId],
        subject: `مطالبة بمبلغ ${n}`,
        agreedFee: 1000 + (n % 50),
        filingDate: `2026-${String(1 + (n % 12)).padStart(2, '0')}-15`,
      };
    };
    const url = `${server.api}/admin/lawsuits`;
    // The same connections through the warm-up and the measure: a connection's first request on a
    // saturated server waits for whole event-loop turns (docs/performance.md), not the writes' work.
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const options = { connections: CONNECTIONS, pid: server.pid, expect: 201, agent };
    await postLoad(url, headers, body, { ...options, seconds: WARMUP_SECONDS });
    const result = await postLoad(url, headers, body, { ...options, seconds: SECONDS });
    agent.destroy();

    // Every kept total is the table's own figure after the load.
    const db = await openTables(databaseUrl);
    try {
      const table = Number((await db.get('select count(*) as n from lawsuits')).n);
      const kept = Number((await db.get("select total from entity_counts where entity = 'lawsuits'")).total);
      const filtered = Number(
        (
          await db.get(
            `select sum(total) as n from entity_filter_counts where entity = 'lawsuits' and values_key like '=${court.id}%'`,
          )
        ).n,
      );
      const fees = await db.get(
        "select n, agreed from dashboard_stats where kind = 'lawsuit' and branch_id = -1 and month = '*' order by k1 limit 1",
      );
      const feeSum = Number((await db.get('select sum(agreed_fee) as n from lawsuits')).n);
      result.check = {
        lawsuits: table,
        keptTotal: kept,
        keptCourtTotal: filtered,
        keptFees: Number(fees?.agreed),
      };
      if (
        kept !== table ||
        filtered !== table ||
        Number(fees?.n) !== table ||
        Number(fees?.agreed) !== feeSum
      )
        throw new Error(
          `kept totals differ from the table: ${JSON.stringify({ ...result.check, fees, feeSum })}`,
        );
    } finally {
      await db.close();
    }
    result.ratioToBare = +(result.perSecond / bare.perSecond).toFixed(3);
    if (bare.serverCpuMsPerRequest)
      result.cpuPerRequestVsBare = +(result.serverCpuMsPerRequest / bare.serverCpuMsPerRequest).toFixed(1);
    return result;
  } finally {
    await server.stop();
  }
}

/** The case on SQLite, and on PostgreSQL when `pgUrl` is given. */
export async function measureCreates({
  serverDist = path.join(root, 'server', 'dist'),
  pgUrl = process.env.MIZAN_BENCH_PG_URL || null,
} = {}) {
  const results = {
    connections: CONNECTIONS,
    seconds: SECONDS,
    cpus: os.cpus().length,
    loadAverage: os.loadavg().map((l) => +l.toFixed(2)),
  };
  results.bareFastifyPost = await bareFastifyPost();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mizan-create-bench-'));
  try {
    if (DATABASES.includes('sqlite'))
      results.sqlite = await createCase(
        serverDist,
        `sqlite:${path.join(dataDir, 'creates.db')}`,
        dataDir,
        results.bareFastifyPost,
      );
    if (pgUrl && DATABASES.includes('postgres')) {
      const database = await createPgDatabase(pgUrl, 'mizan_create_bench');
      try {
        results.postgres = await createCase(serverDist, database.url, dataDir, results.bareFastifyPost);
      } finally {
        await database.drop();
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  results.loadAverageAtEnd = os.loadavg().map((l) => +l.toFixed(2));
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const serverDist = path.resolve(root, process.env.BENCH_SERVER_DIST ?? 'server/dist');
  measureCreates({ serverDist }).then(
    (results) => {
      const text = `${JSON.stringify(results, null, 2)}\n`;
      const out = path.join(
        root,
        'bench/results',
        `${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}-creates.json`,
      );
      mkdirSync(path.dirname(out), { recursive: true });
      writeFileSync(out, text);
      console.log(text);
      console.log(`written ${path.relative(root, out)}`);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
