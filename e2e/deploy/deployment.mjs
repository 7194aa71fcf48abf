// The separate deployment of deploy/README.md on one machine, for the deployment suite: Debian's
// nginx (run as this user, with a temp prefix and a configuration generated from deploy/nginx, the
// origins on loopback ports) in front of two server instances on one PostgreSQL database, a
// private redis-server and an S3 stand-in (s3rver); the host and each remote on an origin of its
// own. Everything started here is stopped by `close()`, and killed when the process exits anyway.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { SERVER_NODE_FLAGS } from '../../scripts/serverFlags.mjs';
import { ARTIFACTS, HOST_DIST, REMOTES_DIR, ROOT, SERVER_MAIN } from '../lib/paths.mjs';
import { ADMIN, createPgDatabase, freePort } from '../lib/server.mjs';

export const NGINX = process.env.E2E_NGINX ?? '/usr/sbin/nginx';
export const REMOTES = ['settings', 'clients', 'legal', 'tasks', 'chat'];
const NGINX_DIR = path.join(ROOT, 'deploy', 'nginx');
const serverRequire = createRequire(path.join(ROOT, 'server', 'package.json'));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Every child process started here: killed when this process exits, whatever happened. */
const children = new Set();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
// Interrupted (Ctrl-C, a CI timeout): leave through 'exit', which kills them.
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

/** Polls `fn` until it returns a truthy value; throws `message` (with the last error) after `timeout`. */
export async function waitFor(fn, { timeout = 30_000, interval = 100, message = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`${message} not met within ${timeout} ms${last ? `: ${last.message}` : ''}`);
    await sleep(interval);
  }
}

/** Whether something accepts TCP connections on this loopback port. */
export const listening = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Spawns a long-lived child whose output goes to `logFile`; `exited` resolves when it ends. */
function startChild(cmd, args, { env, logFile, cwd = ROOT }) {
  const log = fs.openSync(logFile, 'a');
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  children.add(child);
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    });
    child.once('error', (error) => {
      children.delete(child);
      resolve({ code: null, signal: null, error });
    });
  });
  return { child, exited };
}

/** Sends SIGTERM, then SIGKILL if the process has not ended within `graceMs`. */
async function terminate({ child, exited }, graceMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  child.kill('SIGTERM');
  const done = await Promise.race([exited, sleep(graceMs).then(() => null)]);
  if (done) return done;
  child.kill('SIGKILL');
  return exited;
}

// ---- outside services -------------------------------------------------------------------------------

/** A private redis-server on a free port: no other test or office hears this suite's channels. */
async function startRedis(dir) {
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    const url = process.env.MIZAN_TEST_REDIS_URL;
    if (!url) throw new Error('redis-server is not installed (apt-get install redis-server)');
    return { url, stop: async () => undefined };
  }
  const port = await freePort();
  const proc = startChild(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { env: process.env, logFile: path.join(dir, 'redis.log') },
  );
  await waitFor(() => listening(port), { message: 'redis-server listening' });
  return { url: `redis://127.0.0.1:${port}`, stop: () => terminate(proc) };
}

/** s3rver (the server tests' stand-in, server/src/test/s3Server.ts) with the bucket `mizan-files`. */
async function startS3(dir) {
  const S3rver = serverRequire('s3rver');
  const port = await freePort();
  const directory = path.join(dir, 's3');
  fs.mkdirSync(directory);
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    directory,
    silent: true,
    configureBuckets: [{ name: 'mizan-files' }],
  });
  await server.run();
  const endpoint = encodeURIComponent(`http://127.0.0.1:${port}`);
  return {
    filesUrl: `s3://S3RVER:S3RVER@mizan-files/deploy-suite?endpoint=${endpoint}&region=us-east-1&forcePathStyle=true`,
    stop: () => server.close(),
  };
}

// ---- server instances -------------------------------------------------------------------------------

/**
 * One API instance (`node server/dist/main.js`, as the image runs it) on a fixed port, so that a
 * restart comes back where nginx expects it. Metrics on a port of its own (which instance holds
 * which WebSockets).
 */
