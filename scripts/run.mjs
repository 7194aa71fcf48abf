// The root commands. A fresh machine needs only Node and npm: pnpm comes through npx.
//   start  install, build, then serve API + host + remotes on one port (migrations run at start)
//   demo   as start, on a data folder of its own filled with a sample office (scripts/demo.mjs)
//   test   install, lint, format check, type-check, unit/integration tests, build, browser tests,
//          the deployment suite (nginx in front of two instances)
//   dev    host, remotes and server with hot reload
//   build  install and build everything
//   bench  install, build, run the benchmarks
//
// Install and each front-end build are skipped while their inputs hash to what the last successful
// run recorded (shared/build/stamps.js): `npm start` on a current tree serves within seconds, and a
// `git pull` that changes one file rebuilds what reads it. `tsc -b` is incremental by itself.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import path from 'node:path';
import { PNPM } from './pnpm.mjs';
import { SERVER_NODE_FLAGS } from './serverFlags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { hashInputs, isCurrent, writeStamp, clearStamp } = createRequire(import.meta.url)(
  '../shared/build/stamps.js',
);
const REMOTES = ['settings', 'clients', 'legal', 'tasks', 'chat'];
/** Front-end apps, the slowest build first (so that the short ones fill the other core beside it). */
const APPS = ['host', ...['legal', 'clients', 'settings', 'tasks', 'chat'].map((r) => `remotes/${r}`)];
/**
 * Front-end packages type-checked together by `tsconfig.web-check.json` (compiled by webpack, never
 * emitted alone): one program reads the shared packages, antd and React types once, where a
 * `tsc -p` per package read them again for each (34 s against about 150 s).
 */
const WEB_CHECK = 'tsconfig.web-check.json';
/** Steps run side by side where they can: the machines this runs on have two cores. */
const CORES = 2;

const bin = (name) => path.join(root, 'node_modules', '.bin', name);

// ---- timing: every step's time, printed as a table when the command ends ------------------------

const stages = [];
const startedAt = Date.now();

/**
 * CPU seconds (user + system) of this process's finished children and everything they waited for
 * (Linux's cutime and cstime in /proc/self/stat; 0 elsewhere). A step's share of the machine is
 * the difference over it, divided by its wall time and the cores.
 */
function childCpuSeconds() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of proc(5), counted from the state (field 3); ticks of 1/100 s on Linux.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

function summary() {
  if (!stages.length) return;
  const width = Math.max(...stages.map((s) => s.title.length), 5);
  console.log(`\n${'stage'.padEnd(width)}  ${'seconds'.padStart(8)}  ${'cpu s'.padStart(7)}  result`);
  for (const s of stages) {
    const cpu = s.cpu === undefined ? '' : s.cpu.toFixed(0);
    console.log(
      `${s.title.padEnd(width)}  ${s.seconds.toFixed(1).padStart(8)}  ${cpu.padStart(7)}  ${s.result}`,
    );
  }
  const wall = (Date.now() - startedAt) / 1000;
  const cpu = childCpuSeconds();
  console.log(
    `${'total (wall clock)'.padEnd(width)}  ${wall.toFixed(1).padStart(8)}  ${cpu.toFixed(0).padStart(7)}` +
      `  ${Math.round((100 * cpu) / (wall * CORES))}% of ${CORES} cores busy`,
  );
}

function fail(title, seconds) {
  console.error(`✖ ${title} failed (${seconds.toFixed(1)} s)`);
  summary();
  process.exit(1);
}

