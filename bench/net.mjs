// What every benchmark needs to start servers of its own: a free port, the built server on it, and
// a wait for an answer.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../scripts/serverFlags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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
 * overrides its environment. Its output is dropped, its errors shown.
 */
export function spawnServer(serverDist, { port, dataDir, databaseUrl, admin, env = {} }) {
  return spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(serverDist, 'main.js')], {
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
