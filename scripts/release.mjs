// Releases one remote on its own, while the server and the host keep running.
//
//   npm run release -- tasks                 build remotes/tasks into a new version folder, make it current
//   npm run release -- tasks --rollback      make the previous version current again
//   npm run release -- tasks --dist <dir>    release a build made elsewhere (CI artefact) instead of building
//
// Layout, under MIZAN_RELEASES_DIR (default: DATA_DIR/releases, DATA_DIR default ./data), read by the
// server on every `/remotes.json` request (server/src/static/releases.ts):
//   <remote>/<version>/mf-manifest.json, remoteEntry.js, mizan-remote.json, chunks…
//   <remote>/release.json   { "history": [older…, previous, current] }
// Old version folders are never deleted by a release: pages opened before it still load their chunks.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REMOTE_INFO_FILE = 'mizan-remote.json';
const STATE_FILE = 'release.json';
const NAME = /^[a-z][a-z0-9_]*$/;
const VERSION = /^[0-9A-Za-z][0-9A-Za-z.+-]*$/;

export class ReleaseError extends Error {}

/** Same resolution as the server's: both must agree on where releases live. */
export function releasesDir(env = process.env) {
  return path.resolve(
    env.MIZAN_RELEASES_DIR || path.join(env.DATA_DIR || path.join(ROOT, 'data'), 'releases'),
  );
}

function readHistory(dir, remote) {
  const file = path.join(dir, remote, STATE_FILE);
  if (!fs.existsSync(file)) return [];
  const { history } = JSON.parse(fs.readFileSync(file, 'utf8'));
  return Array.isArray(history) ? history : [];
}

/** Write-then-rename: the server never reads a half-written state. */
function writeHistory(dir, remote, history) {
  const file = path.join(dir, remote, STATE_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify({ history }, null, 2)}\n`);
  fs.renameSync(tmp, file);
}

/** `0.1.0-20261123180512`: the package version and the release time, sortable and URL-safe. */
function newVersion(remote) {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'remotes', remote, 'package.json'), 'utf8'));
  const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${version}-${stamp}`;
}

function buildRemote(remote, outDir, version) {
  const cwd = path.join(ROOT, 'remotes', remote);
  const result = spawnSync(
    path.join(cwd, 'node_modules', '.bin', 'webpack'),
    ['--mode', 'production', '--output-path', outDir],
    { cwd, stdio: 'inherit', env: { ...process.env, MIZAN_RELEASE_VERSION: version } },
  );
  if (result.status !== 0) throw new ReleaseError(`the build of ${remote} failed`);
}

function checkBuild(dir, remote) {
  for (const file of ['mf-manifest.json', 'remoteEntry.js', REMOTE_INFO_FILE]) {
    if (!fs.existsSync(path.join(dir, file)))
      throw new ReleaseError(`${dir} has no ${file}: not a remote build`);
  }
  const info = JSON.parse(fs.readFileSync(path.join(dir, REMOTE_INFO_FILE), 'utf8'));
  if (info.name !== remote) throw new ReleaseError(`${dir} is a build of ${info.name}, not ${remote}`);
  return info;
}

/**
 * Builds (or copies `dist`) into `<dir>/<remote>/<version>/` and makes it current.
 *
 * @returns {{ remote: string, version: string, previous: string | null }}
 */
export function release(remote, { dir = releasesDir(), dist } = {}) {
  const remoteDir = path.join(dir, remote);
  fs.mkdirSync(remoteDir, { recursive: true });
  // Dot-prefixed while incomplete: the server never serves it.
  const staging = path.join(remoteDir, `.staging-${process.pid}`);
  fs.rmSync(staging, { recursive: true, force: true });
  let version;
  try {
    if (dist) {
      fs.cpSync(dist, staging, { recursive: true });
      version = checkBuild(staging, remote).version;
    } else {
      version = newVersion(remote);
      buildRemote(remote, staging, version);
      checkBuild(staging, remote);
    }
    if (!VERSION.test(version)) throw new ReleaseError(`"${version}" is not a usable version`);
    const target = path.join(remoteDir, version);
    if (fs.existsSync(target)) throw new ReleaseError(`${remote} ${version} is already released`);
    fs.renameSync(staging, target);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  const history = readHistory(dir, remote);
  writeHistory(dir, remote, [...history, version]);
  return { remote, version, previous: history.at(-1) ?? null };
}

/** Makes the version before the current one current again (its files are still there). */
export function rollback(remote, { dir = releasesDir() } = {}) {
  const history = readHistory(dir, remote);
  if (history.length < 2) throw new ReleaseError(`${remote} has no previous release to go back to`);
  const rest = history.slice(0, -1);
  writeHistory(dir, remote, rest);
  return { remote, version: rest.at(-1), previous: history.at(-1) };
}

function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { rollback: { type: 'boolean' }, dist: { type: 'string' } },
  });
  const [remote] = positionals;
  if (positionals.length !== 1 || !NAME.test(remote)) {
    throw new ReleaseError('usage: npm run release -- <remote> [--rollback] [--dist <build dir>]');
  }
  if (!fs.existsSync(path.join(ROOT, 'remotes', remote, 'package.json'))) {
    throw new ReleaseError(`no remote "${remote}" in remotes/`);
  }
  const dir = releasesDir();
  const result = values.rollback
    ? rollback(remote, { dir })
    : release(remote, { dir, dist: values.dist && path.resolve(values.dist) });
  console.log(
    values.rollback
      ? `${remote}: back to ${result.version} (was ${result.previous}) in ${dir}`
      : `${remote}: ${result.version} is current (previous: ${result.previous ?? 'none'}) in ${dir}`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(`release: ${error instanceof ReleaseError ? error.message : error.stack}`);
    process.exit(1);
  }
}
