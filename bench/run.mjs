// `npm run bench`: list-endpoint throughput and latency of the built server on a large SQLite table,
// compared with a bare Fastify route on the same machine (the ratio is the figure to watch).
// Loopback only, bounded in time. Results are printed and written to bench/results/<date>.json.
// The search cases run the Arabic-folded `q` over as many clients with realistic Arabic names
// (hamza written or not, as people type them): a selective full-name variant and a common first name;
// the conflict-of-interest check looks a reordered full name up among the same clients.
// The legal cases run on a law office's data set (legalData.mjs; BENCH_LAWSUITS, BENCH_SESSIONS,
// default 1,000,000 and 3,000,000; BENCH_LAWSUITS=0 leaves them out): the lawsuit list of one
// court in one state with its exact total, the folded `q` over the lawsuits (a case number, a
// subject word), and the calendar's month of one lawyer, every page.
// The dashboard cases run on the same data: GET /api/admin/dashboard cold (the first call
// after a server start, BENCH_COLD_STARTS starts per URL) and warm (steady load on one URL), with
// and without a date range and branch, its figures first checked against the tables; and, when
// the host is built, the dashboard in headless Chromium after the sign-in submit (browser.mjs).
// BENCH_DATA_DIR keeps the generated database there and reuses it on the next run (the set is
// generated once: about ten minutes at 1M lawsuits). MIZAN_BENCH_PG_URL (a PostgreSQL server URL,
// e.g. the tests' MIZAN_TEST_PG_URL) also runs the legal and dashboard cases on PostgreSQL: a
// database created for the run, the same data copied into it (legalData.mjs), dropped at the end;
// with BENCH_DATA_DIR the copy is kept instead (its name in bench-set.json) and reused next time.
// BENCH_ONLY=legal leaves out the police-station and client cases; BENCH_ONLY=lawsuits also the
// calendar, work and dashboard cases (the lawsuit list and its search only, on both databases).
// BENCH_CHAT=0 leaves out the chat fan-out (bench/chat.mjs), BENCH_CREATES=0 the lawsuit creates
// under load (bench/creates.mjs, also run on its own), BENCH_FILETEXT=0 the search inside files'
// text (bench/filetext.mjs, also run on its own). Each database's files are read into
// the page cache before its cases (`warmCache`), as on a server that serves them all day.
// The work cases run on tasks and chat messages written beside the legal set (workData.mjs;
// BENCH_TASKS, BENCH_MESSAGES, default 300,000 and 1,000,000): one employee's open tasks by due
// date with the exact total, the overdue tasks, the administrator's chat list with unread counts,
// and a busy chat's newest page, an older page by cursor and a folded search in it.
import { freePort, spawnServer, waitForOk } from './net.mjs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureChatFanOut } from './chat.mjs';
import { measureCreates } from './creates.mjs';
import { measureFileTextSearch } from './filetext.mjs';
import { CHAT_TABLES, seedWork, workCounts } from './workData.mjs';
import { measureDashboardInBrowser } from './browser.mjs';
import {
  FAMILY_NAMES,
  FIRST_NAMES,
  buildDashboardStats,
  copyToPostgres,
  legalCounts,
  recountFilterTotals,
  seedLegal,
  seeded,
} from './legalData.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverRequire = createRequire(path.join(root, 'server', 'package.json'));
const Database = serverRequire('better-sqlite3');

const ROWS = Number(process.env.BENCH_ROWS ?? 200_000);
/** The built server to measure (default `server/dist`). */
const SERVER_DIST = path.resolve(root, process.env.BENCH_SERVER_DIST ?? 'server/dist');
const LEGAL = process.env.BENCH_LAWSUITS === '0' ? null : legalCounts();
const WORK = LEGAL ? workCounts() : null;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ADMIN = { email: 'bench@mizan.local', password: 'Bench-Passw0rd!' };
const FINGERPRINT = 'bench-fingerprint-session';
/** Server starts per dashboard URL for the cold figures (the first call after each start). */
const COLD_STARTS = Number(process.env.BENCH_COLD_STARTS ?? 6);
/** Sign-ins measured in Chromium (0: none). */
const BROWSER_RUNS = Number(process.env.BENCH_BROWSER_RUNS ?? 5);
const PG_URL = process.env.MIZAN_BENCH_PG_URL || null;
/** The police-station and client cases run (BENCH_ONLY unset); only the lawsuit cases (`lawsuits`). */
const LIST_CASES = !process.env.BENCH_ONLY;
const LAWSUITS_ONLY = process.env.BENCH_ONLY === 'lawsuits';
/** A generated data set kept here and reused (see the header). */
const KEEP_DIR = process.env.BENCH_DATA_DIR ? path.resolve(process.env.BENCH_DATA_DIR) : null;

function startServer(dataDir, port, databaseUrl = `sqlite:${path.join(dataDir, 'bench.db')}`) {
  return spawnServer(SERVER_DIST, { port, dataDir, databaseUrl, admin: ADMIN });
}

const stop = (child) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

