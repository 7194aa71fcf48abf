// End-to-end runner: starts the built production server on a free port with a fresh SQLite
// database (and another on a fresh PostgreSQL database when MIZAN_TEST_PG_URL is set), one Debian
// Chromium for all specs, runs the specs with Node's test runner, and always stops what it started.
// The spec files of both databases share one queue, the longest first (by the last run's times,
// kept in artifacts/durations.json), so that the PostgreSQL files fill the slot the SQLite ones
// leave rather than waiting for the last of them.
//
//   node e2e/run.mjs                    every spec
//   node e2e/run.mjs specs/auth.spec.mjs  some specs (paths relative to e2e/ or absolute)
//
// Env: E2E_CONCURRENCY (spec files in parallel, default 2), E2E_PG_SPECS (comma list of spec file
// names run against PostgreSQL, `all` for every one; default the database flows, see PG_SPECS),
// E2E_CHROMIUM (default /usr/bin/chromium).
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchBrowserServer } from './lib/browser.mjs';
import { ARTIFACTS, CHROMIUM, E2E_DIR, HOST_DIST, REMOTES_DIR, SERVER_MAIN } from './lib/paths.mjs';
import { createPgDatabase, startServer } from './lib/server.mjs';

const started = Date.now();

/**
 * Spec files that also run against PostgreSQL: flows whose browser side depends on what the
 * database does. Every server test already runs on both databases (Jest), so sign-in, settings
 * lists, imports, the office name and permissions, whose pages only show what those tested
 * answers hold, run on SQLite alone; so do screens, theme, remote down and translations.
 */
const PG_SPECS = [
  // Two people saving one record: the stale-write check reads stamps the database stores.
  'concurrency.spec.mjs',
  // Folded search (pg_trgm on PostgreSQL), conflict check, files and expiry filters: one language
  // is enough to cover the database's side.
  'clients-ar.spec.mjs',
  // The dashboard's fee figures come from aggregates kept in each write's transaction.
  'dashboard-ar.spec.mjs',
  // Lawsuit, hearings with the postponement chain (one transaction), attachments, fee figures.
  'legal-ar.spec.mjs',
];

/** Built outputs the production server serves; without them every spec would fail obscurely. */
function missingBuilds() {
  const missing = [];
  if (!fs.existsSync(SERVER_MAIN)) missing.push('server/dist/main.js (npx tsc -b server)');
  if (!fs.existsSync(path.join(HOST_DIST, 'index.html')))
    missing.push('host/dist/index.html (cd host && npx webpack --mode production)');
  for (const name of fs.existsSync(REMOTES_DIR) ? fs.readdirSync(REMOTES_DIR) : []) {
    if (!fs.existsSync(path.join(REMOTES_DIR, name, 'package.json'))) continue;
    if (!fs.existsSync(path.join(REMOTES_DIR, name, 'dist', 'mf-manifest.json')))
      missing.push(
        `remotes/${name}/dist/mf-manifest.json (cd remotes/${name} && npx webpack --mode production)`,
      );
  }
  if (!fs.existsSync(CHROMIUM)) missing.push(`${CHROMIUM} (apt-get install chromium)`);
  return missing;
}

function specFiles(args) {
  if (args.length) return args.map((a) => path.resolve(fs.existsSync(a) ? a : path.join(E2E_DIR, a)));
  const dir = path.join(E2E_DIR, 'specs');
  return (
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.spec.mjs'))
      // The long screen walks first, so that the short files fill the other slot beside them.
      .sort(
        (a, b) => Number(!a.startsWith('screens-')) - Number(!b.startsWith('screens-')) || a.localeCompare(b),
      )
      .map((f) => path.join(dir, f))
  );
}

/** Each spec file's time in the last run, by `<target>: <file>` (see `runSpecs`). */
const DURATIONS = path.join(ARTIFACTS, 'durations.json');
/**
 * The times of a recorded run, kept in the repository for a machine that has not run the specs
 * yet (a fresh clone, CI): `cp artifacts/durations.json durations.json` after a full run.
 */
const RECORDED = path.join(E2E_DIR, 'durations.json');

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

const lastDurations = () => ({ ...readJson(RECORDED), ...readJson(DURATIONS) });

/**
 * A file that runs one spec file against one target's server: it sets the server's address and
 * loads the spec inside a suite named `<target>: <file>`, so that every test's report says which
 * database it ran on and each file's time can be kept.
 */
function targetFile(dir, target, file) {
  const wrapper = path.join(dir, target.label, path.basename(file));
  fs.mkdirSync(path.dirname(wrapper), { recursive: true });
  fs.writeFileSync(
    wrapper,
    [
      "import { describe } from 'node:test';",
      `process.env.E2E_BASE_URL = ${JSON.stringify(target.url)};`,
      `process.env.E2E_TARGET = ${JSON.stringify(target.label)};`,
      `describe(${JSON.stringify(jobName(target, file))}, async () => {`,
      `  await import(${JSON.stringify(pathToFileURL(file).href)});`,
      '});',
      '',
    ].join('\n'),
  );
  return wrapper;
}

const jobName = (target, file) => `${target.label}: ${path.basename(file)}`;

/**
 * Runs every (target, spec file) job on one queue, the longest first: by the last run's times,
 * and on a first run the screen walks, then the PostgreSQL files, then the rest (in the order
 * given). Resolves to the runner's own counts.
 */
