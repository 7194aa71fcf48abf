// What every benchmark needs to start servers of its own: a free port, the built server on it, and
// a wait for an answer.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../scripts/serverFlags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** `require` as the server resolves it (its drivers, `@mizan/contracts`). */
export const serverRequire = createRequire(path.join(root, 'server', 'package.json'));

/** A TCP port free on the loopback now. */
export const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Resolves once `url` answers 2xx; throws after `timeoutMs`. */
export async function waitForOk(url, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer in ${timeoutMs} ms`);
}

/**
 * The built server (`serverDist/main.js`) on 127.0.0.1:`port`, on its own data folder and
 * database, serving this checkout's front end, `admin` its first administrator; `env` adds to or
 * overrides its environment. Its output is dropped, its errors shown. BENCH_SERVER_NODE_FLAGS adds
 * Node flags of its own (space-separated), e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it.
 */
export function spawnServer(serverDist, { port, dataDir, databaseUrl, admin, env = {} }) {
  const extra = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  return spawn(process.execPath, [...SERVER_NODE_FLAGS, ...extra, path.join(serverDist, 'main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      MIZAN_STATIC_DIR: root,
      MIZAN_LOGIN_LIMIT_PER_IP: '1000',
      MIZAN_ADMIN_EMAIL: admin.email,
      MIZAN_ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Ends `child` with SIGTERM; resolves once it has exited. */
export const stop = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

/** The built server started on a free port (`spawnServer`) and answering: its API URL, pid and `stop`. */
export async function startServer(serverDist, { dataDir, databaseUrl, admin }) {
  const port = await freePort();
  const child = spawnServer(serverDist, { port, dataDir, databaseUrl, admin });
  const origin = `http://127.0.0.1:${port}`;
  await waitForOk(`${origin}/api/health`);
  return { api: `${origin}/api`, pid: child.pid, stop: () => stop(child) };
}

/** Signs `admin` in on `api` from a device named `fingerprint`: the user id and the headers of later calls. */
export async function signIn(api, admin, fingerprint) {
  const res = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-fingerprint-session': fingerprint },
    body: JSON.stringify(admin),
  });
  if (!res.ok) throw new Error(`sign-in ${res.status}: ${await res.text()}`);
  const { data } = await res.json();
  return {
    userId: data.user.id,
    headers: { authorization: `Bearer ${data.token}`, 'x-fingerprint-session': fingerprint },
  };
}

/** A PostgreSQL database of its own (`<prefix>_<time>`) on the server of `baseUrl`: its URL and how to drop it. */
export async function createPgDatabase(baseUrl, prefix) {
  const { Client } = serverRequire('pg');
  const name = `${prefix}_${Date.now()}`;
  const run = async (text) => {
    const client = new Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await run(`create database "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists "${name}" with (force)`) };
}