/** One GET on `agent`: its status and, with `json`, its parsed body. Never throws. */
const get = (agent, url, headers, json = false) =>
  new Promise((resolve) => {
    const req = http.get(url, { agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => json && chunks.push(c));
      res.on('end', () => {
        let body = null;
        if (json && res.statusCode === 200) body = JSON.parse(Buffer.concat(chunks).toString());
        resolve({ status: res.statusCode, body });
      });
    });
    req.on('error', () => resolve({ status: 0, body: null }));
  });

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`: 100 on Linux). */
const CLOCK_TICKS = 100;

/** CPU time (ms, user and system) and resident memory (MB) of process `pid`, from /proc. */
function processUsage(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the command's name in parentheses: state is field 3, utime and stime fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuMs, rssMb: rss ? Number(rss[1]) / 1024 : 0 };
}

/**
 * Watches the server process `pid` while a case runs: its CPU time per request and its largest
 * resident memory (sampled every 100 ms). `stop(requests)` answers both.
 */
function watchServer(pid) {
  const before = processUsage(pid);
  let rssMaxMb = before.rssMb;
  const timer = setInterval(() => {
    rssMaxMb = Math.max(rssMaxMb, processUsage(pid).rssMb);
  }, 100);
  return (requests) => {
    clearInterval(timer);
    const after = processUsage(pid);
    return {
      serverCpuMsPerRequest: +((after.cpuMs - before.cpuMs) / Math.max(1, requests)).toFixed(3),
      serverRssMaxMb: Math.round(Math.max(rssMaxMb, after.rssMb)),
    };
  };
}

/**
 * Fixed-duration load with `connections` keep-alive connections, each running `operation(agent)`
 * again and again (one request, or several: a month of the calendar); it answers how many
 * requests it made and whether all succeeded. Latency percentiles in ms are per operation. With
 * the server's `pid`, also its CPU time per request and largest resident memory.
 */
async function loadOps(operation, connections = CONNECTIONS, pid = null) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const watched = pid ? watchServer(pid) : null;
  const latencies = [];
  let errors = 0;
  let requests = 0;
  const until = Date.now() + SECONDS * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      const started = process.hrtime.bigint();
      const done = await operation(agent);
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      requests += done.requests;
      if (!done.ok) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const usage = watched?.(requests);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return {
    requests,
    errors,
    reqPerSec: Math.round(requests / SECONDS),
    ...(requests !== latencies.length ? { opsPerSec: +(latencies.length / SECONDS).toFixed(1) } : {}),
    p50: +pct(50).toFixed(2),
    p95: +pct(95).toFixed(2),
    p99: +pct(99).toFixed(2),
    ...usage,
  };
}

/** Fixed-duration load of one URL; latency percentiles in ms (and the server's usage, with `pid`). */
const load = (url, headers = {}, connections = CONNECTIONS, pid = null) =>
  loadOps(
    async (agent) => ({ requests: 1, ok: (await get(agent, url, headers)).status === 200 }),
    connections,
    pid,
  );

/**
 * A case's figures compared with bare Fastify's in the same run: throughput as a fraction of
 * bare's, and server CPU per request as a multiple of bare's.
 */
function againstBare(result, bare) {
  const out = { ...result, ratioToBare: +(result.reqPerSec / bare.reqPerSec).toFixed(3) };
  if (result.serverCpuMsPerRequest !== undefined && bare.serverCpuMsPerRequest)
    out.cpuPerRequestVsBare = +(result.serverCpuMsPerRequest / bare.serverCpuMsPerRequest).toFixed(1);
  return out;
}

function seed(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const now = new Date().toISOString();
  const continent = db
    .prepare('INSERT INTO continents (name, created_at, updated_at) VALUES (?, ?, ?)')
    .run('Bench', now, now);
  const country = db
    .prepare('INSERT INTO countries (name, continent_id, created_at, updated_at) VALUES (?, ?, ?, ?)')
    .run('Bench', continent.lastInsertRowid, now, now);
  const governorates = [];
  const gov = db.prepare(
    'INSERT INTO governorates (name, country_id, created_at, updated_at) VALUES (?, ?, ?, ?)',
  );
  for (let i = 0; i < 20; i += 1)
    governorates.push(gov.run(`G${i}`, country.lastInsertRowid, now, now).lastInsertRowid);
  const station = db.prepare(
    'INSERT INTO police_stations (name, governorate_id, address, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    for (let i = 0; i < ROWS; i += 1) {
      const at = new Date(Date.parse(now) - i * 1000).toISOString();
      station.run(`مركز شرطة ${i}`, governorates[i % governorates.length], `شارع ${i % 977}`, at, at);
    }
  })();
  // Clients as an office types them; their folded search text is written by the server at its
  // next start (rows written outside the engine are folded once the app is ready).
  const customer = db.prepare(
    'INSERT INTO customers (name, kind, national_id, phone, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const random = seeded(2026);
  const pick = (list) => list[Math.floor(random() * list.length)];
  db.transaction(() => {
    for (let i = 0; i < ROWS; i += 1) {
      const at = new Date(Date.parse(now) - i * 1000).toISOString();
      const name = `${pick(FIRST_NAMES)} ${pick(FIRST_NAMES)} ${pick(FIRST_NAMES)} ${pick(FAMILY_NAMES)}`;
      customer.run(
        name,
        'person',
        String(29_000_000_000_000 + i * 7919),
        `010${String(i).padStart(8, '0')}`,
        at,
        at,
      );
    }
  })();
  db.close();
}

/**
 * A bare Fastify JSON route in a process of its own, loaded and watched as the server is: the
 * reference every case is compared with.
 */
async function bareFastify(connections = CONNECTIONS) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const app = require(process.env.FASTIFY)({ logger: false });
       app.get('/', async () => ({ data: { ok: true } }));
       app.listen({ port: ${port}, host: '127.0.0.1' });`,
    ],
    { env: { ...process.env, FASTIFY: serverRequire.resolve('fastify') }, stdio: 'inherit' },
  );
  try {
    await waitForOk(`http://127.0.0.1:${port}/`);
    return await load(`http://127.0.0.1:${port}/`, {}, connections, child.pid);
  } finally {
    await stop(child);
  }
}

