import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { DATE_FORMAT, LOG_ROUTES, pathOf } from '@mizan/contracts';
import { api } from '@mizan/sdk';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Dropdown,
  Empty,
  Flex,
  Input,
  Select,
  Space,
  Tabs,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Ltr } from './Ltr';
import { downloadFile } from '../common/download';
import { ErrorAnalysisTable } from './ErrorAnalysisTable';
import { LogEntriesTable } from './LogEntriesTable';
import { RouteStatsTable } from './RouteStatsTable';
import { StatsOverview } from './StatsOverview';
import { datesOf, levelsOf, type RouteStat } from './types';

/** Kinds of daily file the server keeps (all entries, errors only). */
export const LOG_FILE_TYPES = ['combined', 'error'] as const;

/** Distinct route patterns of the day, for the route filter. */
const routeOptions = (rows: RouteStat[] | undefined) =>
  [...new Set((rows ?? []).flatMap((r) => (r.route ? [r.route] : [])))]
    .sort()
    .map((r) => ({ value: r, label: <Ltr>{r}</Ltr>, title: r }));

export interface LogFilters {
  level?: string;
  route?: string;
  q?: string;
}

/** Reads the day's logs: dates, levels, statistics, entries, routes and errors. */
export function LogsPage() {
  const { t } = useTranslation('settings');
  const dates = useQuery({
    queryKey: ['logs', 'dates'],
    queryFn: () => api.call(LOG_ROUTES.dates),
    select: datesOf,
  });
  const [picked, setPicked] = useState<string>();
  // Newest day with a file unless the user picked one.
  const date = picked ?? dates.data?.at(-1);
  // Levels present in the chosen day, for the level filter.
  const levels = useQuery({
    queryKey: ['logs', 'levels', date],
    queryFn: () => api.call(LOG_ROUTES.levels, { query: { date } }),
    select: levelsOf,
    enabled: !!date,
  });
  const [filters, setFilters] = useState<LogFilters>({});
  const [pagination, setPagination] = useState({ page: 1, pageSize: 20 });
  const available = new Set(dates.data ?? []);

  const day = { date };
  const stats = useQuery({
    queryKey: ['logs', 'stats', day],
    queryFn: () => api.call(LOG_ROUTES.stats, { query: day }),
    enabled: !!date,
  });
  const routeStats = useQuery({
    queryKey: ['logs', 'route-stats', day],
    queryFn: () => api.call(LOG_ROUTES.routeStats, { query: day }),
    enabled: !!date,
  });
  const errors = useQuery({
    queryKey: ['logs', 'error-analysis', day],
    queryFn: () => api.call(LOG_ROUTES.errorAnalysis, { query: day }),
    enabled: !!date,
  });
  const entriesParams = { date, ...filters, ...pagination };
  const entries = useQuery({
    queryKey: ['logs', 'paginated', entriesParams],
    queryFn: () => api.call(LOG_ROUTES.paginated, { query: entriesParams }),
    enabled: !!date,
    placeholderData: keepPreviousData,
  });

  const setFilter = (patch: LogFilters) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPagination((p) => ({ ...p, page: 1 }));
  };
  const refresh = () => {
    void dates.refetch();
    if (!date) return;
    void levels.refetch();
    void stats.refetch();
    void routeStats.refetch();
    void errors.refetch();
    void entries.refetch();
  };

  if (dates.isSuccess && dates.data.length === 0)
    return (
      <Card title={t('logs.title')}>
        <Empty description={t('logs.noDates')} />
      </Card>
    );

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card>
        <Flex wrap gap="middle" align="center" justify="space-between">
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('logs.title')}
          </Typography.Title>
          <Space wrap>
            <DatePicker
              aria-label={t('logs.date')}
              format={DATE_FORMAT}
              allowClear={false}
              value={date ? dayjs(date) : null}
              disabledDate={(d) => !available.has(d.format('YYYY-MM-DD'))}
              onChange={(d) => {
                if (!d) return;
                setPicked(d.format('YYYY-MM-DD'));
                setPagination((p) => ({ ...p, page: 1 }));
              }}
            />
            <Dropdown
              disabled={!date}
              menu={{
                items: LOG_FILE_TYPES.map((type) => ({ key: type, label: t(`logs.fileTypes.${type}`) })),
                onClick: ({ key }) => {
                  if (date)
                    void downloadFile(
                      pathOf(LOG_ROUTES.download.path, { date, type: key }),
                      `${key}-${date}.log`,
                    );
                },
              }}
            >
              <Button icon={<DownloadOutlined />}>{t('logs.download')}</Button>
            </Dropdown>
            <Button icon={<ReloadOutlined />} onClick={refresh} aria-label={t('actions.refresh')} />
          </Space>
        </Flex>
      </Card>

      {stats.isError && <Alert type="error" showIcon title={t('logs.loadError')} />}
      <Tabs
        items={[
          {
            key: 'overview',
            label: t('logs.tabs.overview'),
            children: stats.data ? <StatsOverview stats={stats.data} /> : <Card loading />,
          },
          {
            key: 'entries',
            label: t('logs.tabs.entries'),
            children: (
              <Card>
                <Space wrap style={{ marginBottom: 16 }}>
                  <Select
                    allowClear
                    aria-label={t('logs.level')}
                    placeholder={t('logs.allLevels')}
                    style={{ minWidth: 140 }}
                    value={filters.level}
                    onChange={(level?: string) => setFilter({ level })}
                    options={(levels.data ?? []).map((l) => ({ value: l, label: t(`logs.levels.${l}`, l) }))}
                  />
                  <Select
                    allowClear
                    showSearch
                    aria-label={t('logs.route')}
                    placeholder={t('logs.allRoutes')}
                    style={{ minWidth: 260 }}
                    value={filters.route}
                    onChange={(route?: string) => setFilter({ route })}
                    options={routeOptions(routeStats.data)}
                  />
                  <Input.Search
                    allowClear
                    aria-label={t('logs.search')}
                    placeholder={t('logs.search')}
                    // The server refuses longer searches (422); the box stops at its limit instead.
                    maxLength={200}
                    onSearch={(q) => setFilter({ q: q.trim() || undefined })}
                    style={{ width: 240 }}
                  />
                </Space>
                <LogEntriesTable
                  page={entries.data}
                  loading={entries.isFetching}
                  onPageChange={(page, pageSize) => setPagination({ page, pageSize })}
                />
              </Card>
            ),
          },
          {
            key: 'routes',
            label: t('logs.tabs.routes'),
            children: (
              <Card>
                <RouteStatsTable rows={routeStats.data ?? []} loading={routeStats.isFetching} />
              </Card>
            ),
          },
          {
            key: 'errors',
            label: t('logs.tabs.errors'),
            children: (
              <Card>
                <ErrorAnalysisTable rows={errors.data ?? []} loading={errors.isFetching} />
              </Card>
            ),
          },
        ]}
      />
    </Space>
  );
}
