import {
  API_BASE,
  AREA_PERMISSIONS,
  DASHBOARD,
  branches,
  dashboard,
  dashboardQuery,
  lawsuitPayments,
  permissionKey,
  type Dashboard,
} from '@mizan/contracts';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { AuthUser } from '../auth/types';
import { officeToday } from '../engine/today';
import { AppError } from '../http/errors';
import { requestLanguage, translate } from '../http/messages';
import { defineRoute } from '../http/route';
import { readTimeZone } from '../system/settings/repository';
import { computeDashboard, type DashboardFilter } from './figures';
import { installStatsHooks } from './maintain';
import { rebuildStats } from './stats';

export { dashboardMigrations, rebuildStats, recount, storedStats } from './stats';

/**
 * How long a computed dashboard is served again without asking the database. Writes of the
 * entities it shows drop the whole cache at once (their bus events, so every instance hears
 * them); the time limit is what is left for the rest: a new day's "today".
 */
const CACHE_MS = 30_000;
/** Distinct filters kept at most (each a few kilobytes). */
const CACHE_ENTRIES = 200;

/** The part of the dashboard `user` may see: per-lawyer figures and fees need their permissions. */
export function forReader(figures: Dashboard, user: Pick<AuthUser, 'permissions'> | null): Dashboard {
  const { employeePerformance, financialStatistics, ...rest } = figures;
  const may = (key: string) => !!user?.permissions.has(key);
  return {
    ...rest,
    ...(may(AREA_PERMISSIONS.dashboardPerformance) ? { employeePerformance } : {}),
    ...(may(permissionKey(lawsuitPayments.name, 'view')) ? { financialStatistics } : {}),
  };
}

/** Figures per filter and day, dropped at once on any change to what they count. */
function dashboardCache(app: FastifyInstance) {
  const entries = new Map<string, { at: number; value: Promise<Dashboard> }>();
  const channels = new Set<string>(DASHBOARD.channels);
  const stop = app.bus.subscribe((channel) => {
    if (channels.has(channel)) entries.clear();
  });
  app.addHook('onClose', async () => stop());
  return async (key: string, compute: () => Promise<Dashboard>): Promise<Dashboard> => {
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && now - hit.at < CACHE_MS) return hit.value;
    if (entries.size >= CACHE_ENTRIES) entries.clear();
    const value = compute();
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
  await rebuildStats(app.db, app.dialect);
  const cached = dashboardCache(app);

  defineRoute(app, {
    method: 'GET',
    url: API_BASE + DASHBOARD.path,
    permission: AREA_PERMISSIONS.dashboardView,
    tags: ['dashboard'],
    summary: "The office's figures: counts, rates, upcoming hearings, recent lawsuits, distributions",
    query: dashboardQuery,
    response: dashboard,
    labels: 'dashboard.fields',
    handler: async (request, { query }) => {
      const lang = requestLanguage(request);
      const label = (field: string) => translate(lang, `dashboard.fields.${field}`);
      if (query.from && query.to && query.from > query.to)
        throw new AppError('validation', {
          errors: {
            from: [{ key: 'dashboard.fromAfterTo', params: { label: label('from'), to: query.to } }],
          },
        });
      if (query.branchId !== undefined) {
        const found = await app.db
          .selectFrom(branches.table)
          .select('id')
          .where('id', '=', query.branchId)
          .executeTakeFirst();
        if (!found)
          throw new AppError('validation', {
            errors: { branchId: [{ key: 'http.referenceMissing', params: { label: label('branchId') } }] },
          });
      }
      const { today } = officeToday(await readTimeZone(app.db), app.clock());
      const filter: DashboardFilter = { from: query.from, to: query.to, branchId: query.branchId };
      const key = JSON.stringify([today, filter.from ?? '', filter.to ?? '', filter.branchId ?? 0]);
      const figures = await cached(key, () => computeDashboard(app.db, app.dialect, filter, today));
      return { data: forReader(figures, request.user ?? null) };
    },
  });
};
// Hooks and routes belong to the app, not an encapsulated child context.
(dashboardPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