/**
 * The tables read directly, beside the running server, to check its answers: `{ sqlite: file }`
 * (read-only, WAL) or `{ pg: url }`. `get(sql, ...params)` answers the first row; `?` marks the
 * parameters on both.
 */
async function openTables(target) {
  if (target.sqlite) {
    const db = new Database(target.sqlite, { readonly: true });
    return {
      dialect: 'sqlite',
      get: async (text, ...params) => db.prepare(text).get(...params),
      close: async () => db.close(),
    };
  }
  const { Client } = serverRequire('pg');
  const client = new Client({ connectionString: target.pg });
  await client.connect();
  return {
    dialect: 'postgres',
    get: async (text, ...params) => {
      let n = 0;
      return (
        await client.query(
          text.replace(/\?/g, () => `$${(n += 1)}`),
          params,
        )
      ).rows[0];
    },
    close: () => client.end(),
  };
}

/**
 * Reads a database's files into the operating system's page cache before its cases, as a server
 * that serves them all day has them: this machine keeps about 4 GB cached, less than the two
 * million-row sets (3.4 GB SQLite file, 3.5 GB PostgreSQL database), so whichever ran last had
 * pushed the other out and its first reads went to disk (a first pass at 0.02 of bare, p99 3.9 s).
 * SQLite: the file read through once. PostgreSQL: `pg_prewarm(relation, 'read')` on every table
 * and index (its `read` mode fills the OS cache, not the 128 MB of shared buffers); where the
 * extension is missing, nothing is warmed and the result says so. Seconds taken, or null.
 */
async function warmCache(target) {
  const started = Date.now();
  if (target.sqlite) {
    const { open } = await import('node:fs/promises');
    const handle = await open(target.sqlite, 'r');
    const buffer = Buffer.alloc(8 << 20);
    try {
      for (let at = 0; ; at += buffer.length) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
        if (bytesRead < buffer.length) break;
      }
    } finally {
      await handle.close();
    }
  } else {
    const { Client } = serverRequire('pg');
    const client = new Client({ connectionString: target.pg });
    await client.connect();
    try {
      await client.query('create extension if not exists pg_prewarm');
      await client.query(
        `select pg_prewarm(c.oid, 'read') from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind in ('r', 'i')`,
      );
    } catch (error) {
      console.log(`bench: PostgreSQL's files not warmed (${error.message})`);
      return null;
    } finally {
      await client.end();
    }
  }
  return +((Date.now() - started) / 1000).toFixed(1);
}

/** Every month from `YYYY-MM` to `YYYY-MM`, both included. */
function monthsBetween(from, to) {
  const out = [];
  for (let [y, m] = from.split('-').map(Number); `${y}-${String(m).padStart(2, '0')}` <= to; m += 1) {
    if (m > 12) [y, m] = [y + 1, 1];
    out.push(`${y}-${String(m).padStart(2, '0')}`);
  }
  return out;
}

/**
 * The legal cases: a court's lawsuits in one state with their exact total (court and state
 * rotating), and a lawyer's month of hearings as the calendar loads it, every page of 100 one after
 * the other (lawyer and month rotating over the data set). Both are first checked against the
 * database: the list's total is the table's count, the month's pages hold exactly its hearings.
 */
