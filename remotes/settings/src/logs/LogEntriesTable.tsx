import type { Page } from '@mizan/contracts';
import { DualDate } from '@mizan/ui';
import { Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { Ltr } from './Ltr';
import { levelColor } from './StatsOverview';
import type { LogEntry } from './types';

export interface LogEntriesTableProps {
  page: Page<LogEntry> | undefined;
  loading?: boolean;
  onPageChange: (page: number, pageSize: number) => void;
}

/** One day's entries, paged by the server; a row expands to the whole entry as JSON. */
export function LogEntriesTable({ page, loading, onPageChange }: LogEntriesTableProps) {
  const { t } = useTranslation('settings');
  const columns: TableColumnsType<LogEntry> = [
    {
      key: 'time',
      dataIndex: 'time',
      title: t('logs.columns.time'),
      width: 190,
      render: (v: string) => <DualDate value={v} type="datetime" primaryOnly />,
    },
    {
      key: 'level',
      dataIndex: 'level',
      title: t('logs.columns.level'),
      width: 100,
      render: (v: string) => <Tag color={levelColor(v)}>{t(`logs.levels.${v}`, v)}</Tag>,
    },
    {
      key: 'request',
      title: t('logs.columns.route'),
      render: (_, r) =>
        r.method || r.route || r.url ? (
          <Typography.Text code dir="ltr">
            <Ltr>{[r.method, r.route ?? r.url].filter(Boolean).join(' ')}</Ltr>
          </Typography.Text>
        ) : null,
    },
    { key: 'statusCode', dataIndex: 'statusCode', title: t('logs.columns.status'), width: 90, align: 'end' },
    {
      key: 'responseTime',
      dataIndex: 'responseTime',
      title: t('logs.columns.duration'),
      width: 110,
      align: 'end',
      render: (v: number | null) => (typeof v === 'number' ? `${Math.round(v)} ms` : null),
    },
    {
      key: 'msg',
      title: t('logs.columns.message'),
      // Messages mix languages ("GET /api/x 404"): isolated so they keep their own order.
      render: (_, r) => <bdi>{r.err?.message ?? r.msg}</bdi>,
      ellipsis: true,
    },
  ];
  return (
    <Table<LogEntry>
      rowKey="line"
      size="small"
      loading={loading}
      columns={columns}
      dataSource={page?.items ?? []}
      expandable={{
        expandedRowRender: (r) => (
          <pre dir="ltr" style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontSize: 12 }}>
            {JSON.stringify(r, null, 2)}
          </pre>
        ),
      }}
      pagination={{
        current: page?.page ?? 1,
        pageSize: page?.pageSize ?? 20,
        total: page?.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: [20, 50, 100],
        showTotal: (total) => t('logs.totalEntries', { count: total }),
        onChange: onPageChange,
      }}
      scroll={{ x: 'max-content' }}
    />
  );
}
