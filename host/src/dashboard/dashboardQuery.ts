// The light contracts: this module is requested at sign-in, before the dashboard's call can start
// (./prefetch), and the full contracts (zod, every definition) would hold the call back.
import { LIGHT_DASHBOARD_ROUTES } from '@mizan/contracts/lightRoutes';
import type { DashboardQuery } from '@mizan/contracts';
import { DASHBOARD_QUERY, api } from '@mizan/sdk';

/** The filter of the dashboard as the page holds it (days `YYYY-MM-DD`). */
export interface DashboardFilter {
  from?: string;
  to?: string;
  branchId?: number;
}

/** Query keys of the dashboard: one entry per filter, all refreshed by one invalidation. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  one: (filter: DashboardFilter) => ['dashboard', filter] as const,
};

function toQuery(filter: DashboardFilter): DashboardQuery {
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== ''));
}

/** The dashboard's query for `filter` (`DASHBOARD_QUERY`: the seed's 300 s cache). */
export function dashboardQuery(filter: DashboardFilter) {
  return {
    queryKey: dashboardKeys.one(filter),
    queryFn: () => api.call(LIGHT_DASHBOARD_ROUTES.get, { query: toQuery(filter) }),
    ...DASHBOARD_QUERY,
  };
}