async function legalCases({ base, pid }, headers, { courts, lawyers, months }, target, results) {
  const out = {};
  const lawsuitsList = `${base}/admin/lawsuits`;
  const sessionsList = `${base}/admin/lawsuits/sessions`;
  const lastDay = (month) => {
    const [y, m] = month.split('-').map(Number);
    return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
  };
  const courtUrl = (court, state) => `${lawsuitsList}?courtId=${court}&state=${state}&pageSize=20`;
  const monthUrl = (lawyer, month) =>
    `${sessionsList}?lawyerId=${lawyer}&from=${month}-01&to=${lastDay(month)}&pageSize=100`;
  /** Every page of a month; how many requests it took, whether all answered, and the hearings. */
  async function month(agent, lawyer, when) {
    const first = await get(agent, `${monthUrl(lawyer, when)}&page=1`, headers, true);
    if (first.status !== 200) return { requests: 1, ok: false, items: [] };
    const items = [...first.body.data.items];
    const pages = Math.ceil(first.body.data.total / 100);
    let ok = true;
    for (let page = 2; page <= pages; page += 1) {
      const next = await get(agent, `${monthUrl(lawyer, when)}&page=${page}`, headers, true);
      ok &&= next.status === 200;
      items.push(...(next.body?.data.items ?? []));
    }
    return { requests: Math.max(1, pages), ok, items, total: first.body.data.total };
  }

  // Checked first, against the database itself (read beside the running server).
  const db = await openTables(target);
  try {
    const agent = new http.Agent({ keepAlive: true });
    const court = courts[0];
    const answer = (await get(agent, courtUrl(court, 'active'), headers, true)).body?.data;
    const counted = Number(
      (await db.get('select count(*) as n from lawsuits where court_id = ? and state = ?', court, 'active'))
        .n,
    );
    if (answer?.total !== counted) throw new Error(`lawsuit total ${answer?.total}, table ${counted}`);
    const when = months[Math.floor(months.length / 2)];
    const got = await month(agent, lawyers[0], when);
    const stored = Number(
      (
        await db.get(
          'select count(*) as n from lawsuit_sessions where lawyer_id = ? and date between ? and ?',
          lawyers[0],
          `${when}-01`,
          lastDay(when),
        )
      ).n,
    );
    if (!got.ok || got.items.length !== stored || new Set(got.items.map((h) => h.id)).size !== stored)
      throw new Error(
        `month ${when}: ${got.items.length} hearings in ${got.requests} pages, table ${stored}`,
      );
    // Generated rows are searchable as the engine's own: folded text, FTS index rebuilt.
    const typed = 'اخلاء'; // typed without its hamza; the subjects say إخلاء
    const searched = (await get(agent, `${lawsuitsList}?q=${encodeURIComponent(typed)}`, headers, true)).body
      ?.data.total;
    const found = db.dialect === 'postgres' ? 'strpos(search_text, ?)' : 'instr(search_text, ?)';
    const folded = Number((await db.get(`select count(*) as n from lawsuits where ${found} > 0`, typed)).n);
    if (!folded || searched !== folded) throw new Error(`search "${typed}": ${searched}, table ${folded}`);
    agent.destroy();
    out.legalProbe = {
      searchTyped: typed,
      searchMatches: folded,
      court,
      activeLawsuits: counted,
      month: when,
      monthHearings: stored,
      monthPages: got.requests,
    };
  } finally {
    await db.close();
  }

  const random = seeded(11);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const courtCase = async (agent) => {
    const { status } = await get(agent, courtUrl(pick(courts), pick(['active', 'completed'])), headers);
    return { requests: 1, ok: status === 200 };
  };
  const monthCase = (agent) => month(agent, pick(lawyers), pick(months));
  const bare = { [CONNECTIONS]: results.bareFastify, 1: results.bareFastifyOneUser };
  const measure = async (operation, connections) =>
    againstBare(await loadOps(operation, connections, pid), bare[connections]);
  // A running server's first reads, not a new process's: the same lists' second pages first
  // (other rows; their answers are not the first pass's), so that V8 has compiled the list's code
  // and every pooled PostgreSQL connection has loaded its catalog. Right after a start, the first
  // 212 reads cost 3-4 times the CPU of later first reads (PostgreSQL: 59 against 169 a second).
  const warmCase = async (agent) => {
    const url = `${courtUrl(pick(courts), pick(['active', 'completed']))}&page=2`;
    return { requests: 1, ok: (await get(agent, url, headers)).status === 200 };
  };
  out.lawsuitsWarmUp = await measure(warmCase, CONNECTIONS);
  out.lawsuitsByCourtAndState = await measure(courtCase, CONNECTIONS);
  out.lawsuitsByCourtAndStateOneUser = await measure(courtCase, 1);
  // The same courts and states once more under load: every answer was read once already and kept
  // (no write since), as a list is read through a working day between writes. The first pass
  // above includes each court and state's first read (212 of them in 4 s here).
  out.lawsuitsByCourtAndStateAgain = await measure(courtCase, CONNECTIONS);
  // The folded `q` over the million lawsuits (file and case numbers, subjects): a case number
  // typed in full (a different one at every request, so never a kept answer: the index's own
  // work), and a word of the subjects typed without its hamza or with ha for ta marbuta (a few of
  // them, tens of thousands of matches each: the first read of each, then kept answers).
  const searchCase = (query) => async (agent) => {
    const { status } = await get(
      agent,
      `${lawsuitsList}?q=${encodeURIComponent(query())}&pageSize=20`,
      headers,
    );
    return { requests: 1, ok: status === 200 };
  };
  const caseNumber = searchCase(() => String(100 + Math.floor(random() * 24_900)));
  const subjectWord = searchCase(() => pick(['اخلاء', 'حضانه', 'تعويض', 'شيكات', 'نفقه']));
  // A year, which every file number of that year holds (a tenth of the lawsuits match), on a page
  // from 1 to 50: read by walking the date index on SQLite (more than 2,000 matches).
  const years = [...new Set(months.map((m) => m.slice(0, 4)))];
  const yearPage = async (agent) => {
    const url = `${lawsuitsList}?q=${pick(years)}&page=${1 + Math.floor(random() * 50)}&pageSize=20`;
    return { requests: 1, ok: (await get(agent, url, headers)).status === 200 };
  };
  out.lawsuitsSearchYearOneUser = await measure(yearPage, 1);
  out.lawsuitsSearchCaseNumber = await measure(caseNumber, CONNECTIONS);
  out.lawsuitsSearchCaseNumberOneUser = await measure(caseNumber, 1);
  out.lawsuitsSearchSubjectWord = await measure(subjectWord, CONNECTIONS);
  out.lawsuitsSearchSubjectWordOneUser = await measure(subjectWord, 1);
  if (LAWSUITS_ONLY) return out;
  out.calendarMonth = await measure(monthCase, CONNECTIONS);
  out.calendarMonthOneUser = await measure(monthCase, 1);
  return out;
}

/**
 * Tasks and chat on the work set (workData.mjs): the answers checked against the tables first,
 * then each case under load and for one user.
 */
