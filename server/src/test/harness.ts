import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp, type AppOptions } from '../app';
import type { Bus } from '../bus';
import { PRESENCE } from '../chat/live';
import { loadConfig, type Config } from '../config';
import type { Dialect } from '../db';

/** The first administrator every test app starts with (created by the auth seed). */
export const TEST_ADMIN = { email: 'admin@mizan.test', password: 'Admin-pass-2026' } as const;

/** The dialects to run database tests on: SQLite always, PostgreSQL when `MIZAN_TEST_PG_URL` is set. */
export function dialects(): Dialect[] {
  return process.env.MIZAN_TEST_PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * The dialect of a long suite split in two files, so that Jest's workers run its halves side by
 * side: SQLite in the suite's own file, PostgreSQL in its `.postgres.test.ts` twin, which sets
 * `MIZAN_TEST_DIALECT` and loads the suite (Jest gives each test file its own `process.env`).
 */
export function splitDialects(): Dialect[] {
  return process.env.MIZAN_TEST_DIALECT === 'postgres' ? ['postgres'] : ['sqlite'];
}

/**
 * One file's part of a long suite split in shards, so that Jest's workers share it: the items at
 * positions `shard`, `shard + of`, `shard + 2·of`, … (1-based). The suite's own file is shard 1;
 * each other shard's file sets `MIZAN_TEST_SHARD` and loads the suite (as a `.postgres.test.ts`
 * twin sets the dialect). An item added to the list lands in a shard by itself.
 */
export function shardOf<T>(items: readonly T[], of: number): { shard: number; items: T[] } {
  const shard = Number(process.env.MIZAN_TEST_SHARD ?? 1);
  if (!Number.isInteger(shard) || shard < 1 || shard > of)
    throw new Error(`MIZAN_TEST_SHARD must be a whole number from 1 to ${of}`);
  return { shard, items: items.filter((_, i) => i % of === shard - 1) };
}

export interface Session {
  token: string;
  /** Authorization and fingerprint headers for `app.inject`. */
  headers: Record<string, string>;
  user: { id: number; permissions: string[] } & Record<string, unknown>;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  dialect: Dialect;
  /** The in-process bus, with every message published since start (newest last). */
  bus: Bus;
  published: { channel: string; message: unknown }[];
  /** Signs in (the first administrator by default) through `POST /api/auth/login`. */
  login(email?: string, password?: string): Promise<Session>;
  close(): Promise<void>;
}

/** Runs `run` with a client of the `MIZAN_TEST_PG_URL` server, closed afterwards. */
async function pgAdmin<T>(run: (admin: pg.Client) => Promise<T>): Promise<T> {
  const base = process.env.MIZAN_TEST_PG_URL;
  if (!base) throw new Error('MIZAN_TEST_PG_URL is not set: PostgreSQL tests cannot run');
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.end();
  }
}

