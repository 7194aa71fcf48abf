import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The previous release, for the test that runs its server against the schema this release
 * migrated (db/migrations/previousRelease.test.ts; deploy/README.md "Upgrades without downtime").
 */

/** The repository's root (this file is server/src/test/previousRelease.ts). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** Where each migration group's steps are declared, beside the files of server/src/db/migrations. */
const GROUP_DECLARATION = 'Migration\\[\\] = \\[';
/** Lines of app.ts that add, drop or reorder a migration group (`MODULES`, `MIGRATION_GROUPS`). */
const GROUP_LINES = '(migrations: [A-Za-z]+Migrations|MIGRATION_GROUPS|group: )';
const NOT_TESTS = ':(exclude,glob)**/*.test.ts';

export type PreviousRelease = { commit: string; subject: string; why: string } | { skip: string };

/**
 * The first release whose server starts on a database a newer release migrated (its migrator leaves
 * the steps it does not know alone). Instances of older releases must not be restarted during an
 * upgrade (deploy/README.md), so the test never picks one of them.
 */
const FIRST_TOLERANT = '794c812c7354bf0f5310be84a10c6123c0866004';

const isAncestor = (commit: string, of: string) =>
  spawnSync('git', ['merge-base', '--is-ancestor', commit, of], { cwd: REPO_ROOT }).status === 0;