async function workCases({ base, pid }, headers, { assignee, busyChat }, target, results) {
  const out = {};
  const tasks = `${base}/admin/lawsuits/tasks`;
  const messages = `${base}/admin/chats/${busyChat.id}/messages`;
  const mine = `${tasks}?assigneeIds=${assignee}&state=inProgress&sort=dueAt:asc&pageSize=20`;
  const search = 'الجلسه القادمه'; // typed with ha for ta marbuta; the messages say الجلسة القادمة
  const db = await openTables(target);
  try {
    const agent = new http.Agent({ keepAlive: true });
    const answer = (await get(agent, mine, headers, true)).body?.data;
    const counted = Number(
      (
        await db.get(
          `select count(*) as n from tasks t join tasks_assignee_ids a on a.owner_id = t.id
           where a.ref_id = ? and t.state = ?`,
          assignee,
          'inProgress',
        )
      ).n,
    );
    if (answer?.total !== counted) throw new Error(`tasks total ${answer?.total}, table ${counted}`);
    const newest = (await get(agent, `${messages}?limit=50`, headers, true)).body?.data;
    const last = Number(
      (await db.get('select max(id) as id from chat_messages where chat_id = ?', busyChat.id)).id,
    );
    if (newest?.items.length !== 50 || newest.items.at(-1).id !== last)
      throw new Error(
        `chat ${busyChat.id}: newest page ${newest?.items.length} ending ${newest?.items.at(-1)?.id}, table ${last}`,
      );
    const found = (await get(agent, `${messages}?q=${encodeURIComponent(search)}&limit=50`, headers, true))
      .body?.data;
    if (!found?.items.length || !found.items.every((m) => m.text.includes('الجلسة القادمة')))
      throw new Error(`chat search "${search}" found ${found?.items.length}`);
    agent.destroy();
    out.workProbe = { assignee, openTasks: counted, busyChat: busyChat.id, busyMessages: busyChat.messages };
  } finally {
    await db.close();
  }

  const random = seeded(13);
  const span = busyChat.lastMessageId - busyChat.firstMessageId;
  const cases = {
    tasksMineOpen: () => mine,
    tasksOverdue: () => `${tasks}?overdue=true&pageSize=20`,
    chatList: () => `${base}/admin/chats?pageSize=20`,
    chatNewestPage: () => `${messages}?limit=50`,
    chatOlderPage: () =>
      `${messages}?before=${busyChat.firstMessageId + Math.floor(random() * span)}&limit=50`,
    chatSearch: () => `${messages}?q=${encodeURIComponent(search)}&limit=50`,
  };
  for (const [name, url] of Object.entries(cases)) {
    const operation = async (agent) => ({
      requests: 1,
      ok: (await get(agent, url(), headers)).status === 200,
    });
    out[name] = againstBare(await loadOps(operation, CONNECTIONS, pid), results.bareFastify);
    out[`${name}OneUser`] = againstBare(await loadOps(operation, 1, pid), results.bareFastifyOneUser);
  }
  return out;
}

/**
 * A PostgreSQL database on the server of `baseUrl`: its URL and how to drop it. `kept` names a
 * copy of an earlier run to use again (`reused` when it is still there); otherwise one is created.
 */