async function createInstance(index, dir, sharedEnv) {
  const port = await freePort();
  const metricsPort = await freePort();
  const dataDir = path.join(dir, `instance-${index}`);
  fs.mkdirSync(dataDir);
  const logFile = path.join(ARTIFACTS, `deploy-server-${index}.log`);
  fs.writeFileSync(logFile, '');
  let proc = null;
  const instance = {
    index,
    port,
    metricsPort,
    url: `http://127.0.0.1:${port}`,
    logFile,
    get running() {
      return proc !== null && proc.child.exitCode === null && proc.child.signalCode === null;
    },
    /** Starts the process and resolves when `/api/ready` answers 200 (database, Redis, bucket). */
    async start() {
      const env = {
        ...process.env,
        ...sharedEnv,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        MIZAN_METRICS_PORT: String(metricsPort),
      };
      delete env.NODE_TEST_CONTEXT;
      delete env.MIZAN_REMOTES;
      fs.appendFileSync(logFile, `\n---- start ${new Date().toISOString()}\n`);
      proc = startChild(process.execPath, [...SERVER_NODE_FLAGS, SERVER_MAIN], { env, logFile });
      const current = proc;
      let ended = null;
      void current.exited.then((e) => (ended = e));
      await waitFor(
        async () => {
          if (ended) throw new Error(`instance ${index} exited during start (${JSON.stringify(ended)})`);
          return (await fetch(`${instance.url}/api/ready`)).status === 200;
        },
        { timeout: 90_000, interval: 200, message: `instance ${index} ready` },
      ).catch((error) => {
        error.message += `\n${logFile}:\n${tail(logFile)}`;
        throw error;
      });
    },
    /** Kills the process with `signal` (SIGKILL: no shutdown at all) and waits for its end. */
    async kill(signal = 'SIGKILL') {
      if (!instance.running) return;
      proc.child.kill(signal);
      await proc.exited;
    },
    /** A clean stop: SIGTERM (the server closes its sockets and database pool), then SIGKILL. */
    async stop() {
      if (proc) await terminate(proc);
    },
    /** Open WebSockets on this instance (`mizan_websocket_connections`). */
    async websockets() {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      const m = /^mizan_websocket_connections(?:\{[^}]*\})? (\d+)/m.exec(text);
      if (!m) throw new Error('no mizan_websocket_connections in the metrics');
      return Number(m[1]);
    },
  };
  return instance;
}

// ---- nginx -------------------------------------------------------------------------------------------

/** The `server { … }` block of `text` that contains `marker`, with its start and end offsets. */
function serverBlock(text, marker) {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`deploy/nginx/mizan.conf has no "${marker}"`);
  const start = text.lastIndexOf('\nserver {', at) + 1;
  let depth = 0;
  for (let i = text.indexOf('{', start); i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return { start, end: i + 1, body: text.slice(start, i + 1) };
  }
  throw new Error(`unbalanced braces after "${marker}"`);
}

const hasBrotli = () => fs.existsSync('/usr/lib/nginx/modules/ngx_http_brotli_static_module.so');

/**
 * `deploy/nginx/mizan.conf` with this machine's addresses: each upstream's servers are the
 * instances (with the file's own `max_fails`/`fail_timeout`), each origin `https://<x>.mizan.example`
 * is `http://127.0.0.1:<port>` (CORS, Content-Security-Policy), the host and each remote listen on
 * their port (the remotes' block, one per remote, rooted at its folder), and the snippets come from
 * `prefix`. `stopped`: remotes whose origin is left out (nothing listens on their port).
 * Over plain http the policy's `upgrade-insecure-requests` would send every request of the page
 * to https, so it is dropped; everything else is the file's.
 */