async function runSpecs(targets) {
  const counts = { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  const last = lastDurations();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-e2e-specs-'));
  const firstRunRank = (target, file) =>
    path.basename(file).startsWith('screens-') ? 0 : target.label === 'sqlite' ? 2 : 1;
  const jobs = targets
    .flatMap((target) => target.files.map((file, order) => ({ target, file, order })))
    .sort(
      (a, b) =>
        (last[jobName(b.target, b.file)] ?? -1) - (last[jobName(a.target, a.file)] ?? -1) ||
        firstRunRank(a.target, a.file) - firstRunRank(b.target, b.file) ||
        a.order - b.order,
    );
  const durations = {};
  try {
    const stream = run({
      files: jobs.map(({ target, file }) => targetFile(dir, target, file)),
      concurrency: Number(process.env.E2E_CONCURRENCY ?? 2),
      // Per spec file; a screens file walks every main screen of one language, a legal file a
      // whole lawsuit (form, hearing, postponement, calendar, attachment, payments, axe).
      timeout: 360_000,
    });
    stream.on('test:diagnostic', (d) => {
      const m = /^(tests|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(d.message);
      if (m && d.nesting === 0) counts[m[1]] = Number(m[2]);
    });
    for (const type of ['test:pass', 'test:fail'])
      stream.on(type, (t) => {
        if (t.nesting === 0 && t.details?.duration_ms !== undefined)
          durations[t.name] = Math.round(t.details.duration_ms);
      });
    await new Promise((resolve, reject) => {
      const out = stream.compose(new spec());
      out.on('end', resolve);
      out.on('error', reject);
      out.pipe(process.stdout, { end: false });
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.writeFileSync(DURATIONS, `${JSON.stringify({ ...last, ...durations }, null, 2)}\n`);
  const slowest = Object.entries(durations)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(0)} s`);
  console.log(`\n[e2e] slowest files: ${slowest.join(', ')}`);
  for (const target of targets) console.log(`[e2e] ${target.label}: ${target.files.length} spec files`);
  console.log(`[e2e] ${counts.pass} passed, ${counts.fail + counts.cancelled} failed\n`);
  return counts;
}

async function main() {
  const missing = missingBuilds();
  if (missing.length) {
    console.error(
      `[e2e] Cannot run: built outputs missing. Build first (npm run build), then retry.\n  - ${missing.join('\n  - ')}`,
    );
    console.log('e2e: 0 passed, 1 failed');
    return 1;
  }
  const files = specFiles(process.argv.slice(2));
  const targets = [{ label: 'sqlite', files }];
  if (process.env.MIZAN_TEST_PG_URL) {
    const only = (process.env.E2E_PG_SPECS ?? PG_SPECS.join(',')).split(',').map((s) => s.trim());
    targets.push({
      label: 'postgres',
      files: only.includes('all') ? files : files.filter((f) => only.includes(path.basename(f))),
    });
  }

  const browserServer = await launchBrowserServer();
  process.env.E2E_BROWSER_WS = browserServer.wsEndpoint();
  let total = { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  const setupFailures = [];
  // Every target's server starts at once (PostgreSQL's migrating while SQLite's does).
  const prepared = targets.map(async (target) => {
    const db =
      target.label === 'postgres' ? await createPgDatabase(process.env.MIZAN_TEST_PG_URL) : undefined;
    try {
      return { db, server: await startServer({ label: target.label, databaseUrl: db?.url }) };
    } catch (error) {
      await db?.drop().catch(() => undefined);
      throw error;
    }
  });
  // A target whose start fails is reported below; none is left unhandled meanwhile.
  for (const p of prepared) p.catch(() => undefined);
  try {
    const running = [];
    for (const [i, target] of targets.entries()) {
      try {
        const { server } = await prepared[i];
        console.log(
          `[e2e] ${target.label}: server at ${server.url} (log ${path.relative(process.cwd(), server.logFile)})`,
        );
        running.push({ ...target, url: server.url });
      } catch (error) {
        setupFailures.push(`${target.label}: ${error instanceof Error ? error.message : String(error)}`);
        console.error(
          `[e2e] ${target.label}: could not run: ${error instanceof Error ? error.message : error}`,
        );
      }
    }
    if (running.length) total = await runSpecs(running);
  } finally {
    for (const p of prepared)
      await p.then(
        ({ db, server }) =>
          Promise.all([
            server.stop(),
            db?.drop().catch((e) => console.error(`[e2e] could not drop ${db.name}: ${e.message}`)),
          ]),
        () => undefined,
      );
    await browserServer.close();
  }

  const failed = total.fail + total.cancelled + setupFailures.length;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`ℹ tests ${total.tests}`);
  console.log(`ℹ pass ${total.pass}`);
  console.log(`ℹ fail ${failed}`);
  console.log(`ℹ skipped ${total.skipped}`);
  console.log(`ℹ duration_ms ${Date.now() - started}`);
  console.log(`[e2e] targets: ${targets.map((t) => t.label).join(', ')}; ${seconds} s`);
  console.log(`e2e: ${total.pass} passed, ${failed} failed`);
  return failed || total.tests === 0 ? 1 : 0;
}

// Interrupted (Ctrl-C, CI timeout): exit through the 'exit' handlers, which stop the servers.
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    console.log('e2e: 0 passed, 1 failed');
    process.exit(1);
  },
);
