// `npm run bench`: list-endpoint throughput and latency of the built server on a large SQLite table,
// compared with a bare Fastify route on the same machine (the ratio is the figure to watch).
// Loopback only, bounded in time. Results are printed and written to bench/results/<date>.json.
// The search cases run the Arabic-folded `q` over as many clients with realistic Arabic names
// (hamza written or not, as people type them): a selective full-name variant and a common first name;
// the conflict-of-interest check looks a reordered full name up among the same clients.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverRequire = createRequire(path.join(root, 'server', 'package.json'));
const Database = serverRequire('better-sqlite3');
const Fastify = serverRequire('fastify');

const ROWS = Number(process.env.BENCH_ROWS ?? 200_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ADMIN = { email: 'bench@mizan.local', password: 'Bench-Passw0rd!' };
const FINGERPRINT = 'bench-fingerprint-session';

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function waitFor(url, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer in ${timeoutMs} ms`);
}

function startServer(dataDir, port) {
  const child = spawn(process.execPath, [path.join(root, 'server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${path.join(dataDir, 'bench.db')}`,
      MIZAN_ADMIN_EMAIL: ADMIN.email,
      MIZAN_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

const stop = (child) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

/** Fixed-duration load with `CONNECTIONS` keep-alive connections; latency percentiles in ms. */
async function load(url, headers = {}, connections = CONNECTIONS) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  let errors = 0;
  const until = Date.now() + SECONDS * 1000;
  const one = () =>
    new Promise((resolve) => {
      const started = process.hrtime.bigint();
      const req = http.get(url, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) errors += 1;
          latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          resolve();
        });
      });
      req.on('error', () => {
        errors += 1;
        resolve();
      });
    });
  const worker = async () => {
    while (Date.now() < until) await one();
  };
  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    errors,
    reqPerSec: Math.round(latencies.length / SECONDS),
    p50: +pct(50).toFixed(2),
    p95: +pct(95).toFixed(2),
    p99: +pct(99).toFixed(2),
  };
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

/** First names, some with and some without their hamza or ta marbuta, as typed in practice. */
const FIRST_NAMES = [
  ...['محمد', 'أحمد', 'احمد', 'محمود', 'مصطفى', 'إبراهيم', 'ابراهيم', 'علي', 'عليّ', 'حسن', 'حسين'],
  ...['عبد الله', 'عبد الرحمن', 'يوسف', 'خالد', 'عمرو', 'طارق', 'سامح', 'هشام', 'وائل', 'أيمن', 'ايمن'],
  ...['إسلام', 'اسلام', 'كريم', 'شريف', 'ياسر', 'أسامة', 'اسامه', 'مؤمن', 'رؤوف', 'عادل', 'سعيد', 'جمال'],
  ...['فاطمة', 'فاطمه', 'مريم', 'آية', 'اية', 'نورا', 'هدى', 'سارة', 'ساره', 'منى', 'إيمان', 'ايمان'],
  ...['رحاب', 'دعاء', 'أسماء', 'اسماء', 'زينب', 'هبة', 'هبه', 'ياسمين', 'رضوى', 'شيماء', 'سلمى', 'نهى'],
];
const FAMILY_NAMES = [
  ...['السيد', 'الشناوي', 'عبد الفتاح', 'المصري', 'الشافعي', 'النجار', 'الحداد', 'عبد العزيز', 'الجندي'],
  ...['البنا', 'الشربيني', 'القاضي', 'الفقي', 'الدسوقي', 'العطار', 'البدوي', 'الزيات', 'الخولي'],
  ...['الصعيدي', 'عثمان', 'سليمان', 'رمضان', 'منصور', 'عبد الحميد', 'الأنصاري', 'الانصاري', 'الإمام'],
];