/** Runs one step in the foreground, its output straight to the terminal. */
function run(title, cmd, args, options = {}) {
  const started = Date.now();
  const cpuBefore = childCpuSeconds();
  console.log(`\n▶ ${title}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  const seconds = (Date.now() - started) / 1000;
  const cpu = childCpuSeconds() - cpuBefore;
  stages.push({ title, seconds, cpu, result: result.status === 0 ? 'ok' : 'FAILED' });
  if (result.status !== 0) fail(title, seconds);
  console.log(
    `✔ ${title} (${seconds.toFixed(1)} s, ${cpu.toFixed(0)} CPU s: ${Math.round((100 * cpu) / (seconds * CORES))}% of ${CORES} cores)`,
  );
}

const skipped = (title, why) => {
  console.log(`\n• ${title}: ${why}`);
  stages.push({ title, seconds: 0, result: why });
};

/**
 * Runs steps side by side, at most `lanes` (`CORES` unless told) at once, in the order given. Each
 * step's output is held and printed whole when it ends, so that two steps' lines never interleave.
 * After a failure no further step starts; the command fails once the running ones end.
 *
 * @param {{ title: string, cmd: string, args: string[], cwd?: string, after?: () => void }[]} steps
 * @param {number} [lanes]
 */
async function parallel(steps, lanes = CORES) {
  const waiting = [...steps];
  /** The steps running, each with the promise of its end. */
  const running = new Map();
  let failed;

  const runStep = async (step) => {
    const started = Date.now();
    console.log(`▶ ${step.title} (started)`);
    const { code, output } = await new Promise((resolve) => {
      const child = spawn(step.cmd, step.args, {
        cwd: step.cwd ?? root,
        env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const chunks = [];
      child.stdout.on('data', (c) => chunks.push(c));
      child.stderr.on('data', (c) => chunks.push(c));
      child.on('error', (error) => resolve({ code: 1, output: String(error) }));
      child.on('close', (c) => resolve({ code: c, output: Buffer.concat(chunks).toString() }));
    });
    const seconds = (Date.now() - started) / 1000;
    console.log(`\n▶ ${step.title}`);
    if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
    stages.push({ title: step.title, seconds, result: code === 0 ? 'ok' : 'FAILED' });
    if (code === 0) {
      step.after?.();
      console.log(`✔ ${step.title} (${seconds.toFixed(1)} s)`);
    } else {
      console.error(`✖ ${step.title} failed (${seconds.toFixed(1)} s)`);
      failed ??= step;
    }
  };

  for (;;) {
    while (!failed && waiting.length && running.size < lanes) {
      const step = waiting.shift();
      running.set(
        step,
        runStep(step).then(() => running.delete(step)),
      );
    }
    if (!running.size) break;
    // Any running step's end may let the next one start.
    await Promise.race(running.values());
  }
  if (failed) {
    summary();
    process.exit(1);
  }
}

// ---- install ---------------------------------------------------------------------------------------

/** What the install depends on: the lockfile, the workspace and every package manifest, Node. */
function installHash() {
  const manifests = ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml'];
  for (const dir of ['host', 'server', 'e2e', 'remotes', 'shared']) {
    if (fs.existsSync(path.join(root, dir, 'package.json'))) manifests.push(`${dir}/package.json`);
    else if (fs.existsSync(path.join(root, dir)))
      for (const name of fs.readdirSync(path.join(root, dir)))
        if (fs.existsSync(path.join(root, dir, name, 'package.json')))
          manifests.push(`${dir}/${name}/package.json`);
  }
  return hashInputs(root, manifests, { node: process.version, pnpm: PNPM });
}
const INSTALL_STAMP = path.join(root, 'node_modules', '.mizan-install-stamp');

function install() {
  const hash = installHash();
  if (isCurrent(INSTALL_STAMP, hash, [path.join(root, 'node_modules', '.modules.yaml')]))
    return skipped('install dependencies', 'current (lockfile and manifests unchanged)');
  clearStamp(INSTALL_STAMP);
  run('install dependencies', 'npx', [
    '--yes',
    PNPM,
    'install',
    ...(process.env.CI ? ['--frozen-lockfile'] : []),
  ]);
  writeStamp(INSTALL_STAMP, hash);
}

// ---- build -----------------------------------------------------------------------------------------

/**
 * What a front-end app's build reads: its own folder, the shared packages (sources, build
 * configuration, translations), the root configuration and the lockfile (the versions of the
 * shared libraries are baked into each build), and the settings read from the environment.
 */
function appHash(app) {
  return hashInputs(
    root,
    [app, 'shared', 'package.json', 'pnpm-lock.yaml', 'tsconfig.base.json', 'tsconfig.web.json'],
    {
      MIZAN_RELEASE_VERSION: process.env.MIZAN_RELEASE_VERSION,
      MIZAN_SOURCE_MAPS: process.env.MIZAN_SOURCE_MAPS,
    },
  );
}
/** Inside `dist`, which webpack empties when it builds: a build made any other way drops it. */
const appStamp = (app) => path.join(root, app, 'dist', '.mizan-build-stamp');
const appOutput = (app) => path.join(root, app, 'dist', app === 'host' ? 'index.html' : 'mf-manifest.json');

/** Build steps of the apps whose inputs changed since their last build (`parallel` steps). */
function appBuilds() {
  const steps = [];
  for (const app of APPS) {
    const hash = appHash(app);
    const title = `build ${app} (webpack)`;
    if (isCurrent(appStamp(app), hash, [appOutput(app)])) {
      skipped(title, 'current (inputs unchanged)');
      continue;
    }
    steps.push({
      title,
      cmd: path.join(root, app, 'node_modules', '.bin', 'webpack'),
      args: ['--mode', 'production'],
      cwd: path.join(root, app),
      after: () => writeStamp(appStamp(app), hash),
    });
  }
  return steps;
}

const compileServer = () => ({
  title: 'compile contracts and server (tsc -b)',
  cmd: bin('tsc'),
  args: ['-b'],
});

async function build() {
  await parallel([...appBuilds(), compileServer()]);
}

function serve(extraArgs = [], env = process.env) {
  console.log(`\nready to serve after ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'server/dist/main.js', ...extraArgs], {
    cwd: root,
    stdio: 'inherit',
    env,
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

/**
 * What the tests need beyond the repository, checked before the long steps, as Debian packages
 * found by one command each. Chromium drives the browser tests (`E2E_CHROMIUM`, default
 * /usr/bin/chromium), nginx and redis-server the deployment suite. LibreOffice (PDF of generated documents), poppler (text of PDFs, pages as
 * images) and tesseract with Arabic and English data (OCR of scans) are optional when the
 * application runs, but the tests cover them. Missing packages are installed with one apt-get when
 * this user may (root); otherwise the run stops and names them. The application serves its own
 * fonts, so the tests do not depend on the fonts a system has.
 */
const SYSTEM_PACKAGES = [
  { pkg: 'chromium', present: () => fs.existsSync(process.env.E2E_CHROMIUM ?? '/usr/bin/chromium') },
  { pkg: 'libreoffice-writer-nogui', present: () => onPath('soffice') },
  { pkg: 'poppler-utils', present: () => onPath('pdftotext') && onPath('pdftoppm') },
  { pkg: 'tesseract-ocr', present: () => onPath('tesseract') },
  { pkg: 'tesseract-ocr-ara', present: () => tesseractHas('ara') },
  { pkg: 'tesseract-ocr-eng', present: () => tesseractHas('eng') },
  // The deployment suite (e2e/deploy, run with PostgreSQL) runs Debian's nginx and a private
  // redis-server.
  {
    pkg: 'nginx',
    present: () => !deploySuite() || fs.existsSync(process.env.E2E_NGINX ?? '/usr/sbin/nginx'),
  },
  { pkg: 'redis-server', present: () => !deploySuite() || onPath('redis-server') },
];

/** Whether `npm test` runs the deployment suite (e2e/deploy): with PostgreSQL, unless MIZAN_DEPLOY_SUITE=0. */
function deploySuite() {
  return Boolean(process.env.MIZAN_TEST_PG_URL) && process.env.MIZAN_DEPLOY_SUITE !== '0';
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function tesseractHas(lang) {
  const out = spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' });
  return out.status === 0 && `${out.stdout}${out.stderr}`.split('\n').some((l) => l.trim() === lang);
}

function systemPrerequisites() {
  const missing = SYSTEM_PACKAGES.filter((p) => !p.present()).map((p) => p.pkg);
  if (missing.length === 0) return;
  const canInstall = process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).status === 0;
  if (!canInstall) {
    console.error(`✖ the tests need Debian packages that are missing: apt-get install ${missing.join(' ')}`);
    process.exit(1);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const title = `install Debian packages (apt-get): ${missing.join(', ')}`;
  run(title, 'apt-get', ['update', '-qq'], { env });
  run(title, 'apt-get', ['install', '-y', '-qq', ...missing], { env });
}

const commands = {
  async start() {
    install();
    await build();
    serve();
  },
  async demo() {
    install();
    await build();
    const { prepareDemo } = await import('./demo.mjs');
    const env = await prepareDemo();
    serve([], env);
  },
  async build() {
    install();
    await build();
    summary();
  },
  async test() {
    systemPrerequisites();
    install();
    // Two phases: the server's compilation, the front-end builds and the checks two at a time;
    // then Jest (two workers), the browser tests and the deployment suite side by side, every one
    // needing the builds. Alone, the browser tests kept the cores about half busy and the
    // deployment suite less (they wait on pages, servers and timers): Jest beside them fills the
    // rest. Jest started beside the builds, with three workers, kept the machine 100% busy but
    // slowed single steps enough for tests that wait a bounded time to fail, for a few minutes won.
    const server = compileServer();
    const builds = appBuilds();
    const checks = [
      { title: 'lint (eslint)', cmd: bin('eslint'), args: ['--max-warnings=0', '.'] },
      {
        title: 'type-check host, remotes and shared web packages (tsc)',
        cmd: bin('tsc'),
        args: ['-p', WEB_CHECK, '--noEmit'],
      },
      { title: 'format check (prettier)', cmd: bin('prettier'), args: ['--check', '.'] },
    ];
    await parallel([server, ...builds, ...checks]);
    const e2e = path.join(root, 'e2e');
    const tests = [
      {
        // --forceExit: a leaked handle must not hang CI; Jest still prints the open-handle warning.
        title: 'unit and integration tests (jest)',
        cmd: bin('jest'),
        args: ['--ci', `--maxWorkers=${CORES}`, '--forceExit'],
      },
      { title: 'browser tests (e2e)', cmd: process.execPath, args: ['run.mjs'], cwd: e2e },
    ];
    // The separate deployment (nginx, two instances, Redis, S3) needs PostgreSQL: several
    // instances never share a SQLite file. MIZAN_DEPLOY_SUITE=0 skips it.
    const deployTests = {
      title: 'deployment tests (nginx, two instances)',
      cmd: process.execPath,
      args: ['deploy/run.mjs'],
      cwd: e2e,
    };
    if (deploySuite()) tests.push(deployTests);
    else
      skipped(
        deployTests.title,
        process.env.MIZAN_TEST_PG_URL ? 'MIZAN_DEPLOY_SUITE=0' : 'MIZAN_TEST_PG_URL not set',
      );
    await parallel(tests, tests.length);
    summary();
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
  async bench() {
    install();
    await build();
    run('benchmarks', process.execPath, ['bench/run.mjs']);
    summary();
  },
};

const command = commands[process.argv[2]];
if (!command) {
  console.error(`usage: node scripts/run.mjs ${Object.keys(commands).join('|')}`);
  process.exit(2);
}
await command();
