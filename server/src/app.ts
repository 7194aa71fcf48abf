import multipart from '@fastify/multipart';
import websocket from '@fastify/websocket';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyPluginAsync,
} from 'fastify';
import { registry, SETTINGS_LIMITS, uploadLimitBytes, type Entity, type Fields } from '@mizan/contracts';
import { authMigrations, authPlugin, authenticateSocket, guardRoutes } from './auth';
import { createBus, type Bus } from './bus';
import type { Config } from './config';
import { createDatabase, databaseAnswers, refreshPlannerStatistics } from './db';
import { runMigrations, type MigrationGroup } from './db/migrate';
import { coreMigrations, createMissingEntityTables, type Migration } from './db/migrations';
import { registerDocs } from './docs';
import { registerEngine } from './engine';
import { recountEntities } from './db/counts';
import { EntityServices } from './engine/service';
import { FileAccessRules } from './files/access';
import { registerFileRoutes, sweepFiles } from './files/routes';
import { createFileStore } from './files/store';
import { healthPlugin, Readiness } from './health';
import { registerMetrics } from './metrics';
import { chatMigrations, chatPlugin } from './chat';
import { clientsPlugin } from './clients';
import { importPlugin } from './import';
import { legalPlugin } from './legal';
import { notificationsMigrations, notificationsPlugin } from './notifications';
import { remindersPlugin } from './reminders';
import { installIdempotency } from './http/idempotency';
import { pluginNamed } from './http/pluginName';
import { jobsMigrations, jobsPlugin } from './jobs';
import { messagesMigrations, messagesPlugin } from './messages';
import { fileTextMigrations, fileTextPlugin } from './filetext';
import { dailyAt, schedulerMigrations, schedulerPlugin } from './scheduler';
import { dashboardMigrations, dashboardPlugin } from './dashboard';
import { deadlineMigrations, deadlinesPlugin } from './deadlines';
import { documentsPlugin } from './documents';
import { financeMigrations, financePlugin } from './finance';
import { peoplePlugin } from './people';
import { readTimeZone, systemMigrations, systemPlugin } from './system';
import { installErrorHandler } from './http/errorHandler';
import { registerHttpHeaders } from './http/headers';
import { createLogger } from './logging/logger';
import { installRequestLog } from './logging/requestLog';
import { backupsMigrations, backupsPlugin } from './backup/scheduled';
import { registerStatic } from './static';
import { tasksPlugin } from './tasks';
import { registerHub } from './ws/hub';
import './types';

/** Largest JSON body; uploads have their own per-field limits. */
const BODY_LIMIT = 1024 * 1024;

/**
 * The multipart parser's hard stop: the highest upload limit an office may set. The limit in force
 * (`maxUploadMb`, and a field's own lower bound) is checked on top as each file streams in.
 */
const MAX_UPLOAD = uploadLimitBytes(SETTINGS_LIMITS.maxUploadMb.max);

/** A feature module: its routes and hooks (a plugin), and its tables (a migration group). */
export interface AppModule {
  /** Also the name of its migration group: never rename a module that has migrations. */
  name: string;
  plugin: FastifyPluginAsync;
  migrations?: Migration[];
}

/**
 * The feature modules, in registration order: each comes after those it uses (people after
 * auth). Layers: kernel (db, http, bus, storage, audit) → auth guard → engine → these; the
 * kernel imports none of them. A module with migrations is appended after the others with
 * migrations: a group's position is part of its steps' recorded names.
 */
export const MODULES: readonly AppModule[] = [
  { name: 'auth', plugin: authPlugin, migrations: authMigrations },
  { name: 'people', plugin: peoplePlugin },
  { name: 'system', plugin: systemPlugin, migrations: systemMigrations },
  { name: 'import', plugin: importPlugin },
  { name: 'clients', plugin: clientsPlugin },
  { name: 'legal', plugin: legalPlugin },
  { name: 'notifications', plugin: notificationsPlugin, migrations: notificationsMigrations },
  { name: 'scheduler', plugin: schedulerPlugin, migrations: schedulerMigrations },
  { name: 'reminders', plugin: remindersPlugin },
  { name: 'tasks', plugin: tasksPlugin },
  { name: 'dashboard', plugin: dashboardPlugin, migrations: dashboardMigrations },
  { name: 'chat', plugin: chatPlugin, migrations: chatMigrations },
  { name: 'deadlines', plugin: deadlinesPlugin, migrations: deadlineMigrations },
  { name: 'documents', plugin: documentsPlugin },
  { name: 'backups', plugin: backupsPlugin, migrations: backupsMigrations },
  { name: 'finance', plugin: financePlugin, migrations: financeMigrations },
  { name: 'jobs', plugin: jobsPlugin, migrations: jobsMigrations },
  { name: 'filetext', plugin: fileTextPlugin, migrations: fileTextMigrations },
  { name: 'messages', plugin: messagesPlugin, migrations: messagesMigrations },
];

/** How often a SQLite connection refreshes its planner statistics (`PRAGMA optimize`). */
const OPTIMIZE_EVERY_MS = 6 * 60 * 60 * 1000;
/** How long one module may take to register (see the Fastify options below). */
const PLUGIN_TIMEOUT_MS = 10 * 60 * 1000;

/** Every migration group, in order: the kernel's, then each module's. */
export const MIGRATION_GROUPS: readonly MigrationGroup[] = [
  { group: 'core', migrations: coreMigrations },
  ...MODULES.flatMap((m) => (m.migrations ? [{ group: m.name, migrations: m.migrations }] : [])),
];