function pgDatabase(name: string): { url: string; drop(): Promise<void> } {
  const url = new URL(process.env.MIZAN_TEST_PG_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      pgAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

/** An empty database, or a copy of the database `template` (no one may be connected to it). */
async function freshPostgres(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `mizan_test_${crypto.randomBytes(6).toString('hex')}`;
  await pgAdmin((admin) => admin.query(`create database ${name}${template ? ` template ${template}` : ''}`));
  return pgDatabase(name);
}

/**
 * A fresh, empty database of `dialect` for tests that drive the database without an app
 * (migrations, schema): a temp SQLite file, or a new database on the `MIZAN_TEST_PG_URL` server.
 * `drop()` removes it.
 */
export async function freshDatabase(
  dialect: Dialect,
  prefix = 'mizan-db-',
): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'postgres') return freshPostgres();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return {
    url: `sqlite:${path.join(dir, 'test.db')}`,
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** `buildApp` with the settings the auth seed, the mailer and the sign-in limits read from `process.env`. */
async function startApp(config: Config, options?: AppOptions): Promise<FastifyInstance> {
  const previous = { email: process.env.MIZAN_ADMIN_EMAIL, password: process.env.MIZAN_ADMIN_PASSWORD };
  process.env.MIZAN_ADMIN_EMAIL = config.adminEmail ?? '';
  process.env.MIZAN_ADMIN_PASSWORD = config.adminPassword ?? '';
  // Sign-in limits counted in a shared Redis (`REDIS_URL`) get keys of this app's own, so that
  // test apps (both databases, parallel files, runs within a minute) never spend one budget; a
  // test of the shared budget sets one prefix for its instances itself.
  const ownLimitPrefix = process.env.MIZAN_RATE_LIMIT_PREFIX === undefined;
  if (ownLimitPrefix) process.env.MIZAN_RATE_LIMIT_PREFIX = `mizan-test:${crypto.randomUUID()}:rl:`;
  try {
    return await buildApp(config, options);
  } finally {
    process.env.MIZAN_ADMIN_EMAIL = previous.email;
    process.env.MIZAN_ADMIN_PASSWORD = previous.password;
    if (previous.email === undefined) delete process.env.MIZAN_ADMIN_EMAIL;
    if (previous.password === undefined) delete process.env.MIZAN_ADMIN_PASSWORD;
    if (ownLimitPrefix) delete process.env.MIZAN_RATE_LIMIT_PREFIX;
  }
}

/**
 * Databases as a first start leaves them (migrated, seeded with `TEST_ADMIN`), made once per Jest
 * worker and dialect and copied for each test app: a first start costs about 2 s on SQLite and
 * 4 s on PostgreSQL, most of it migrations and seed; a copy, a few milliseconds. Jest gives every
 * test file of a worker fresh modules and a fresh `process.env`, so a worker finds its template by
 * name: `mizan_test_template_<run>_<worker>`, the Jest process's and the worker's ids. Made under
 * another name and renamed once complete. Those of workers that are gone are removed here, this
 * run's by `jest.teardown.cjs`.
 */
const TEMPLATE_PREFIX = 'mizan_test_template_';
const TEMPLATE_NAME = /^mizan_test_template_(\d+)_(\d+)/;

const processGone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
};
const workerGone = (name: string) => processGone(Number(TEMPLATE_NAME.exec(name)?.[2]));

async function pgDatabaseNames(pattern: string): Promise<string[]> {
  const { rows } = await pgAdmin((admin) =>
    admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [pattern]),
  );
  return rows.map((r) => r.datname);
}

/** This worker's template: a file path (SQLite) or a database name (PostgreSQL). */
function templateOf(dialect: Dialect): Promise<string> {
  let made = templatesMade.get(dialect);
  if (!made) {
    templatesMade.set(dialect, (made = findOrMakeTemplate(dialect)));
    // A failed start is not kept: the next app of the file tries again.
    made.catch(() => templatesMade.delete(dialect));
  }
  return made;
}

/** Templates found or being made in this test file (apps started side by side wait for one). */
const templatesMade = new Map<Dialect, Promise<string>>();

