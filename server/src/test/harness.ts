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

async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.MIZAN_TEST_PG_URL;
  if (!base) throw new Error('MIZAN_TEST_PG_URL is not set: PostgreSQL tests cannot run');
  const name = `mizan_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
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

/**
 * A whole app (migrations, seed, every plugin) on a fresh database: a temp SQLite file, or a new
 * database on the `MIZAN_TEST_PG_URL` server, dropped at `close()`.
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
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-test-'));
  const database = dialect === 'postgres' ? await freshPostgres() : null;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    DATABASE_URL: database ? database.url : `sqlite:${path.join(dataDir, 'test.db')}`,
    MIZAN_ADMIN_EMAIL: TEST_ADMIN.email,
    MIZAN_ADMIN_PASSWORD: TEST_ADMIN.password,
    LOG_LEVEL: 'info',
    MIZAN_LOG_STDOUT: 'false',
    MIZAN_STATIC_DIR: path.join(dataDir, 'static'),
    ...options.env,
  };
  // The auth seed and mailer read a few settings from the environment too.
  const previous = { email: process.env.MIZAN_ADMIN_EMAIL, password: process.env.MIZAN_ADMIN_PASSWORD };
  process.env.MIZAN_ADMIN_EMAIL = env.MIZAN_ADMIN_EMAIL;
  process.env.MIZAN_ADMIN_PASSWORD = env.MIZAN_ADMIN_PASSWORD;
  // Sign-in limits counted in a shared Redis (`REDIS_URL`) get keys of this app's own, so that
  // test apps (both databases, parallel files, runs within a minute) never spend one budget; a
  // test of the shared budget sets one prefix for its instances itself.
  const ownLimitPrefix = process.env.MIZAN_RATE_LIMIT_PREFIX === undefined;
  if (ownLimitPrefix) process.env.MIZAN_RATE_LIMIT_PREFIX = `mizan-test:${crypto.randomUUID()}:rl:`;
  const config = loadConfig(env);
  const published: { channel: string; message: unknown }[] = [];
  let app: FastifyInstance;
  try {
    app = await buildApp(config, options.app);
  } catch (error) {
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  } finally {
    process.env.MIZAN_ADMIN_EMAIL = previous.email;
    process.env.MIZAN_ADMIN_PASSWORD = previous.password;
    if (previous.email === undefined) delete process.env.MIZAN_ADMIN_EMAIL;
    if (previous.password === undefined) delete process.env.MIZAN_ADMIN_PASSWORD;
    if (ownLimitPrefix) delete process.env.MIZAN_RATE_LIMIT_PREFIX;
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
