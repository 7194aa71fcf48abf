// The root commands. A fresh machine needs only Node and npm: pnpm comes through npx.
//   start  install, build, then serve API + host + remotes on one port (migrations run at start)
//   test   install, lint, format check, type-check, unit/integration tests, build, browser tests
//   dev    host, remotes and server with hot reload
//   build  install and build everything
//   bench  install, build, run the benchmarks
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { PNPM } from './pnpm.mjs';
import { SERVER_NODE_FLAGS } from './serverFlags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REMOTES = ['settings', 'clients', 'legal', 'tasks', 'chat'];
/**
 * Front-end packages type-checked together by `tsconfig.web-check.json` (compiled by webpack, never
 * emitted alone): one program reads the shared packages, antd and React types once, where a
 * `tsc -p` per package read them again for each (34 s against about 150 s).
 */
const WEB_CHECK = 'tsconfig.web-check.json';

function run(title, cmd, args, options = {}) {
  const started = Date.now();
  console.log(`\n▶ ${title}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`✖ ${title} failed (${seconds} s)`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${title} (${seconds} s)`);
}

const pnpm = (title, args, options) => run(title, 'npx', ['--yes', PNPM, ...args], options);
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function install() {
  pnpm('install dependencies', ['install', ...(process.env.CI ? ['--frozen-lockfile'] : [])]);
}

function build() {
  run('compile contracts and server (tsc -b)', bin('tsc'), ['-b']);
  pnpm('build host and remotes (webpack)', [
    '--filter',
    '@mizan/host',
    ...REMOTES.flatMap((r) => ['--filter', `@mizan/remote-${r}`]),
    '--workspace-concurrency=2',
    'run',
    'build',
  ]);
}

function serve() {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'server/dist/main.js'], {
    cwd: root,
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

/**
 * What the browser tests need beyond the repository, checked before the long steps: Debian's
 * Chromium (`E2E_CHROMIUM`, default /usr/bin/chromium), installed with apt-get when missing and
 * this user may (root). Nothing else: the application serves its own fonts, so the tests do not
 * depend on the fonts a system has.
 */
function browserPrerequisites() {
  const chromium = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
  if (fs.existsSync(chromium)) return;
  const canInstall = process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).status === 0;
  if (!canInstall) {
    console.error(
      `✖ browser tests need Chromium at ${chromium}: install Debian's package (apt-get install chromium) or set E2E_CHROMIUM`,
    );
    process.exit(1);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('install Debian chromium (apt-get)', 'apt-get', ['update', '-qq'], { env });
  run('install Debian chromium (apt-get)', 'apt-get', ['install', '-y', '-qq', 'chromium'], { env });
}

function typecheck() {
  run('type-check host, remotes and shared web packages (tsc)', bin('tsc'), ['-p', WEB_CHECK, '--noEmit']);
}

const commands = {
  start() {
    install();
    build();
    serve();
  },
  build() {
    install();
    build();
  },
  test() {
    browserPrerequisites();
    install();
    run('lint (eslint)', bin('eslint'), ['--max-warnings=0', '.']);
    run('format check (prettier)', bin('prettier'), ['--check', '.']);
    run('type-check contracts and server (tsc -b)', bin('tsc'), ['-b']);
    typecheck();
    // --forceExit: a leaked handle must not hang CI; Jest still prints the open-handle warning.
    run('unit and integration tests (jest)', bin('jest'), ['--ci', '--maxWorkers=2', '--forceExit']);
    build();
    pnpm('browser tests (e2e)', ['--filter', '@mizan/e2e', 'test']);
  },
  dev() {
    install();
    run('compile contracts (tsc -b)', bin('tsc'), ['-b', 'shared/contracts']);
    const procs = [
      ['server', ['--filter', '@mizan/server', 'run', 'dev']],
      ['host', ['--filter', '@mizan/host', 'run', 'dev']],
      ...REMOTES.map((r) => [r, ['--filter', `@mizan/remote-${r}`, 'run', 'dev']]),
    ].map(([name, args]) => {
      const child = spawn('npx', ['--yes', PNPM, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      const prefix = (chunk) => chunk.toString().replace(/^(?=.)/gm, `[${name}] `);
      child.stdout.on('data', (c) => process.stdout.write(prefix(c)));
      child.stderr.on('data', (c) => process.stderr.write(prefix(c)));
      return child;
    });
    for (const signal of ['SIGINT', 'SIGTERM'])
      process.on(signal, () => procs.forEach((p) => p.kill(signal)));
  },
  bench() {
    install();
    build();
    run('benchmarks', process.execPath, ['bench/run.mjs']);
  },
};

const command = commands[process.argv[2]];
if (!command) {
  console.error(`usage: node scripts/run.mjs ${Object.keys(commands).join('|')}`);
  process.exit(2);
}
command();