export function nginxSiteConfig({ prefix, ports, apiPorts, roots, stopped = [] }) {
  let text = fs.readFileSync(path.join(NGINX_DIR, 'mizan.conf'), 'utf8');
  // Each upstream block's run of server lines becomes one line per instance, with its parameters.
  const servers = /((?:^[ \t]*server \S+:\d+(?: [^;]*)?;\n)+)/m;
  let upstreams = 0;
  text = text.replace(/^upstream \S+ \{\n[\s\S]*?^\}/gm, (block) => {
    const line = /^([ \t]*)server \S+:\d+( [^;]*)?;/m.exec(block);
    if (!line) throw new Error(`deploy/nginx/mizan.conf: an upstream without server lines:\n${block}`);
    const [, indent, params = ''] = line;
    upstreams++;
    return block.replace(servers, apiPorts.map((p) => `${indent}server 127.0.0.1:${p}${params};\n`).join(''));
  });
  if (!upstreams) throw new Error('deploy/nginx/mizan.conf: no upstream block');
  text = text.replace(/https:\/\/([a-z]+)\.mizan\.example/g, (all, name) => {
    const port = name === 'app' ? ports.host : ports[name];
    if (!port) throw new Error(`no port for ${all}`);
    return `http://127.0.0.1:${port}`;
  });
  text = text.replace(/;\s*upgrade-insecure-requests"/g, '"');
  text = text.replaceAll('/etc/nginx/snippets/mizan/', `${prefix}/snippets/`);

  const host = serverBlock(text, 'server_name app.mizan.example;');
  const hostBlock = host.body
    .replace(/listen 80;/, `listen 127.0.0.1:${ports.host};`)
    .replace('server_name app.mizan.example;', 'server_name localhost;')
    .replace(/root \/srv\/mizan\/host;/, `root ${roots.host};`);
  const remote = serverBlock(text, 'server_name ~^(?<remote>');
  const remoteBlocks = REMOTES.filter((name) => !stopped.includes(name)).map((name) =>
    remote.body
      .replace(/listen 80;/, `listen 127.0.0.1:${ports[name]};`)
      .replace(/server_name [^;]+;/, `server_name localhost;`)
      .replace(/root \/srv\/mizan\/remotes\/\$remote;/, `root ${roots[name]};`),
  );
  for (const [block, what] of [[hostBlock, 'the host'], ...remoteBlocks.map((b) => [b, 'a remote'])])
    if (/listen 80;|\/srv\/mizan|mizan\.example/.test(block))
      throw new Error(`deploy/nginx/mizan.conf changed: ${what}'s server block kept a placeholder`);
  const [a, b] = host.start < remote.start ? [host, remote] : [remote, host];
  const blocks =
    host.start < remote.start
      ? [hostBlock, remoteBlocks.join('\n\n')]
      : [remoteBlocks.join('\n\n'), hostBlock];
  return text.slice(0, a.start) + blocks[0] + text.slice(a.end, b.start) + blocks[1] + text.slice(b.end);
}

/** nginx.conf of the temp prefix: this user, files and temp folders under `prefix`, the site. */
function nginxMainConfig(prefix) {
  const user = process.getuid?.() === 0 ? `user ${os.userInfo().username};\n` : '';
  return `${hasBrotli() ? 'load_module /usr/lib/nginx/modules/ngx_http_brotli_static_module.so;\n' : ''}${user}worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 512; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log ${prefix}/access.log;
  client_body_temp_path ${prefix}/temp/body;
  proxy_temp_path ${prefix}/temp/proxy;
  fastcgi_temp_path ${prefix}/temp/fastcgi;
  uwsgi_temp_path ${prefix}/temp/uwsgi;
  scgi_temp_path ${prefix}/temp/scgi;
  include ${prefix}/mizan.conf;
}
`;
}

/** deploy/nginx/snippets under `prefix` (without `brotli_static` where nginx lacks the module). */
function copySnippets(prefix) {
  const dir = path.join(prefix, 'snippets');
  fs.mkdirSync(dir, { recursive: true });
  for (const name of fs.readdirSync(path.join(NGINX_DIR, 'snippets'))) {
    let text = fs.readFileSync(path.join(NGINX_DIR, 'snippets', name), 'utf8');
    text = text.replaceAll('/etc/nginx/snippets/mizan/', `${dir}/`);
    if (!hasBrotli()) text = text.replace(/^\s*brotli_static on;\n/m, '');
    fs.writeFileSync(path.join(dir, name), text);
  }
}

async function startNginx(dir, site) {
  const prefix = path.join(dir, 'nginx');
  for (const sub of ['temp/body', 'temp/proxy', 'temp/fastcgi', 'temp/uwsgi', 'temp/scgi'])
    fs.mkdirSync(path.join(prefix, sub), { recursive: true });
  copySnippets(prefix);
  const conf = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(conf, nginxMainConfig(prefix));
  const writeSite = (options) =>
    fs.writeFileSync(path.join(prefix, 'mizan.conf'), nginxSiteConfig({ prefix, ...site, ...options }));
  writeSite({});
  const args = ['-p', `${prefix}/`, '-c', conf, '-e', path.join(prefix, 'error.log')];
  const check = spawnSync(NGINX, [...args, '-t'], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused the generated configuration:\n${check.stderr}`);
  const logFile = path.join(ARTIFACTS, 'deploy-nginx.log');
  fs.writeFileSync(logFile, '');
  const proc = startChild(NGINX, args, { env: process.env, logFile });
  await waitFor(() => listening(site.ports.host), { message: 'nginx listening' }).catch((error) => {
    error.message += `\n${tail(path.join(prefix, 'error.log'))}\n${tail(logFile)}`;
    throw error;
  });
  return {
    prefix,
    /** Rewrites the site (e.g. an origin stopped) and reloads nginx (SIGHUP): no dropped connection. */
    async reload(options) {
      writeSite(options);
      const test = spawnSync(NGINX, [...args, '-t'], { encoding: 'utf8' });
      if (test.status !== 0) throw new Error(`nginx -t:\n${test.stderr}`);
      proc.child.kill('SIGHUP');
    },
    stop: () => terminate(proc),
    errorLog: () => tail(path.join(prefix, 'error.log')),
  };
}

// ---- releases of the chat remote -------------------------------------------------------------------

/** Runs `npm run release -- <args>` (scripts/release.mjs) as an operator would; resolves to its output. */
export function runRelease(releasesDir, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'release.mjs'), ...args], {
      cwd: ROOT,
      env: { ...process.env, MIZAN_RELEASES_DIR: releasesDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`release exited ${code}:\n${out}`)),
    );
  });
}

// ---- the whole deployment ----------------------------------------------------------------------------

/**
 * Starts everything (the outside services, then both instances at once, then nginx) and returns
 * handles on each piece. `pgUrl`: the PostgreSQL server where a fresh database is made.
 */
export async function startDeployment({ pgUrl, instances: count = 2 }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-deploy-'));
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const cleanups = [];
  const deployment = {
    dir,
    /** Stops everything this deployment started, the last started first, and removes its files. */
    async close() {
      const errors = [];
      for (const cleanup of cleanups.reverse()) await cleanup().catch((e) => errors.push(e));
      fs.rmSync(dir, { recursive: true, force: true });
      if (errors.length) console.error(`[deploy] clean-up: ${errors.map((e) => e.message).join('; ')}`);
    },
  };
  try {
    const [redis, s3, db] = await Promise.all([startRedis(dir), startS3(dir), createPgDatabase(pgUrl)]);
    cleanups.push(
      () => redis.stop(),
      () => s3.stop(),
      () => db.drop(),
    );
    const sharedEnv = {
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      MIZAN_FILES_URL: s3.filesUrl,
      MIZAN_ADMIN_EMAIL: ADMIN.email,
      MIZAN_ADMIN_PASSWORD: ADMIN.password,
      // Every browser of the suite signs in from 127.0.0.1 (see e2e/lib/server.mjs).
      MIZAN_LOGIN_LIMIT_PER_IP: '1000',
      MIZAN_TRUST_PROXY: 'loopback',
    };
    const instances = [];
    for (let i = 1; i <= count; i++) instances.push(await createInstance(i, dir, sharedEnv));
    cleanups.push(() => Promise.all(instances.map((i) => i.stop())));
    // Both at once, as an orchestrator starts them: the migrations take a lock in the database.
    await Promise.all(instances.map((i) => i.start()));

    // The host's files with a deploy-time remotes.json beside them; the chat origin serves its
    // releases folder (deploy/README.md, "Separate origins"), the other remotes their build.
    const hostRoot = path.join(dir, 'host');
    fs.mkdirSync(hostRoot);
    for (const entry of fs.readdirSync(HOST_DIST))
      if (entry !== 'remotes.json') fs.symlinkSync(path.join(HOST_DIST, entry), path.join(hostRoot, entry));
    const releasesDir = path.join(dir, 'releases');
    const ports = { host: await freePort() };
    const roots = { host: hostRoot };
    for (const name of REMOTES) {
      ports[name] = await freePort();
      roots[name] = name === 'chat' ? path.join(releasesDir, 'chat') : path.join(REMOTES_DIR, name, 'dist');
    }
    const origin = (name) => `http://127.0.0.1:${ports[name]}`;
    const remotesJson = path.join(hostRoot, 'remotes.json');
    /** Write-then-rename, as an operator's switch: nginx never serves half a file. */
    const writeRemotes = (chatVersion) => {
      const map = Object.fromEntries(
        REMOTES.map((r) => [
          r,
          r === 'chat' ? `${origin(r)}/${chatVersion}/mf-manifest.json` : `${origin(r)}/mf-manifest.json`,
        ]),
      );
      fs.writeFileSync(`${remotesJson}.tmp`, `${JSON.stringify(map, null, 2)}\n`);
      fs.renameSync(`${remotesJson}.tmp`, remotesJson);
    };
    const chatDist = path.join(REMOTES_DIR, 'chat', 'dist');
    const firstRelease = await runRelease(releasesDir, ['chat', '--dist', chatDist]);
    const chatVersion = /^chat: (\S+) is current/m.exec(firstRelease)?.[1];
    if (!chatVersion) throw new Error(`the release did not name its version:\n${firstRelease}`);
    writeRemotes(chatVersion);

    const nginx = await startNginx(dir, { ports, apiPorts: instances.map((i) => i.port), roots });
    cleanups.push(() => nginx.stop());
    Object.assign(deployment, {
      /** Rows of the shared database (for failure reports: the sessions a sign-out left). */
      async query(text) {
        const { Client } = serverRequire('pg');
        const client = new Client({ connectionString: db.url });
        await client.connect();
        try {
          return (await client.query(text)).rows;
        } finally {
          await client.end();
        }
      },
      instances,
      nginx,
      ports,
      origin,
      baseURL: origin('host'),
      releasesDir,
      chatVersion,
      /**
       * Releases the chat remote again, as the CI artefact of another build would be
       * (`npm run release -- chat --dist <dir>`): the same files under a new version, the
       * version folder copied to the chat origin's root, then the host's remotes.json switched.
       */
      async releaseChat(version) {
        const artefact = path.join(dir, `chat-${version}`);
        fs.cpSync(chatDist, artefact, { recursive: true });
        const info = JSON.parse(fs.readFileSync(path.join(artefact, 'mizan-remote.json'), 'utf8'));
        const text = JSON.stringify({ ...info, version });
        fs.writeFileSync(path.join(artefact, 'mizan-remote.json'), text);
        // nginx sends the build's compressed siblings as they are (gzip_static): they must say the same.
        fs.writeFileSync(path.join(artefact, 'mizan-remote.json.gz'), zlib.gzipSync(text));
        fs.writeFileSync(path.join(artefact, 'mizan-remote.json.br'), zlib.brotliCompressSync(text));
        const output = await runRelease(releasesDir, ['chat', '--dist', artefact]);
        if (!output.includes(`chat: ${version} is current`))
          throw new Error(`unexpected release output:\n${output}`);
        writeRemotes(version);
      },
    });
    return deployment;
  } catch (error) {
    await deployment.close();
    throw error;
  }
}

/** The device headers a sign-in binds its token to (as the front end and e2e/lib/api.mjs send). */
export function fingerprintHeaders() {
  return {
    'x-fingerprint': randomBytes(16).toString('hex'),
    'x-fingerprint-session': randomBytes(32).toString('hex'),
  };
}
