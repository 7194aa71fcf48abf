import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import client from 'prom-client';
import { API_BASE, METRICS } from '@mizan/contracts';

/** Where `npm run backup` puts its archives by default (scheduled ones go to the backups' store). */
export const backupsDir = (dataDir: string): string => path.join(dataDir, 'backups');

/** The newest complete archive in `dir` (its modification time), or null when there is none. */
async function newestBackup(dir: string): Promise<Date | null> {
  let newest: Date | null = null;
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.endsWith('.tar.gz')) continue;
    const stat = await fs.promises.stat(path.join(dir, name)).catch(() => null);
    if (stat && (!newest || stat.mtime > newest)) newest = stat.mtime;
  }
  return newest;
}

/**
 * The instance's Prometheus metrics, in a registry of the app's own (several apps may live in one
 * process: tests): request duration per route, the Node process (event-loop lag, memory, handles),
 * the database pool, open WebSockets, the scheduler's jobs and the age of the newest backup.
 * Served on `MIZAN_METRICS_PORT` at `/metrics`, or at `/api/metrics` with `MIZAN_METRICS_TOKEN`
 * as a bearer token; neither set: nothing is measured.
 */
export function registerMetrics(
  app: FastifyInstance,
  sources: { poolStats?: () => { total: number; idle: number; waiting: number } },
): client.Registry | null {
  const { metricsPort, metricsToken } = app.config;
  // Nothing measured where nobody reads it (the event-loop monitor and a hook on every request).
  if (metricsPort === null && metricsToken === null) return null;
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const duration = new client.Histogram({
    name: 'mizan_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The pattern, never the URL: ids and queries would make a series per request.
    const route = request.routeOptions.url ?? 'unmatched';
    duration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  new client.Gauge({
    name: 'mizan_websocket_connections',
    help: 'Open WebSocket connections on this instance',
    registers: [registry],
    collect() {
      this.set(app.hub?.socketCount ?? 0);
    },
  });

  const pool = new client.Gauge({
    name: 'mizan_db_pool_connections',
    help: 'PostgreSQL pool connections of this instance by state (total, idle, waiting requests)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = sources.poolStats?.();
      if (!stats) return;
      pool.set({ state: 'total' }, stats.total);
      pool.set({ state: 'idle' }, stats.idle);
      pool.set({ state: 'waiting' }, stats.waiting);
    },
  });

  const jobGauge = (name: string, help: string) =>
    new client.Gauge({ name, help, labelNames: ['job'], registers: [registry] });
  const jobNext = jobGauge(
    'mizan_job_next_run_timestamp_seconds',
    'When each scheduled job runs next (Unix time)',
  );
  const jobLast = jobGauge(
    'mizan_job_last_run_timestamp_seconds',
    'When each scheduled job last ran to completion (Unix time)',
  );
  const jobFailing = jobGauge(
    'mizan_job_failing',
    '1 when the last run of the job failed (it is retried), 0 otherwise',
  );
  const jobRunning = jobGauge(
    'mizan_job_running',
    '1 while an instance holds the job (running it), 0 otherwise',
  );
  /** The jobs' gauges from one read of their rows (prom-client collects metrics side by side). */
  const readJobs = async () => {
    const rows = await app.db.selectFrom('scheduled_jobs').selectAll().execute();
    const now = app.clock().getTime();
    const seconds = (at: unknown) => new Date(String(at)).getTime() / 1000;
    for (const row of rows) {
      const job = String(row.name);
      jobNext.set({ job }, seconds(row.next_run_at));
      if (row.last_run_at) jobLast.set({ job }, seconds(row.last_run_at));
      jobFailing.set({ job }, row.last_error ? 1 : 0);
      const held = row.lease_until !== null && new Date(String(row.lease_until)).getTime() > now;
      jobRunning.set({ job }, held ? 1 : 0);
    }
  };
  const scrape = async () => {
    await readJobs();
    return registry.metrics();
  };

  new client.Gauge({
    name: 'mizan_backup_age_seconds',
    help: `Age of the newest backup: the scheduled or manual ones listed in the backups screen, or an archive of npm run backup in ${backupsDir('$DATA_DIR')} (absent when there is none)`,
    registers: [registry],
    async collect() {
      const listed = await app.db
        .selectFrom('backups')
        .select((eb) => eb.fn.max('finished_at').as('at'))
        .where('state', '=', 'done')
        .executeTakeFirst()
        .catch(() => undefined);
      const candidates = [await newestBackup(backupsDir(app.config.dataDir))];
      if (listed?.at)
        candidates.push(new Date(String(listed.at instanceof Date ? listed.at.toISOString() : listed.at)));
      const newest = candidates.reduce<Date | null>((a, b) => (b && (!a || b > a) ? b : a), null);
      if (newest) this.set((app.clock().getTime() - newest.getTime()) / 1000);
      else this.reset();
    },
  });

  if (metricsToken) {
    const expected = crypto.createHash('sha256').update(metricsToken).digest();
    app.get(
      `${API_BASE}${METRICS}`,
      // Public to the session guard: the metrics token, checked below, is its own authentication.
      { config: { public: true }, schema: { hide: true } },
      async (request, reply) => {
        const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
        // Compared as hashes: equal lengths, and no timing hint about the token.
        if (!crypto.timingSafeEqual(crypto.createHash('sha256').update(given).digest(), expected))
          return reply
            .status(401)
            .header('www-authenticate', 'Bearer')
            .send({ message: 'metrics token required' });
        return reply.type(registry.contentType).send(await scrape());
      },
    );
  }
  if (metricsPort !== null) {
    const server = http.createServer((request, response) => {
      if (request.url !== METRICS) {
        response.writeHead(404).end();
        return;
      }
      scrape().then(
        (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (error: unknown) => {
          app.log.error({ err: error }, 'metrics not collected');
          response.writeHead(500).end();
        },
      );
    });
    app.addHook('onListen', async () => {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(metricsPort, app.config.host, () => resolve());
      });
    });
    app.addHook('onClose', async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  }
  return registry;
}
