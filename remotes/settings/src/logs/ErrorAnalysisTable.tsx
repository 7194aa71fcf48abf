import { DualDate } from '@mizan/ui';
import { Space, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { Ltr } from './Ltr';
import type { ErrorGroup } from './types';

/** Errors of a day grouped by message and route, most frequent first; a row expands to its stack. */
export function ErrorAnalysisTable({ rows, loading }: { rows: ErrorGroup[]; loading?: boolean }) {
  const { t } = useTranslation('settings');
  const columns: TableColumnsType<ErrorGroup> = [
    {
      key: 'message',
      title: t('logs.columns.message'),
      render: (_, r) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text type="danger">
            <bdi>{r.message}</bdi>
          </Typography.Text>
          {r.type && <Typography.Text type="secondary">{r.type}</Typography.Text>}
        </Space>
      ),
    },
    {
      key: 'route',
      title: t('logs.columns.route'),
      render: (_, r) => (
        <Typography.Text code dir="ltr">
          <Ltr>{r.route ?? t('logs.noRoute')}</Ltr>
        </Typography.Text>
      ),
    },
    {
      key: 'statusCodes',
      title: t('logs.columns.status'),
      render: (_, r) => r.statusCodes.map((code) => <Tag key={code}>{code}</Tag>),
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
      key: 'firstSeen',
      dataIndex: 'firstSeen',
      title: t('logs.columns.firstSeen'),
      render: (v: string) => <DualDate value={v} type="datetime" primaryOnly />,
    },
    {
      key: 'lastSeen',
      dataIndex: 'lastSeen',
      title: t('logs.columns.lastSeen'),
      render: (v: string) => <DualDate value={v} type="datetime" primaryOnly />,
    },
  ];
  return (
    <Table<ErrorGroup>
      rowKey={(r) => `${r.route ?? ''}\u0000${r.message}`}
      size="small"
      loading={loading}
      columns={columns}
      dataSource={rows}
      expandable={{
        rowExpandable: (r) => Boolean(r.lastStack),
        expandedRowRender: (r) => (
          <pre dir="ltr" style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontSize: 12 }}>
            {r.lastReqId ? `${t('logs.columns.reqId')}: ${r.lastReqId}\n` : ''}
            {r.lastStack}
          </pre>
        ),
      }}
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
      scroll={{ x: 'max-content' }}
    />
  );
}