async function createPgDatabase(baseUrl, kept = null) {
  const { Client } = serverRequire('pg');
  const name = kept ?? `mizan_bench_${Date.now()}`;
  const run = async (text, values) => {
    const client = new Client({ connectionString: baseUrl });
    await client.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  const reused =
    kept !== null && (await run('select 1 from pg_database where datname = $1', [kept])).length > 0;
  if (!reused) await run(`create database "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    name,
    reused,
    url: url.toString(),
    drop: () => run(`drop database if exists "${name}" with (force)`),
  };
}

/** p50/p95/max of a few samples (ms), and the samples themselves. */
function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const pct = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  return {
    n: sorted.length,
    p50: +pct(50).toFixed(1),
    p95: +pct(95).toFixed(1),
    max: +(sorted.at(-1) ?? 0).toFixed(1),
    samples: samples.map((v) => +v.toFixed(1)),
  };
}

/** Signs the bench administrator in on `base` (…/api): the headers of its requests. */
async function signIn(base) {
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-fingerprint-session': FINGERPRINT },
    body: JSON.stringify(ADMIN),
  });
  if (!login.ok) throw new Error(`sign-in ${login.status}: ${await login.text()}`);
  const { data } = await login.json();
  return { authorization: `Bearer ${data.token}`, 'x-fingerprint-session': FINGERPRINT };
}

/** Starts the built server on the data of `dataDir` / `databaseUrl`, answering once healthy. */
async function launch(dataDir, databaseUrl) {
  const port = await freePort();
  const started = Date.now();
  const child = startServer(dataDir, port, databaseUrl);
  const origin = `http://127.0.0.1:${port}`;
  await waitForOk(`${origin}/api/health`, 900_000);
  return {
    origin,
    base: `${origin}/api`,
    pid: child.pid,
    startSeconds: +((Date.now() - started) / 1000).toFixed(1),
    stop: () => stop(child),
  };
}

/**
 * The dashboard's URLs: the whole office, and a branch over the last year (both ends inside a
 * month, so the whole months come from the aggregates and both edges are recounted). Its figures
 * are checked against the tables first, for both URLs; then each is timed warm (steady load on the
 * running server: after the first call, the short cache answers) and cold (the first call after a
 * server start, sign-in aside; the server is started again for every sample).
 */
async function dashboardCases(server, headers, target, today, results, relaunch) {
  const out = {};
  const url = `${server.base}/admin/dashboard`;
  const db = await openTables(target);
  let urls;
  try {
    const { id: branch } = await db.get(
      'select branch_id as id, count(*) as n from lawsuits group by branch_id order by n desc limit 1',
    );
    const from = new Date(Date.parse(`${today}T00:00:00Z`) - 365 * 86_400_000).toISOString().slice(0, 10);
    const range = { from: from.endsWith('-01') ? `${from.slice(0, 8)}02` : from, to: today };
    urls = {
      dashboard: url,
      dashboardBranchYear: `${url}?from=${range.from}&to=${range.to}&branchId=${branch}`,
    };
    const agent = new http.Agent({ keepAlive: true });
    const whole = (await get(agent, urls.dashboard, headers, true)).body?.data;
    const part = (await get(agent, urls.dashboardBranchYear, headers, true)).body?.data;
    agent.destroy();
    const n = async (text, ...params) => Number((await db.get(text, ...params)).n ?? 0);
    const expected = {
      lawsuits: await n('select count(*) as n from lawsuits'),
      activeLawsuits: await n("select count(*) as n from lawsuits where state = 'active'"),
      completedLawsuits: await n("select count(*) as n from lawsuits where state = 'completed'"),
      sessions: await n('select count(*) as n from lawsuit_sessions'),
      totalFees: await n('select sum(agreed_fee) as n from lawsuits'),
      paidFees: await n('select sum(amount) as n from lawsuit_payments'),
      branchYearLawsuits: await n(
        'select count(*) as n from lawsuits where branch_id = ? and filing_date between ? and ?',
        branch,
        range.from,
        range.to,
      ),
      branchYearSessions: await n(
        `select count(*) as n from lawsuit_sessions h join lawsuits l on l.id = h.lawsuit_id
         where l.branch_id = ? and h.date between ? and ?`,
        branch,
        range.from,
        range.to,
      ),
    };
    const answered = {
      lawsuits: whole?.counts.lawsuits,
      activeLawsuits: whole?.counts.activeLawsuits,
      completedLawsuits: whole?.counts.completedLawsuits,
      sessions: whole?.counts.sessions,
      totalFees: whole?.financialStatistics?.totalFees,
      paidFees: whole?.financialStatistics?.paidFees,
      branchYearLawsuits: part?.counts.lawsuits,
      branchYearSessions: part?.counts.sessions,
    };
    const wrong = Object.keys(expected).filter((k) => answered[k] !== expected[k]);
    if (wrong.length)
      throw new Error(
        `dashboard figures differ from the tables: ${wrong.map((k) => `${k} ${answered[k]} ≠ ${expected[k]}`).join(', ')}`,
      );
    out.dashboardProbe = { ...expected, branchId: Number(branch), ...range };
  } finally {
    await db.close();
  }

  for (const [name, target] of Object.entries(urls)) {
    out[`${name}Warm`] = againstBare(
      await load(target, headers, CONNECTIONS, server.pid),
      results.bareFastify,
    );
    out[`${name}WarmOneUser`] = againstBare(
      await load(target, headers, 1, server.pid),
      results.bareFastifyOneUser,
    );
  }
  return { out, urls, cold: async () => coldCases(urls, relaunch) };
}

/** The first dashboard call after each of `COLD_STARTS` server starts, per URL. */
async function coldCases(urls, relaunch) {
  const out = {};
  const starts = [];
  for (const [name, url] of Object.entries(urls)) {
    const samples = [];
    for (let i = 0; i < COLD_STARTS; i += 1) {
      const server = await relaunch();
      starts.push(server.startSeconds);
      try {
        const headers = await signIn(server.base);
        const target = url.replace(/^http:\/\/127\.0\.0\.1:\d+\/api/, server.base);
        const agent = new http.Agent({ keepAlive: true });
        const t0 = process.hrtime.bigint();
        const { status } = await get(agent, target, headers);
        samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
        agent.destroy();
        if (status !== 200) throw new Error(`cold ${name}: ${status}`);
      } finally {
        await server.stop();
      }
    }
    out[`${name}Cold`] = summary(samples);
  }
  out.coldStartMs = summary(starts.map((s) => s * 1000));
  return out;
}

async function main() {
  const dataDir = KEEP_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'mizan-bench-'));
  mkdirSync(dataDir, { recursive: true });
  const setFile = path.join(dataDir, 'bench-set.json');
  const reuse = KEEP_DIR && existsSync(setFile) ? JSON.parse(readFileSync(setFile, 'utf8')) : null;
  if (
    reuse &&
    (reuse.rows !== ROWS ||
      JSON.stringify(reuse.legal) !== JSON.stringify(LEGAL) ||
      JSON.stringify(reuse.work ?? null) !== JSON.stringify(WORK))
  )
    throw new Error(
      `${dataDir} holds another data set (${JSON.stringify({ ...reuse.legal, ...reuse.work })}, ${reuse.rows} rows)`,
    );
  const results = {
    rows: ROWS,
    seconds: SECONDS,
    connections: CONNECTIONS,
    cpus: os.cpus().length,
    node: process.version,
    // Other work on the machine shows here; bare Fastify's figures move with it.
    loadAverage: os.loadavg().map((l) => +l.toFixed(2)),
  };
  const file = path.join(dataDir, 'bench.db');
  let pgDatabase = null;
  try {
    console.log(
      `bench: ${ROWS} police stations and clients, ${CONNECTIONS} connections, ${SECONDS} s per case`,
    );
    if (LEGAL) Object.assign(results, { lawsuits: LEGAL.lawsuits, hearings: LEGAL.sessions });
    results.bareFastify = await bareFastify();
    results.bareFastifyOneUser = await bareFastify(1);

    let legalSet = null;
    let today = new Date().toISOString().slice(0, 10);
    if (reuse) {
      ({ legalSet, today } = reuse);
      Object.assign(results, { reusedDataSet: dataDir, ...reuse.results });
    } else {
      // First start migrates; rows are then bulk-inserted; the second start recounts the totals.
      const first = await launch(dataDir);
      await first.stop();
      const seedStart = Date.now();
      seed(file);
      results.seedSeconds = +((Date.now() - seedStart) / 1000).toFixed(1);
      if (LEGAL) {
        console.log(`bench: writing ${LEGAL.lawsuits} lawsuits and ${LEGAL.sessions} hearings`);
        const { courts, lawyers, ...written } = seedLegal(file, LEGAL, { serverDist: SERVER_DIST });
        results.legalData = written;
        legalSet = { courts, lawyers, months: monthsBetween(written.months.from, written.months.to) };
        console.log(`bench: legal data written in ${written.seconds} s (${written.rowsPerSecond} rows/s)`);
        console.log(`bench: writing ${WORK.tasks} tasks and ${WORK.messages} chat messages`);
        const work = seedWork(file, WORK, { serverDist: SERVER_DIST, adminEmail: ADMIN.email });
        results.workData = work;
        legalSet.work = { assignee: work.assignee, busyChat: work.busyChat };
        console.log(`bench: tasks and chat written in ${work.seconds} s`);
        results.dashboardStatsSeconds = await buildDashboardStats(`sqlite:${file}`, SERVER_DIST);
        results.filterCountsSeconds = await recountFilterTotals(`sqlite:${file}`, SERVER_DIST);
      }
    }
    // This start also folds the seeded rows' search text (as the migration does for old rows),
    // recounts the totals and, on a new data set, computes the dashboard's aggregates.
    let server = await launch(dataDir);
    results.foldStartSeconds = server.startSeconds;
    if (KEEP_DIR && !reuse)
      writeFileSync(
        setFile,
        JSON.stringify({
          rows: ROWS,
          legal: LEGAL,
          work: WORK,
          legalSet,
          today,
          results: {
            seedSeconds: results.seedSeconds,
            legalData: results.legalData,
            dashboardStatsSeconds: results.dashboardStatsSeconds,
            filterCountsSeconds: results.filterCountsSeconds,
            firstStartSeconds: server.startSeconds,
          },
        }),
      );
    const base = server.base;
    results.warmSeconds = await warmCache({ sqlite: file });

    const loginStart = process.hrtime.bigint();
    const headers = await signIn(base);
    results.loginMs = +(Number(process.hrtime.bigint() - loginStart) / 1e6).toFixed(1);
    const list = `${base}/admin/settings/places/policeStations`;
    const clients = `${base}/admin/customers`;

    const cases = {
      firstPage: `${list}?page=1&pageSize=20`,
      deepPage: `${list}?page=${Math.floor(ROWS / 40)}&pageSize=20`,
      // The last page (page 10,000 at 200,000 rows): a seek from the page boundary the first
      // request leaves in the list cache, not an OFFSET over every row before it.
      lastPage: `${list}?page=${Math.floor(ROWS / 20)}&pageSize=20`,
      filtered: `${list}?governorateId=3&pageSize=20`,
      // Filtered and sorted, with the exact total: counted once, then the list cache's until a write.
      filteredSorted: `${list}?governorateId=3&sort=name:asc&pageSize=20`,
      sortedByName: `${list}?sort=name:asc&pageSize=20`,
      // A reference field sorts by the referenced row's title (a join), not by its id.
      sortedByGovernorate: `${list}?sort=governorateId:asc&pageSize=20`,
      search: `${list}?q=${encodeURIComponent('977')}&pageSize=20`,
      // Folded: matches أحمد / احمد, إبراهيم / ابراهيم in any order; a few dozen of the clients.
      searchFullName: `${clients}?q=${encodeURIComponent('الشناوي ابراهيم احمد')}&pageSize=20`,
      // A first name about one client in ten carries somewhere in the name: the honest worst case.
      searchCommonName: `${clients}?q=${encodeURIComponent('محمد')}&pageSize=20`,
      // Conflict of interest: a full name typed family first and without its hamzas (a client is
      // seeded as first first first family); candidates by folded search, scored as word sets.
      conflictCheck: `${clients}/conflicts?name=${encodeURIComponent('الشناوي محمد ابراهيم احمد')}`,
    };
    if (LIST_CASES) {
      // The conflict case must time real matches, not an empty or refused answer.
      const probe = await (await fetch(cases.conflictCheck, { headers })).json();
      if (!probe.data?.matches?.length)
        throw new Error(`conflict check found nothing: ${JSON.stringify(probe)}`);
      results.conflictMatches = probe.data.matches.length;
      results.conflictReasons = [...new Set(probe.data.matches.flatMap((m) => m.reasons))].join(', ');
      for (const [name, url] of Object.entries(cases)) {
        results[name] = againstBare(await load(url, headers, CONNECTIONS, server.pid), results.bareFastify);
      }
      // One user searching at a time: the latency a person waits for, without the queue of the cases
      // above (their p50 is about `CONNECTIONS` requests' worth of work).
      for (const name of ['searchFullName', 'searchCommonName', 'conflictCheck']) {
        results[`${name}OneUser`] = againstBare(
          await load(cases[name], headers, 1, server.pid),
          results.bareFastifyOneUser,
        );
      }
    }
    if (legalSet)
      Object.assign(results, await legalCases(server, headers, legalSet, { sqlite: file }, results));
    if (legalSet && !LAWSUITS_ONLY) {
      if (legalSet.work)
        Object.assign(results, await workCases(server, headers, legalSet.work, { sqlite: file }, results));
      const dash = await dashboardCases(server, headers, { sqlite: file }, today, results, () =>
        launch(dataDir),
      );
      Object.assign(results, dash.out);
      if (BROWSER_RUNS > 0) {
        const browser = await measureDashboardInBrowser(server.origin, ADMIN, BROWSER_RUNS);
        if (browser) results.dashboardInBrowser = browser;
      }
      await server.stop();
      server = null;
      Object.assign(results, await dash.cold());
    }
    if (server) await server.stop();
    // Chat fan-out, on servers and data of its own: one message to a group room's 1,000 sockets.
    if (process.env.BENCH_CHAT !== '0') results.chat = await measureChatFanOut({ serverDist: SERVER_DIST });
    // Writes under load, on new databases of their own: 50 connections creating lawsuits.
    if (process.env.BENCH_CREATES !== '0')
      results.creates = await measureCreates({ serverDist: SERVER_DIST, pgUrl: PG_URL });
    // Search inside 100,000 files' text, one user, on databases of their own.
    if (process.env.BENCH_FILETEXT !== '0')
      results.fileText = await measureFileTextSearch({ serverDist: SERVER_DIST, pgUrl: PG_URL });

    // Written now and again at the end: the PostgreSQL part takes long (the copy of the set).
    const out = path.join(
      root,
      'bench/results',
      `${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.json`,
    );
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    if (PG_URL && legalSet) {
      // The same data set on PostgreSQL: a database of its own, migrated by the server, the rows
      // copied from the SQLite file, the server started again on it (totals, aggregates).
      const kept = KEEP_DIR ? JSON.parse(readFileSync(setFile, 'utf8')) : null;
      pgDatabase = await createPgDatabase(PG_URL, kept?.pgDatabase ?? null);
      if (pgDatabase.reused) {
        console.log(`bench: PostgreSQL copy ${pgDatabase.name} of an earlier run reused`);
        Object.assign(results, kept.pgResults);
      } else {
        console.log(`bench: copying the data set into PostgreSQL ${pgDatabase.name}`);
        const first = await launch(dataDir, pgDatabase.url);
        await first.stop();
        results.pgCopy = await copyToPostgres(file, pgDatabase.url, { tables: CHAT_TABLES });
        results.pgDashboardStatsSeconds = await buildDashboardStats(pgDatabase.url, SERVER_DIST);
        results.pgFilterCountsSeconds = await recountFilterTotals(pgDatabase.url, SERVER_DIST);
        console.log(`bench: PostgreSQL copy in ${results.pgCopy.seconds} s`);
      }
      const pgServer = await launch(dataDir, pgDatabase.url);
      results.pgFirstStartSeconds = pgServer.startSeconds;
      if (kept && !pgDatabase.reused) {
        // Kept beside the SQLite file only once copied and started (folded, totals recounted).
        const pgResults = {
          pgCopy: results.pgCopy,
          pgDashboardStatsSeconds: results.pgDashboardStatsSeconds,
          pgFilterCountsSeconds: results.pgFilterCountsSeconds,
        };
        writeFileSync(setFile, JSON.stringify({ ...kept, pgDatabase: pgDatabase.name, pgResults }));
      }
      pgDatabase.kept = kept !== null;
      const pgHeaders = await signIn(pgServer.base);
      const pg = {};
      const target = { pg: pgDatabase.url };
      results.pgWarmSeconds = await warmCache(target);
      Object.assign(pg, await legalCases(pgServer, pgHeaders, legalSet, target, results));
      if (legalSet.work && !LAWSUITS_ONLY)
        Object.assign(pg, await workCases(pgServer, pgHeaders, legalSet.work, target, results));
      const dash = LAWSUITS_ONLY
        ? null
        : await dashboardCases(pgServer, pgHeaders, target, today, results, () =>
            launch(dataDir, pgDatabase.url),
          );
      if (dash) Object.assign(pg, dash.out);
      await pgServer.stop();
      if (dash) Object.assign(pg, await dash.cold());
      results.postgres = pg;
    }
    results.loadAverageAtEnd = os.loadavg().map((l) => +l.toFixed(2));

    const timed = (object, prefix = '') =>
      Object.entries(object).flatMap(([k, v]) =>
        v && typeof v === 'object' && 'p50' in v
          ? [[`${prefix}${k}`, Object.fromEntries(Object.entries(v).filter(([key]) => key !== 'samples'))]]
          : [],
      );
    console.table(Object.fromEntries([...timed(results), ...timed(results.postgres ?? {}, 'pg.')]));
    console.log(
      `login ${results.loginMs} ms (argon2id), seed ${results.seedSeconds} s, ` +
        `start with folding ${results.foldStartSeconds} s, ` +
        `conflict check ${results.conflictMatches} matches (${results.conflictReasons})`,
    );
    writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`written ${path.relative(root, out)}`);
  } finally {
    // A kept copy stays; a copy left half-made by a failure is dropped.
    if (pgDatabase && !pgDatabase.kept) await pgDatabase.drop();
    if (!KEEP_DIR) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
