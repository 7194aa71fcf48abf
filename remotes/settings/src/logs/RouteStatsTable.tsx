import { Progress, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { Ltr } from './Ltr';
import type { RouteStat } from './types';

const ms = (v: number | null) => (v === null ? '' : `${Math.round(v)} ms`);
const byNumber = (a: number | null, b: number | null) => (a ?? -1) - (b ?? -1);

/** Requests per route with error rate and p50/p95 durations; sorted by count, re-sortable. */
export function RouteStatsTable({ rows, loading }: { rows: RouteStat[]; loading?: boolean }) {
  const { t } = useTranslation('settings');
  const columns: TableColumnsType<RouteStat> = [
    {
      key: 'route',
      title: t('logs.columns.route'),
      render: (_, r) => (
        <Typography.Text code dir="ltr">
          <Ltr>{[r.method, r.route ?? t('logs.noRoute')].filter(Boolean).join(' ')}</Ltr>
        </Typography.Text>
      ),
      sorter: (a, b) => String(a.route).localeCompare(String(b.route)),
    },
    {
      key: 'count',
      dataIndex: 'count',
      title: t('logs.columns.count'),
      sorter: (a, b) => a.count - b.count,
      defaultSortOrder: 'descend',
      align: 'end',
    },
    {
      key: 'errors',
      dataIndex: 'errors',
      title: t('logs.columns.errors'),
      sorter: (a, b) => a.errors - b.errors,
      align: 'end',
      render: (v: number) => (v ? <Tag color="red">{v}</Tag> : 0),
    },
    {
      key: 'errorRate',
      title: t('logs.columns.errorRate'),
      sorter: (a, b) => a.errorRate - b.errorRate,
      width: 160,
      render: (_, r) => (
        <Progress
          percent={Math.round(r.errorRate * 1000) / 10}
          size="small"
          status={r.errorRate > 0.05 ? 'exception' : 'normal'}
          format={(p) => `${p}%`}
        />
      ),
    },
    {
      key: 'p50',
      title: t('logs.columns.p50'),
      sorter: (a, b) => byNumber(a.p50, b.p50),
      align: 'end',
      render: (_, r) => ms(r.p50),
    },
    {
      key: 'p95',
      title: t('logs.columns.p95'),
      sorter: (a, b) => byNumber(a.p95, b.p95),
      align: 'end',
      render: (_, r) => ms(r.p95),
    },
  ];
  return (
    <Table<RouteStat>
      rowKey={(r) => `${r.method ?? ''} ${r.route ?? ''}`}
      size="small"
      loading={loading}
      columns={columns}
      dataSource={rows}
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
      scroll={{ x: 'max-content' }}
    />
  );
}
