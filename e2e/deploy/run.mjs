// The deployment suite: Debian's nginx with deploy/nginx in front of two server instances on
// PostgreSQL, Redis and S3 storage, the host and each remote on an origin of their own, and one
// Chromium through it (deploy.spec.mjs; the pieces in deployment.mjs). Reuses the builds the
// browser tests use; needs PostgreSQL (MIZAN_TEST_PG_URL), nginx and redis-server.
//
//   node e2e/deploy/run.mjs
//
// Ends with `deploy: N passed, N failed` and exits non-zero on a failure; every process it started
// is stopped, also on failure or Ctrl-C.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, HOST_DIST, REMOTES_DIR, SERVER_MAIN } from '../lib/paths.mjs';
import { NGINX, REMOTES } from './deployment.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const started = Date.now();

function missing() {
  const out = [];
  if (!process.env.MIZAN_TEST_PG_URL) out.push('MIZAN_TEST_PG_URL (several instances share PostgreSQL)');
  if (!fs.existsSync(SERVER_MAIN)) out.push('server/dist/main.js (npx tsc -b server)');
  if (!fs.existsSync(path.join(HOST_DIST, 'index.html'))) out.push('host/dist (npm run build)');
  for (const name of REMOTES)
    if (!fs.existsSync(path.join(REMOTES_DIR, name, 'dist', 'mf-manifest.json')))
      out.push(`remotes/${name}/dist (npm run build)`);
  if (!fs.existsSync(NGINX)) out.push(`${NGINX} (apt-get install nginx)`);
  if (!fs.existsSync(CHROMIUM)) out.push(`${CHROMIUM} (apt-get install chromium)`);
  return out;
}

const lacking = missing();
if (lacking.length) {
  console.error(`[deploy] Cannot run: missing\n  - ${lacking.join('\n  - ')}`);
  console.log('deploy: 0 passed, 1 failed');
  process.exit(1);
}

// The spec file runs in one child process with its deployment: its `after` hook stops the pieces,
// and that process's exit handler kills them if the hook never runs (deployment.mjs).
const child = spawn(process.execPath, ['--test-reporter=spec', path.join(here, 'deploy.spec.mjs')], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: process.env,
});
let passed = 0;
let failed = 0;
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  for (const m of String(chunk).matchAll(/^ℹ (pass|fail|cancelled) (\d+)$/gm))
    if (m[1] === 'pass') passed = Number(m[2]);
    else failed += Number(m[2]);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => child.kill(signal));
child.on('exit', (code) => {
  if (code !== 0 && failed === 0) failed = 1;
  console.log(`[deploy] ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`deploy: ${passed} passed, ${failed} failed`);
  process.exit(code === 0 ? 0 : 1);
});
