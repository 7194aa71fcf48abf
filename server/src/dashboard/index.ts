import { AREA_PERMISSIONS, DASHBOARD, DASHBOARD_ROUTES, branches, type Dashboard } from '@mizan/contracts';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { AuthUser } from '../auth/types';
import { officeToday } from '../engine/today';
import { requireReference } from '../engine/writer';
import { requestLanguage, translate } from '../http/messages';
import { defineRoute } from '../http/route';
import { readTimeZone } from '../settings/repository';
import { computeDashboard, type DashboardFilter } from './figures';
import { installStatsHooks } from './maintain';
import { rebuildStats } from './stats';

export { dashboardMigrations, rebuildStats, recount, storedStats } from './stats';

/**
 * How long a computed dashboard is served again without asking the database. Writes of the
 * entities it shows drop the whole cache at once (their bus events, so every instance hears
 * them); the time limit is what is left for the rest (the office's time zone, a setting).
 */
const CACHE_MS = 5 * 60_000;
/** Distinct filters kept at most (each a few kilobytes). */
const CACHE_ENTRIES = 200;
/** After a change, the whole office's figures are computed again this long after the last one. */
const REWARM_MS = 1_000;
/** Branches whose unfiltered figures are kept warm beside the whole office's, at most. */
const WARM_BRANCHES = 20;

/** The part of the dashboard `user` may see: per-lawyer figures and fees need their permissions. */
export function forReader(figures: Dashboard, user: Pick<AuthUser, 'permissions'> | null): Dashboard {
  const { employeePerformance, financialStatistics, invoicing, ...rest } = figures;
  const may = (key: string) => !!user?.permissions.has(key);
  return {
    ...rest,
    ...(may(AREA_PERMISSIONS.dashboardPerformance) ? { employeePerformance } : {}),
    ...(may(AREA_PERMISSIONS.dashboardFinance) ? { financialStatistics } : {}),
    ...(may(AREA_PERMISSIONS.dashboardFinance) && invoicing ? { invoicing } : {}),
  };
}

/** Which permission-bound parts a reader sees, as a key of the serialized answers. */
function variantOf(user: Pick<AuthUser, 'permissions'> | null): string {
  const may = (key: string) => (user?.permissions.has(key) ? '1' : '0');
  return may(AREA_PERMISSIONS.dashboardPerformance) + may(AREA_PERMISSIONS.dashboardFinance);
}

/** A computed dashboard and its response bodies, serialized once per permission variant. */
class Answer {
  private readonly bodies = new Map<string, string>();

  constructor(readonly figures: Dashboard) {}

  body(user: Pick<AuthUser, 'permissions'> | null): string {
    const variant = variantOf(user);
    let body = this.bodies.get(variant);
    if (body === undefined) {
      body = JSON.stringify({ data: forReader(this.figures, user) });
      this.bodies.set(variant, body);
    }
    return body;
  }
}

/** Figures per filter and day, dropped at once on any change to what they count. */
function dashboardCache(app: FastifyInstance, onDrop: () => void) {
  const entries = new Map<string, { at: number; value: Promise<Answer> }>();
  const channels = new Set<string>(DASHBOARD.channels);
  const stop = app.bus.subscribe((channel) => {
    if (!channels.has(channel)) return;
    entries.clear();
    onDrop();
  });
  app.addHook('onClose', async () => stop());
  return async (key: string, compute: () => Promise<Dashboard>): Promise<Answer> => {
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && now - hit.at < CACHE_MS) return hit.value;
    if (entries.size >= CACHE_ENTRIES) entries.clear();
    const value = compute().then((figures) => new Answer(figures));
    entries.set(key, { at: now, value });
    // A failed computation is not kept.
    value.catch(() => entries.get(key)?.value === value && entries.delete(key));
    return value;
  };
}

/**
 * The dashboard module: maintained aggregates (stats.ts, kept by maintain.ts in every write's
 * transaction, built once from the base tables on a database that has none) and
 * `GET /api/admin/dashboard` (`Dashboard` of api/dashboard.ts), cached briefly per filter.
 */
export const dashboardPlugin: FastifyPluginAsync = async (app) => {
  installStatsHooks(app.entities);
  const started = performance.now();
  if (await rebuildStats(app.db, app.dialect))
    app.log.info(
      { seconds: Math.round(performance.now() - started) / 1000 },
      'dashboard aggregates built from the tables',
    );
  let rewarm: NodeJS.Timeout | undefined;
  const cached = dashboardCache(app, () => {
    clearTimeout(rewarm);
    rewarm = setTimeout(() => void warm(false), REWARM_MS);
    rewarm.unref();
  });
  const answer = async (filter: DashboardFilter) => {
    const { today } = officeToday(await readTimeZone(app.db), app.clock());
    const key = JSON.stringify([today, filter.from ?? '', filter.to ?? '', filter.branchId ?? 0]);
    return cached(key, () => computeDashboard(app.db, app.dialect, filter, today));
  };
  /**
   * Computes the unfiltered figures (the whole office's, then each branch's) into the cache, so
   * that the first dashboard after a start or a change is served from it; in the background,
   * never delaying the start or a write.
   */
  const warm = async (branchesToo: boolean) => {
    try {
      await answer({});
      if (!branchesToo) return;
      const rows = await app.db.selectFrom(branches.table).select('id').limit(WARM_BRANCHES).execute();
      for (const row of rows) await answer({ branchId: Number(row.id) });
    } catch (error) {
      app.log.warn({ err: error }, 'dashboard not computed ahead');
    }
  };
  app.addHook('onReady', async () => void warm(true));
  app.addHook('onClose', async () => clearTimeout(rewarm));

  defineRoute(app, DASHBOARD_ROUTES.get, {
    tags: ['dashboard'],
    labels: 'dashboard.fields',
    handler: async (request, { query }, reply) => {
      const lang = requestLanguage(request);
      const label = (field: string) => translate(lang, `dashboard.fields.${field}`);
      if (query.branchId !== undefined)
        await requireReference(app.db, {
          entity: branches.name,
          id: query.branchId,
          field: 'branchId',
          label: label('branchId'),
        });
      const found = await answer({ from: query.from, to: query.to, branchId: query.branchId });
      return reply.type('application/json; charset=utf-8').send(found.body(request.user ?? null));
    },
  });
};
// Hooks and routes belong to the app, not an encapsulated child context.
(dashboardPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
