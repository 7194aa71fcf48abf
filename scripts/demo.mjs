// `npm run demo`: a sample law office to try Mizan on, in a data folder of its own (data/demo,
// DEMO_DATA_DIR to choose another), made once and reused: courts, a few hundred clients and
// opponents, lawsuits with hearings and their postponements, fee payments (bench/legalData.mjs),
// tasks and chat conversations (bench/workData.mjs), all at a small scale, then powers of attorney
// with their scanned files and invoices of lawsuits with their payments through the API, and three
// people to sign in as.
//
// `prepareDemo()` makes the data set when the folder has none and answers the environment the
// server runs with (scripts/run.mjs starts it). Delete the folder to start over.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDashboardStats, recountFilterTotals, seedLegal } from '../bench/legalData.mjs';
import { seedWork } from '../bench/workData.mjs';
import { SERVER_NODE_FLAGS } from './serverFlags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverRequire = createRequire(path.join(root, 'server', 'package.json'));
const SERVER_DIST = path.join(root, 'server', 'dist');

/** Bump when what the demo writes changes: an older demo folder is then made again. */
const DEMO_VERSION = 2;
/** Small scale: a few hundred clients, lawsuits over ten years, their hearings, tasks, chat. */
const COUNTS = { lawsuits: 900, sessions: 2600, customers: 320, opponents: 300 };
const WORK = { tasks: 400, messages: 1500 };
const PROCURATIONS = 60;
const FINGERPRINT = 'demo-setup';

/** Who to sign in as; the lawyer and the secretary are people of the generated office. */
export const DEMO_PEOPLE = [
  { who: 'administrator', email: 'admin@demo.mizan', password: 'Demo-Admin-2026', role: 'مدير النظام' },
  { who: 'lawyer', email: 'lawyer@demo.mizan', password: 'Demo-Lawyer-2026', role: 'محامٍ' },
  { who: 'secretary', email: 'secretary@demo.mizan', password: 'Demo-Secretary-2026', role: 'سكرتير' },
];

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** The server's environment on the demo folder. */
function demoEnv(dataDir, port) {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: `sqlite:${path.join(dataDir, 'mizan.db')}`,
    MIZAN_ADMIN_EMAIL: DEMO_PEOPLE[0].email,
    MIZAN_ADMIN_PASSWORD: DEMO_PEOPLE[0].password,
    ...(port ? { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' } : {}),
  };
}

/** Starts the built server on the demo folder for a setup step; answers its API base and a stop. */
async function startSetupServer(dataDir) {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(SERVER_DIST, 'main.js')], {
    cwd: root,
    env: demoEnv(dataDir, port),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const base = `http://127.0.0.1:${port}/api`;
  const until = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server stopped (exit ${child.exitCode})`);
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error('the server did not answer within 5 minutes');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

async function signIn(base, { email, password }) {
  const res = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-fingerprint-session': FINGERPRINT },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in as ${email}: ${res.status} ${await res.text()}`);
  const { data } = await res.json();
  return { authorization: `Bearer ${data.token}`, 'x-fingerprint-session': FINGERPRINT };
}

/**
 * The lawyer and the secretary: two employees of the generated office (the lawyer holds lawsuits,
 * hearings and tasks of its own) given a sign-in, a role and a password that needs no change.
 */