/** A repeatable pseudo-random sequence in [0, 1), so every run seeds the same names. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

async function bareFastify(connections = CONNECTIONS) {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ data: { ok: true } }));
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  const result = await load(`http://127.0.0.1:${port}/`, {}, connections);
  await app.close();
  return result;
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mizan-bench-'));
  const results = {
    rows: ROWS,
    seconds: SECONDS,
    connections: CONNECTIONS,
    cpus: os.cpus().length,
    node: process.version,
  };
  try {
    console.log(
      `bench: ${ROWS} police stations and clients, ${CONNECTIONS} connections, ${SECONDS} s per case`,
    );
    results.bareFastify = await bareFastify();
    results.bareFastifyOneUser = await bareFastify(1);

    // First start migrates; rows are then bulk-inserted; the second start recounts the totals.
    let port = await freePort();
    let server = startServer(dataDir, port);
    await waitFor(`http://127.0.0.1:${port}/api/health`);
    await stop(server);
    const seedStart = Date.now();
    seed(path.join(dataDir, 'bench.db'));
    results.seedSeconds = +((Date.now() - seedStart) / 1000).toFixed(1);
    port = await freePort();
    const startedAt = Date.now();
    server = startServer(dataDir, port);
    const base = `http://127.0.0.1:${port}/api`;
    // This start also folds the seeded rows' search text (as the migration does for old rows).
    await waitFor(`${base}/health`, 600_000);
    results.foldStartSeconds = +((Date.now() - startedAt) / 1000).toFixed(1);

    const loginStart = process.hrtime.bigint();
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-fingerprint-session': FINGERPRINT },
      body: JSON.stringify(ADMIN),
    });
    results.loginMs = +(Number(process.hrtime.bigint() - loginStart) / 1e6).toFixed(1);
    const { data } = await login.json();
    const headers = { authorization: `Bearer ${data.token}`, 'x-fingerprint-session': FINGERPRINT };
    const list = `${base}/admin/settings/places/policeStations`;
    const clients = `${base}/admin/customers`;

    const cases = {
      firstPage: `${list}?page=1&pageSize=20`,
      deepPage: `${list}?page=${Math.floor(ROWS / 40)}&pageSize=20`,
      filtered: `${list}?governorateId=3&pageSize=20`,
      sortedByName: `${list}?sort=name:asc&pageSize=20`,
      search: `${list}?q=${encodeURIComponent('977')}&pageSize=20`,
      // Folded: matches أحمد / احمد, إبراهيم / ابراهيم in any order; a few dozen of the clients.
      searchFullName: `${clients}?q=${encodeURIComponent('الشناوي ابراهيم احمد')}&pageSize=20`,
      // A first name about one client in ten carries somewhere in the name: the honest worst case.
      searchCommonName: `${clients}?q=${encodeURIComponent('محمد')}&pageSize=20`,
      // Conflict of interest: a full name typed family first and without its hamzas (a client is
      // seeded as first first first family); candidates by folded search, scored as word sets.
      conflictCheck: `${clients}/conflicts?name=${encodeURIComponent('الشناوي محمد ابراهيم احمد')}`,
    };
    // The conflict case must time real matches, not an empty or refused answer.
    const probe = await (await fetch(cases.conflictCheck, { headers })).json();
    if (!probe.data?.matches?.length)
      throw new Error(`conflict check found nothing: ${JSON.stringify(probe)}`);
    results.conflictMatches = probe.data.matches.length;
    results.conflictReasons = [...new Set(probe.data.matches.flatMap((m) => m.reasons))].join(', ');
    for (const [name, url] of Object.entries(cases)) {
      results[name] = await load(url, headers);
      results[name].ratioToBare = +(results[name].reqPerSec / results.bareFastify.reqPerSec).toFixed(3);
    }
    // One user searching at a time: the latency a person waits for, without the queue of the cases
    // above (their p50 is about `CONNECTIONS` requests' worth of work).
    for (const name of ['searchFullName', 'searchCommonName', 'conflictCheck']) {
      results[`${name}OneUser`] = await load(cases[name], headers, 1);
      results[`${name}OneUser`].ratioToBare = +(
        results[`${name}OneUser`].reqPerSec / results.bareFastifyOneUser.reqPerSec
      ).toFixed(3);
    }
    await stop(server);

    console.table(
      Object.fromEntries(
        Object.entries(results)
          .filter(([, v]) => typeof v === 'object')
          .map(([k, v]) => [k, v]),
      ),
    );
    console.log(
      `login ${results.loginMs} ms (argon2id), seed ${results.seedSeconds} s, ` +
        `start with folding ${results.foldStartSeconds} s, ` +
        `conflict check ${results.conflictMatches} matches (${results.conflictReasons})`,
    );
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    const out = path.join(
      root,
      'bench/results',
      `${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.json`,
    );
    writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`written ${path.relative(root, out)}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