async function findOrMakeTemplate(dialect: Dialect): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${process.ppid}_${process.pid}`;
  const building = `${name}_new`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-template-'));
  try {
    if (dialect === 'sqlite') {
      const file = path.join(os.tmpdir(), `${name}.db`);
      if (fs.existsSync(file)) return file;
      for (const orphan of fs.readdirSync(os.tmpdir()))
        if (orphan.startsWith(TEMPLATE_PREFIX) && workerGone(orphan))
          fs.rmSync(path.join(os.tmpdir(), orphan), { recursive: true, force: true });
      const draft = path.join(os.tmpdir(), `${building}.db`);
      fs.rmSync(draft, { force: true });
      // Closing checkpoints the write-ahead log into the file.
      await (await startApp(loadConfig(baseEnv(dataDir, `sqlite:${draft}`)))).close();
      keepFiles(dataDir, file);
      fs.renameSync(draft, file);
      return file;
    }
    if ((await pgDatabaseNames(name)).length) return name;
    for (const orphan of await pgDatabaseNames(`${TEMPLATE_PREFIX}%`))
      if (workerGone(orphan)) await pgDatabase(orphan).drop();
    await pgDatabase(building).drop();
    await pgAdmin((admin) => admin.query(`create database ${building}`));
    // Closing ends every connection: a database is copied only while no one is connected to it.
    await (await startApp(loadConfig(baseEnv(dataDir, pgDatabase(building).url)))).close();
    keepFiles(dataDir, path.join(os.tmpdir(), name));
    await pgAdmin((admin) => admin.query(`alter database ${building} rename to ${name}`));
    return name;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The files a first start stores (the starter document templates) kept beside the template, so
 * that each copy of its database finds the files its rows name.
 */
const templateFiles = (template: string) => `${template}.files`;
function keepFiles(dataDir: string, template: string): void {
  const kept = templateFiles(template);
  fs.rmSync(kept, { recursive: true, force: true });
  if (fs.existsSync(path.join(dataDir, 'files')))
    fs.cpSync(path.join(dataDir, 'files'), kept, { recursive: true });
}

/**
 * Options under which an app starts as the template did (same schema, seed and clock). Definitions
 * served beside the registry (`app.entities`) do not change it: their tables are the test's to
 * create after start, and migrations and the seed read the registry alone.
 */
// Files kept elsewhere (a bucket) are seeded there: the template's files are on its disk.
const SEEDING_ENV = [
  'DATABASE_URL',
  'DATA_DIR',
  'MIZAN_ADMIN_EMAIL',
  'MIZAN_ADMIN_PASSWORD',
  'MIZAN_FILES_URL',
];
function startsAsTemplate(options: { env?: Record<string, string>; app?: AppOptions }): boolean {
  if (options.app?.clock) return false;
  return !SEEDING_ENV.some((key) => options.env && key in options.env);
}

function baseEnv(dataDir: string, databaseUrl: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    MIZAN_ADMIN_EMAIL: TEST_ADMIN.email,
    MIZAN_ADMIN_PASSWORD: TEST_ADMIN.password,
    LOG_LEVEL: 'info',
    MIZAN_LOG_STDOUT: 'false',
    MIZAN_STATIC_DIR: path.join(dataDir, 'static'),
  };
}

/**
 * A whole app (migrations, seed, every plugin) on a fresh database: a temp SQLite file, or a new
 * database on the `MIZAN_TEST_PG_URL` server, dropped at `close()`. Unless its options change what
 * a first start writes, the database starts as a copy of the process's template (`templateOf`).
 *
 * @example
 * describe.each(dialects())('courts on %s', (dialect) => {
 *   let t: TestApp;
 *   beforeAll(async () => { t = await createTestApp({ dialect }); });
 *   afterAll(() => t.close());
 *   it('lists', async () => {
 *     const { headers } = await t.login();
 *     const res = await t.app.inject({ method: 'GET', url: '/api/admin/settings/courts/courts', headers });
 *     expect(res.statusCode).toBe(200);
 *   });
 * });
 */
export async function createTestApp(
  options: { dialect?: Dialect; env?: Record<string, string>; app?: AppOptions } = {},
): Promise<TestApp> {
  const dialect = options.dialect ?? 'sqlite';
  const template = startsAsTemplate(options) ? await templateOf(dialect) : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-test-'));
  const database = dialect === 'postgres' ? await freshPostgres(template) : null;
  const sqliteFile = path.join(dataDir, 'test.db');
  if (dialect === 'sqlite' && template) fs.copyFileSync(template, sqliteFile);
  if (template) {
    const kept = templateFiles(dialect === 'sqlite' ? template : path.join(os.tmpdir(), template));
    if (fs.existsSync(kept)) fs.cpSync(kept, path.join(dataDir, 'files'), { recursive: true });
  }
  const env: Record<string, string> = {
    ...baseEnv(dataDir, database ? database.url : `sqlite:${sqliteFile}`),
    ...options.env,
  };
  const config = loadConfig(env);
  const published: { channel: string; message: unknown }[] = [];
  let app: FastifyInstance;
  try {
    app = await startApp(config, options.app);
  } catch (error) {
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  // Presence heartbeats run on the instance's own clock: tests count what requests publish.
  app.bus.subscribe((channel, message) => {
    if (channel !== PRESENCE) published.push({ channel, message });
  });
  let sessions = 0;
  return {
    app,
    config,
    dialect,
    bus: app.bus,
    published,
    async login(email = TEST_ADMIN.email, password = TEST_ADMIN.password) {
      const fingerprintSession = `test-session-${++sessions}`;
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'x-fingerprint-session': fingerprintSession, 'x-fingerprint': 'test-device' },
        payload: { email, password },
      });
      if (res.statusCode !== 200) throw new Error(`login as ${email} failed: ${res.statusCode} ${res.body}`);
      const { data } = res.json() as { data: { token: string; user: Session['user'] } };
      return {
        token: data.token,
        user: data.user,
        headers: {
          authorization: `Bearer ${data.token}`,
          'x-fingerprint-session': fingerprintSession,
          'x-fingerprint': 'test-device',
        },
      };
    },
    async close() {
      await app.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