async function givePeopleSignIns(file) {
  const Database = serverRequire('better-sqlite3');
  const { hashPassword } = serverRequire(path.join(SERVER_DIST, 'auth', 'password.js'));
  const db = new Database(file);
  try {
    const role = (name) => db.prepare('select id from roles where name = ?').get(name)?.id;
    const lawyer = db
      .prepare(
        `select e.id from employees e join lawsuits_lawyer_ids l on l.ref_id = e.id
         where e.username like 'bench_staff_%' group by e.id order by count(*) desc limit 1`,
      )
      .get()?.id;
    const secretary = db
      .prepare(
        "select id from employees where username like 'bench_staff_%' and job_title = 'سكرتارية' limit 1",
      )
      .get()?.id;
    const people = [
      [lawyer, DEMO_PEOPLE[1], 'lawyer'],
      [secretary, DEMO_PEOPLE[2], 'secretary'],
    ];
    for (const [id, person, username] of people) {
      const roleId = role(person.role);
      if (!id || !roleId) throw new Error(`no employee or role for the ${person.who}`);
      const hash = await hashPassword(person.password);
      db.prepare(
        `update employees set email = ?, username = ?, password = ?, password_change_required = ? where id = ?`,
      ).run(person.email, username, hash, 0, id);
      db.prepare('delete from employees_role_ids where owner_id = ?').run(id);
      db.prepare('insert into employees_role_ids (owner_id, ref_id) values (?, ?)').run(id, roleId);
    }
  } finally {
    db.close();
  }
}

