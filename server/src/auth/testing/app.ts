import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { createDatabase, type Database, type Dialect } from '../../db';
import { migrationGroups } from '../../db/migrations';
import { installErrorHandler } from '../../http/errorHandler';
import { authPlugin, type AuthPluginOptions } from '../index';

/**
 * Interim test app for the auth module while the shared harness (`src/test/harness.ts`) is being
 * written: a fresh database (temp SQLite file, or a new PostgreSQL database when
 * `MIZAN_TEST_PG_URL` is set), every migration, the error handler and the auth plugin.
 */
export function dialects(): Dialect[] {
  return process.env.MIZAN_TEST_PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface AuthTestApp {
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

export async function createAuthTestApp(
  dialect: Dialect,
  options: AuthPluginOptions = {},
  extend?: (app: FastifyInstance) => Promise<void> | void,
): Promise<AuthTestApp> {
  let database: Database;
  let cleanup: () => Promise<void>;
  if (dialect === 'postgres') {
    const base = process.env.MIZAN_TEST_PG_URL!;
    const name = `mizan_auth_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    database = createDatabase(url.toString());
    cleanup = async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-auth-'));
    database = createDatabase(`sqlite:${path.join(dir, 'test.db')}`);
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  for (const { migrations } of migrationGroups) {
    for (const migration of migrations) await migration.up(database.db, database.dialect);
  }
  const app = Fastify({ logger: false });
  app.decorate('db', database.db);
  installErrorHandler(app);
  await app.register(authPlugin, {
    config: { smtpUrl: null, adminEmail: 'admin@law.test', adminPassword: 'Admin-pass-1', ...options.config },
    ...options,
  });
  if (extend) await extend(app);
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.destroy();
      await cleanup();
    },
  };
}