function git(args: string[]): string {
  return execFileSync('git', args, {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/**
 * The code as it was just before the newest commit that changed the migrations: the parent of the
 * last commit touching server/src/db/migrations, a file declaring a migration group (each
 * module's `migrations.ts`, ...), or app.ts's list of groups. Uncommitted changes to those files
 * make HEAD the previous release. `MIZAN_PREVIOUS_RELEASE=<commit>` names it instead. Without
 * git history (an archive, a shallow clone) or with another lockfile (its dependencies are not
 * the ones installed here): `skip` says why.
 */
export function findPreviousRelease(env: NodeJS.ProcessEnv = process.env): PreviousRelease {
  try {
    if (git(['rev-parse', '--is-inside-work-tree']) !== 'true') throw new Error('not a work tree');
  } catch {
    return { skip: `no git history at ${REPO_ROOT} (not a git clone, or git is not installed)` };
  }
  const named = env.MIZAN_PREVIOUS_RELEASE?.trim();
  let commit: string;
  let why: string;
  if (named) {
    try {
      commit = git(['rev-parse', '--verify', '--quiet', `${named}^{commit}`]);
    } catch {
      throw new Error(`MIZAN_PREVIOUS_RELEASE="${named}" is not a commit of this repository`);
    }
    why = 'named by MIZAN_PREVIOUS_RELEASE';
  } else {
    if (git(['rev-parse', '--is-shallow-repository']) === 'true')
      return {
        skip: 'shallow clone: the commits before the last migration change may be missing (git fetch --unshallow)',
      };
    const declaring = git(['grep', '-l', '-E', GROUP_DECLARATION, '--', 'server/src', NOT_TESTS])
      .split('\n')
      .filter(Boolean);
    const paths = ['server/src/db/migrations', ...declaring, NOT_TESTS];
    if (git(['status', '--porcelain', '--', ...paths])) {
      commit = git(['rev-parse', 'HEAD']);
      why = 'HEAD: the migrations have uncommitted changes';
    } else {
      const touching = [
        git(['log', '-1', '--format=%H', 'HEAD', '--', ...paths]),
        git(['log', '-1', '--format=%H', '-G', GROUP_LINES, 'HEAD', '--', 'server/src/app.ts']),
      ].filter(Boolean);
      if (!touching.length) return { skip: 'no commit has changed the migrations' };
      const last = git(['rev-list', '-1', ...touching]);
      try {
        commit = git(['rev-parse', '--verify', '--quiet', `${last}^`]);
      } catch {
        return { skip: `the last commit that changed the migrations (${last.slice(0, 10)}) has no parent` };
      }
      why = `parent of ${last.slice(0, 10)} (${git(['log', '-1', '--format=%s', last]).slice(0, 80)}), the last commit that changed the migrations`;
      if (commit !== FIRST_TOLERANT && isAncestor(commit, FIRST_TOLERANT)) {
        why = `${FIRST_TOLERANT.slice(0, 10)}, the first release that starts on a newer schema (the ${why}, is older)`;
        commit = FIRST_TOLERANT;
      }
    }
  }
  if (spawnSync('git', ['diff', '--quiet', commit, '--', 'pnpm-lock.yaml'], { cwd: REPO_ROOT }).status !== 0)
    return {
      skip: `pnpm-lock.yaml differs from ${commit.slice(0, 10)}'s: its dependencies are not the ones installed here`,
    };
  return { commit, subject: git(['log', '-1', '--format=%s', commit]), why };
}

/** The packages of a release the server needs at run time, and the files their code reads. */
const RELEASE_PATHS = ['package.json', 'server', 'shared/contracts', 'shared/i18n'];
/** Compiled like `tsc -b` would (src → dist), TypeScript only: type checks are the release's own CI's. */
const COMPILED = [
  { src: 'server/src', dist: 'server/dist' },
  { src: 'shared/contracts/src', dist: 'shared/contracts/dist' },
];

interface Swc {
  transform(code: string, options: Record<string, unknown>): Promise<{ code: string }>;
}

/**
 * `commit`'s server in `dir`, ready for `node server/dist/main.js`: its files from `git archive`,
 * this checkout's installed packages linked in (its own workspace packages for `@mizan/*`), its
 * TypeScript compiled with swc (a second or two; `tsc -b` takes about a minute).
 */
export async function buildRelease(commit: string, dir: string): Promise<void> {
  const archive = execFileSync('git', ['archive', '--format=tar', commit, '--', ...RELEASE_PATHS], {
    cwd: REPO_ROOT,
    maxBuffer: 1 << 30,
  });
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive });
  if (untar.status !== 0) throw new Error(`tar failed: ${String(untar.stderr)}`);
  for (const pkg of ['server', 'shared/contracts', 'shared/i18n']) linkPackages(pkg, dir);
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');

  const swc = createRequire(path.join(REPO_ROOT, 'package.json'))('@swc/core') as Swc;
  const jobs: Promise<void>[] = [];
  for (const { src, dist } of COMPILED)
    for (const file of fs.readdirSync(path.join(dir, src), { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.endsWith('.d.ts')) continue;
      const from = path.join(dir, src, file);
      const to = path.join(dir, dist, file.replace(/\.ts$/, '.js'));
      jobs.push(
        (async () => {
          const { code } = await swc.transform(fs.readFileSync(from, 'utf8'), {
            filename: from,
            jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
            module: { type: 'commonjs' },
          });
          fs.mkdirSync(path.dirname(to), { recursive: true });
          fs.writeFileSync(to, code);
        })(),
      );
    }
  await Promise.all(jobs);
}

/**
 * `<dir>/<pkg>/node_modules`: a link to each of this checkout's installed packages of `pkg`, but
 * the workspace's own (`@mizan/*`) point at the release's copies in `dir`.
 */
function linkPackages(pkg: string, dir: string): void {
  const installed = path.join(REPO_ROOT, pkg, 'node_modules');
  const target = path.join(dir, pkg, 'node_modules');
  if (!fs.existsSync(installed)) return;
  fs.mkdirSync(target, { recursive: true });
  for (const entry of fs.readdirSync(installed)) {
    if (entry.startsWith('.')) continue;
    if (entry === '@mizan') {
      fs.mkdirSync(path.join(target, entry));
      for (const own of fs.readdirSync(path.join(installed, entry)))
        fs.symlinkSync(path.join(dir, 'shared', own), path.join(target, entry, own), 'dir');
    } else fs.symlinkSync(path.join(installed, entry), path.join(target, entry), 'dir');
  }
}

export interface RunningRelease {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** What the process wrote so far (its JSON log lines). */
  output(): string;
  /** SIGTERM, and its exit code once it has stopped. */
  stop(): Promise<number | null>;
}

/**
 * Starts `<dir>/server/dist/main.js` (`npm start`: migrate, seed, listen) with `env` only, on a
 * free port of 127.0.0.1; resolves once it serves, rejects with its output if it exits first.
 */
export function startRelease(dir: string, env: Record<string, string>): Promise<RunningRelease> {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: path.join(dir, 'server'),
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      MIZAN_LOG_STDOUT: 'true',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output)?.[1];
      if (!url) return;
      child.stdout.off('data', onData);
      child.stdout.on('data', (more: Buffer) => (output += more.toString()));
      resolve({
        url,
        output: () => output,
        stop: async () => {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          try {
            return await exited;
          } finally {
            clearTimeout(timer);
          }
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) =>
      reject(new Error(`the previous release exited (${code}) before serving:\n${output}`)),
    );
  });
}