/** A small PDF, as a scanned power of attorney would be stored. */
const scan = (n) =>
  Buffer.from(`%PDF-1.7\n1 0 obj << /Title (توكيل ${n}) >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);

/** Powers of attorney through the API (the engine stores their files): clients, lawyers, dates. */
async function addProcurations(base, headers, file) {
  const Database = serverRequire('better-sqlite3');
  const { getEntity } = serverRequire('@mizan/contracts');
  const db = new Database(file, { readonly: true });
  const customers = db
    .prepare('select id from customers order by id limit ?')
    .all(PROCURATIONS)
    .map((r) => r.id);
  const lawyers = db
    .prepare('select distinct ref_id as id from lawsuits_lawyer_ids order by ref_id limit 6')
    .all()
    .map((r) => r.id);
  db.close();
  const url = `${base}${getEntity('procurations').path}`;
  const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  for (let i = 0; i < PROCURATIONS; i += 1) {
    const form = new FormData();
    const issued = -30 * (i + 1);
    const fields = {
      number: String(1200 + i),
      year: new Date(Date.now() + issued * 86_400_000).getUTCFullYear(),
      issuer: ['مكتب توثيق الجيزة', 'مكتب توثيق مدينة نصر', 'مكتب توثيق الإسكندرية'][i % 3],
      issueDate: day(issued),
      // Some expired, some expiring within the month (the list flags them), most running.
      expiryDate: day(i % 10 === 0 ? -5 : i % 7 === 0 ? 20 : 365 * 2),
      scope: 'توكيل عام في القضايا وأعمال الإدارة والتصالح والإقرار',
    };
    for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
    form.append('customerIds', String(customers[i % customers.length]));
    form.append('lawyerIds', String(lawyers[i % lawyers.length]));
    form.append('files', new Blob([scan(i)], { type: 'application/pdf' }), `توكيل-${1200 + i}.pdf`);
    const res = await fetch(url, { method: 'POST', headers, body: form });
    if (!res.ok) throw new Error(`power of attorney ${i}: ${res.status} ${await res.text()}`);
  }
}

const INVOICES = 40;

/**
 * Invoices through the API, as an office bills its lawsuits: each for one lawsuit of its client
 * (the client's lawsuits first that have two, so that some payments settle invoices of two
 * lawsuits), issued, most of them paid in full or in part. What a payment settles of an invoice
 * counts for that invoice's lawsuit (server/src/finance/lawsuitFees.ts), so the dashboard's paid
 * fees take in what the invoicing figures show as collected.
 */
async function addInvoices(base, headers, file) {
  const Database = serverRequire('better-sqlite3');
  const { getEntity } = serverRequire('@mizan/contracts');
  const db = new Database(file, { readonly: true });
  const pairs = db
    .prepare(
      `select k.ref_id as client, min(k.owner_id) as first, max(k.owner_id) as second
       from lawsuits_customer_ids k group by k.ref_id having count(*) >= 2 order by k.ref_id limit ?`,
    )
    .all(INVOICES / 4);
  db.close();
  const send = async (method, url, body) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return (await res.json()).data;
  };
  const invoices = getEntity('invoices').path;
  const lines = getEntity('invoiceLines').path;
  const payments = getEntity('payments').path;
  const today = new Date().toISOString().slice(0, 10);
  const issue = async (customerId, lawsuitId, n) => {
    const draft = await send('POST', invoices, { customerId, lawsuitId });
    await send('POST', lines, {
      invoiceId: draft.id,
      description: 'أتعاب المحاماة عن المرحلة الحالية من الدعوى',
      quantity: 1,
      unitPrice: (5 + (n % 7) * 2.5) * 100_000,
    });
    return send('POST', `${invoices}/${draft.id}/issue`);
  };
  const pay = (customerId, invoiceIds, amount, n) =>
    send('POST', payments, {
      customerId,
      date: today,
      amount,
      method: ['bankTransfer', 'cash', 'cheque'][n % 3],
      invoiceIds,
    });
  let n = 0;
  for (const { client, first, second } of pairs) {
    const a = await issue(client, first, n++);
    const b = await issue(client, second, n++);
    // One payment for both lawsuits' invoices: all of the first, half of the second.
    if (n % 8 !== 0) await pay(client, [a.id, b.id], a.total + Math.round(b.total / 2), n);
    const c = await issue(client, first, n++);
    const d = await issue(client, second, n++);
    if (n % 3 !== 0) await pay(client, [c.id], c.total, n);
    if (n % 5 === 0) await pay(client, [d.id], Math.round(d.total / 3), n);
  }
}

/** Makes the demo office in `dataDir` (emptied first). */
async function makeDemo(dataDir) {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'mizan.db');
  const t0 = Date.now();
  console.log(`▶ demo: making a sample office in ${path.relative(process.cwd(), dataDir) || dataDir}`);
  // First start: migrations, the administrator and the seeded roles.
  await (await startSetupServer(dataDir)).stop();
  seedLegal(file, COUNTS, { serverDist: SERVER_DIST });
  seedWork(file, WORK, { serverDist: SERVER_DIST, adminEmail: DEMO_PEOPLE[0].email });
  await buildDashboardStats(`sqlite:${file}`, SERVER_DIST);
  await recountFilterTotals(`sqlite:${file}`, SERVER_DIST);
  await givePeopleSignIns(file);
  const server = await startSetupServer(dataDir);
  try {
    const admin = await signIn(server.base, DEMO_PEOPLE[0]);
    await addProcurations(server.base, admin, file);
    await addInvoices(server.base, admin, file);
    // Every sign-in works as printed.
    for (const person of DEMO_PEOPLE) await signIn(server.base, person);
  } finally {
    await server.stop();
  }
  fs.writeFileSync(
    path.join(dataDir, 'demo.json'),
    `${JSON.stringify({ version: DEMO_VERSION, madeAt: new Date().toISOString(), ...COUNTS, ...WORK }, null, 2)}\n`,
  );
  console.log(`✔ demo: sample office made in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/** Makes the demo office when its folder has none (or an older one); answers the server's env. */
export async function prepareDemo({
  dataDir = path.resolve(process.env.DEMO_DATA_DIR || path.join(root, 'data', 'demo')),
} = {}) {
  let made = null;
  try {
    made = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo.json'), 'utf8'));
  } catch {
    // no demo yet
  }
  if (made?.version !== DEMO_VERSION) await makeDemo(dataDir);
  const env = demoEnv(dataDir);
  const port = env.PORT || '8080';
  console.log(`\nDemo office (data in ${dataDir}), at http://localhost:${port} once the server is up:`);
  for (const p of DEMO_PEOPLE) console.log(`  ${p.who.padEnd(14)} ${p.email.padEnd(24)} ${p.password}`);
  console.log('');
  return env;
}
