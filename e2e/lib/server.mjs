// Starts the production server (`node server/dist/main.js`) the way `npm start` does, on a free
// loopback port with a fresh DATA_DIR, and stops it again.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../scripts/serverFlags.mjs';
import { ARTIFACTS, ROOT, SERVER_MAIN } from './paths.mjs';

/** Administrator created on first start; every spec signs in with it. */
export const ADMIN = {
  email: process.env.E2E_ADMIN_EMAIL ?? 'admin@e2e.mizan.test',
  password: process.env.E2E_ADMIN_PASSWORD ?? `E2e-${randomBytes(6).toString('hex')}-Pw!`,
};
// Spec files run in child processes: they inherit these and so sign in with the same administrator.
process.env.E2E_ADMIN_EMAIL = ADMIN.email;
process.env.E2E_ADMIN_PASSWORD = ADMIN.password;

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function tail(file, lines = 40) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Creates a fresh PostgreSQL database on the server of `baseUrl` and returns its URL and a drop
 * function. `pg` is taken from the server package (the only one that talks to PostgreSQL).
 */
export async function createPgDatabase(baseUrl) {
  const require = createRequire(path.join(ROOT, 'server', 'package.json'));
  const { Client } = require('pg');
  const name = `mizan_e2e_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * @param {{ label?: string, databaseUrl?: string, remotes?: Record<string, string>, env?: Record<string, string> }} [options]
 * @returns {Promise<{ url: string, port: number, dataDir: string, logFile: string, stop: () => Promise<void> }>}
 */
export async function startServer(options = {}) {
  const label = options.label ?? 'sqlite';
  if (!fs.existsSync(SERVER_MAIN))
    throw new Error(`Server build missing: ${SERVER_MAIN} (run the build first)`);
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `mizan-e2e-${label}-`));
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const logFile = path.join(ARTIFACTS, `server-${label}.log`);
  const log = fs.openSync(logFile, 'w');
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: options.databaseUrl ?? `sqlite:${path.join(dataDir, 'mizan.db')}`,
    MIZAN_ADMIN_EMAIL: ADMIN.email,
    MIZAN_ADMIN_PASSWORD: ADMIN.password,
    // Every person in these tests signs in from 127.0.0.1: the per-address login limit (10 a minute
    // by default, meant for one office's public address) would refuse the suite's own sign-ins.
    MIZAN_LOGIN_LIMIT_PER_IP: '1000',
    ...(options.remotes ? { MIZAN_REMOTES: JSON.stringify(options.remotes) } : {}),
    ...options.env,
  };
  // The server must not see the test runner's own variables (they would change its behaviour).
  delete env.NODE_TEST_CONTEXT;
  if (!options.remotes) delete env.MIZAN_REMOTES;
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_MAIN], {
    cwd: ROOT,
    env,
    stdio: ['ignore', log, log],
  });
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
  });
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    for (let i = 0; i < 50 && !exited; i++) await sleep(100);
    if (!exited) child.kill('SIGKILL');
    for (let i = 0; i < 20 && !exited; i++) await sleep(100);
    fs.closeSync(log);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('exit', () => {
    if (!exited) child.kill('SIGKILL');
  });

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(
        `Server exited during start (${JSON.stringify(exited)}). Log ${logFile}:\n${tail(logFile)}`,
      );
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Server did not answer /api/health within 90 s. Log ${logFile}:\n${tail(logFile)}`);
    }
    await sleep(200);
  }
  return { url, port, dataDir, logFile, stop };
}