export interface AppOptions {
  /** Use this bus instead of a new one. */
  bus?: Bus;
  /** How often open WebSockets have their session checked again (default 60 s). */
  wsRecheckMs?: number;
  /**
   * Definitions served beside the registry (engine tests: an entity with actions, scope and
   * expand). Their tables are the caller's to create (`createEntityTable`).
   */
  entities?: readonly Entity<Fields>[];
  /** The current instant for the office's "today" (tests set the clock; default the system's). */
  clock?: () => Date;
}

/**
 * The whole server: database (migrated), logging, error handling, auth, engine routes, WebSocket
 * hub, docs, health and static files. Ready to `listen` when the promise resolves.
 *
 * @example
 * const app = await buildApp(loadConfig());
 * await app.listen({ port: app.config.port, host: app.config.host });
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const logs = createLogger({ dataDir: config.dataDir, level: config.logLevel, stdout: config.logToStdout });
  let bus: Bus;
  try {
    bus = options.bus ?? (await createBus(config.redisUrl, logs.logger));
  } catch (error) {
    logs.close();
    throw error;
  }
  const database = createDatabase(config.databaseUrl, {
    onError: (error) => logs.logger.warn({ err: error }, 'database connection lost'),
  });
  const app = Fastify({
    // pino's Logger carries more than Fastify's base type; typing it as the base keeps one instance type.
    loggerInstance: logs.logger as FastifyBaseLogger,
    // One completion line per request instead of Fastify's two (see logging/requestLog.ts).
    logController: new LogController({ disableRequestLogging: true }),
    // A module may build what it keeps from the tables while it registers, once per database
    // layout: the dashboard's aggregates take about 30 s at a million lawsuits (Fastify's default,
    // 10 s, stopped the first start after an upgrade).
    pluginTimeout: PLUGIN_TIMEOUT_MS,
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: (() => {
      let next = 0;
      return () => `req-${(++next).toString(36)}`;
    })(),
  });
  const fileStore = createFileStore(config);

  app.decorate('config', config);
  app.decorate('clock', options.clock ?? (() => new Date()));
  app.decorate('db', database.db);
  app.decorate('dialect', database.dialect);
  app.decorate('bus', bus);
  app.decorate('fileStore', fileStore);
  app.decorate('fileAccess', new FileAccessRules());
  const readiness = new Readiness(config.readyTimeoutMs);
  readiness.add('database', () => databaseAnswers(database.db));
  const pingBus = bus.ping?.bind(bus);
  if (pingBus) readiness.add('redis', async () => bus.up() && (await pingBus()));
  readiness.add('storage', () => fileStore.reachable());
  app.decorate('readiness', readiness);
  app.decorate(
    'entities',
    new EntityServices([...(registry as readonly Entity<Fields>[]), ...(options.entities ?? [])], {
      db: database.db,
      dialect: database.dialect,
      bus,
      files: fileStore,
      timeZone: () => readTimeZone(database.db),
      clock: options.clock,
    }),
  );
  app.addHook('onClose', async () => {
    await bus.close();
    await database.destroy();
    fileStore.close();
    logs.close();
  });

  try {
    await runMigrations(database.db, database.dialect, MIGRATION_GROUPS, {
      onNewer: (migrations) =>
        app.log.warn(
          { migrations },
          'the database has migrations this release does not know (a newer release ran them): serving on',
        ),
    });
    // A new entity's tables come from its definition alone (see createMissingEntityTables).
    await createMissingEntityTables(
      database.db,
      database.dialect,
      registry.map((e) => e.name),
    );
    await refreshPlannerStatistics(database.db, database.dialect);
  } catch (error) {
    await database.destroy();
    logs.close();
    throw error;
  }

  installErrorHandler(app);
  guardRoutes(app);
  installRequestLog(app);
  registerMetrics(app, { poolStats: database.poolStats });
  installIdempotency(app);
  await registerHttpHeaders(app);
  // An empty JSON body (a PATCH toggle sent with the JSON content type) means "no body", not 400.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    return parseJson(request, body as string, done);
  });
  await app.register(multipart, {
    // One byte over the largest limit, so the storage's own check answers with the limit in force.
    limits: { fileSize: MAX_UPLOAD + 1, files: 50, fields: 200, fieldSize: BODY_LIMIT, parts: 300 },
  });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await registerDocs(app);

  for (const module of MODULES) await app.register(pluginNamed(module.name, module.plugin));
  // SQLite's planner statistics, kept fresh on this connection as SQLite advises (see db/index.ts).
  if (app.dialect === 'sqlite') {
    const optimize = setInterval(() => {
      refreshPlannerStatistics(app.db, app.dialect).catch((error: unknown) =>
        app.log.warn({ err: error }, 'planner statistics not refreshed'),
      );
    }, OPTIMIZE_EVERY_MS);
    optimize.unref();
    app.addHook('onClose', async () => clearInterval(optimize));
  }
  await app.register(pluginNamed('health', healthPlugin), { prefix: '/api' });
  await registerEngine(app);
  await registerFileRoutes(app);
  // Files a killed process left half-stored, completed or removed once a day (and at start, main.ts).
  app.scheduler.define({
    name: 'files.sweep',
    schedule: dailyAt('03:30'),
    run: async () => {
      await sweepFiles(app);
    },
  });
  await registerHub(app, {
    auth: { authenticate: (token, fingerprint) => authenticateSocket(app.db, token, fingerprint) },
    recheckMs: options.wsRecheckMs,
  });
  await registerStatic(app);

  await app.ready();
  // Seeds and migrations write tables directly: start from exact totals.
  await recountEntities(database.db);
  return app;
}
