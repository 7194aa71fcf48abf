// End-to-end runner: starts the built production server on a free port with a fresh SQLite
// database (and again on a fresh PostgreSQL database when MIZAN_TEST_PG_URL is set), one Debian
// Chromium for all specs, runs the specs with Node's test runner, and always stops what it started.
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
import path from 'node:path';
import { launchBrowserServer } from './lib/browser.mjs';
import { CHROMIUM, E2E_DIR, HOST_DIST, REMOTES_DIR, SERVER_MAIN } from './lib/paths.mjs';
import { createPgDatabase, startServer } from './lib/server.mjs';

const started = Date.now();

/**
 * Spec files that also run against PostgreSQL: the flows that write and read the database. The
 * others (screens, theme, remote down, translations) do not depend on the database kind.
 */
const PG_SPECS = [
  'auth.spec.mjs',
  'places.spec.mjs',
  'import.spec.mjs',
  'office-name.spec.mjs',
  'permissions.spec.mjs',
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

/** Runs the files against one started server; resolves to the runner's own counts. */
async function runSpecs(files, label) {
  const counts = { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  const stream = run({
    files,
    concurrency: Number(process.env.E2E_CONCURRENCY ?? 2),
    // Per spec file; a screens file walks every main screen of one language, a legal file a
    // whole lawsuit (form, hearing, postponement, calendar, attachment, payments, axe).
    timeout: 360_000,
  });
  stream.on('test:diagnostic', (d) => {
    const m = /^(tests|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(d.message);
    if (m && d.nesting === 0) counts[m[1]] = Number(m[2]);
  });
  await new Promise((resolve, reject) => {
    const out = stream.compose(new spec());
    out.on('end', resolve);
    out.on('error', reject);
    out.pipe(process.stdout, { end: false });
  });
  console.log(`\n[e2e] ${label}: ${counts.pass} passed, ${counts.fail + counts.cancelled} failed\n`);
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
  const total = { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  const setupFailures = [];
  // Every target's server starts at once (PostgreSQL's migrating while the SQLite specs run), so
  // that the next target's specs begin the moment the previous ones end.
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
  // A target whose start fails is reported when its turn comes; none is left unhandled meanwhile.
  for (const p of prepared) p.catch(() => undefined);
  try {
    for (const [i, target] of targets.entries()) {
      let db;
      let server;
      try {
        ({ db, server } = await prepared[i]);
        console.log(
          `[e2e] ${target.label}: server at ${server.url} (log ${path.relative(process.cwd(), server.logFile)})`,
        );
        process.env.E2E_BASE_URL = server.url;
        process.env.E2E_TARGET = target.label;
        const counts = await runSpecs(target.files, target.label);
        for (const k of Object.keys(total)) total[k] += counts[k];
      } catch (error) {
        setupFailures.push(`${target.label}: ${error instanceof Error ? error.message : String(error)}`);
        console.error(
          `[e2e] ${target.label}: could not run: ${error instanceof Error ? error.message : error}`,
        );
      } finally {
        await server?.stop();
        await db?.drop().catch((e) => console.error(`[e2e] could not drop ${db.name}: ${e.message}`));
      }
    }
  } finally {
    // Servers of targets not reached (an earlier one threw) are stopped too.
    for (const p of prepared)
      await p.then(
        ({ db, server }) => Promise.all([server.stop(), db?.drop().catch(() => undefined)]),
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
