import { DASHBOARD, emptyDashboard, permissionKey } from '@mizan/contracts';
import { permissionsAtom, wsClient, type ChannelMessage } from '@mizan/sdk';
import { useOfficeToday } from '@mizan/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useEffect, useMemo } from 'react';
import { dashboardKeys, dashboardQuery, type DashboardFilter } from './dashboardQuery';

/**
 * The office's figures for `filter`: cached 300 s (`DASHBOARD_QUERY`, the seed's dashboard cache),
 * refetched when a lawsuit, hearing, payment, client or employee the user may see changes (their
 * channels). When the call fails, `dashboard` is the seed's all-zero fallback and `failed` is set,
 * with `retry` to ask again.
 */
export function useDashboard(filter: DashboardFilter) {
  const queries = useQueryClient();
  const permissions = useAtomValue(permissionsAtom);
  const today = useOfficeToday();
  const query = useQuery(dashboardQuery(filter));

  // A channel is only joined with the permission to view what it carries.
  const channels = useMemo(
    () => DASHBOARD.channels.filter((channel) => permissions.has(permissionKey(channel, 'view'))),
    [permissions],
  );
  useEffect(() => {
    const refresh = (message: ChannelMessage) => {
      if (message.type === 'event') void queries.invalidateQueries({ queryKey: dashboardKeys.all });
    };
    const stops = channels.map((channel) => wsClient.subscribe(channel, refresh));
    return () => stops.forEach((stop) => stop());
  }, [channels, queries]);

  const fallback = useMemo(() => emptyDashboard(today), [today]);
  const failed = query.isError && !query.data;
  return {
    dashboard: query.data ?? (failed ? fallback : undefined),
    loading: query.isPending,
    failed,
    fetching: query.isFetching,
    retry: () => void query.refetch(),
  };
}
