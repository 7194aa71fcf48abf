import { DATE_FORMAT, SYSTEM, registry, type Page } from '@mizan/contracts';
import { api } from '@mizan/sdk';
import { DualDate, RefSelect } from '@mizan/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, DatePicker, Empty, Flex, Select, Space, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGroupLabel } from '../roles/PermissionMatrix';
import { diffRows, displayValue } from './diff';
import type { AuditEntry } from './types';

/** Entities whose changes are audited: every definition, plus the system settings. */
const AUDITED = [...registry.map((e) => e.name), 'systemSettings'];

const ACTION_COLORS: Record<string, string> = {
  create: 'green',
  update: 'blue',
  delete: 'red',
  status: 'gold',
  baned: 'volcano',
  import: 'cyan',
  resetPassword: 'purple',
  changePassword: 'purple',
  fileDelete: 'red',
  reset: 'magenta',
  appearance: 'geekblue',
};

export interface AuditFilters {
  employeeId?: number;
  entity?: string;
  from?: string;
  to?: string;
}

/** The before/after of one entry, field by field, with the entity's field labels. */
export function AuditDiff({ entry }: { entry: AuditEntry }) {
  const { t, i18n } = useTranslation(['settings', 'entities']);
  const changes = diffRows(entry.before, entry.after);
  const separator = i18n.language === 'ar' ? '، ' : ', ';
  const fieldLabel = (field: string) =>
    i18n.exists(`entities:${entry.entity}.fields.${field}`)
      ? t(`entities:${entry.entity}.fields.${field}`)
      : field;
  if (changes.length === 0)
    return <Typography.Text type="secondary">{t('settings:audit.diff.none')}</Typography.Text>;
  return (
    <Table
      size="small"
      pagination={false}
      rowKey="field"
      dataSource={changes}
      columns={[
        {
          key: 'field',
          title: t('settings:audit.diff.field'),
          render: (_, c) => fieldLabel(c.field),
          width: 200,
        },
        {
          key: 'before',
          title: t('settings:audit.diff.before'),
          render: (_, c) => (
            <Typography.Text delete={entry.after !== null} type="danger">
              {displayValue(c.before, separator)}
            </Typography.Text>
          ),
        },
        {
          key: 'after',
          title: t('settings:audit.diff.after'),
          render: (_, c) => (
            <Typography.Text type="success">{displayValue(c.after, separator)}</Typography.Text>
          ),
        },
      ]}
    />
  );
}

/** Who changed what and when, filterable by employee, entity and date. */
export function AuditPage() {
  const { t } = useTranslation('settings');
  const groupLabel = useGroupLabel();
  const [filters, setFilters] = useState<AuditFilters>({});
  const [pagination, setPagination] = useState({ page: 1, pageSize: 20 });
  const params = { ...filters, ...pagination, sort: 'createdAt:desc' };
  const list = useQuery({
    queryKey: ['audit', params],
    queryFn: () => api.get<Page<AuditEntry>>(SYSTEM.audit, { params }),
    placeholderData: keepPreviousData,
  });
  const setFilter = (patch: AuditFilters) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPagination((p) => ({ ...p, page: 1 }));
  };
  const onRange = (range: [Dayjs | null, Dayjs | null] | null) =>
    setFilter({ from: range?.[0]?.format('YYYY-MM-DD'), to: range?.[1]?.format('YYYY-MM-DD') });

  const columns: TableColumnsType<AuditEntry> = [
    {
      key: 'createdAt',
      dataIndex: 'createdAt',
      title: t('audit.columns.time'),
      width: 200,
      render: (v: string) => <DualDate value={v} type="datetime" />,
    },
    {
      key: 'employee',
      title: t('audit.columns.employee'),
      render: (_, e) => e.employee?.name ?? (e.employeeId ? `#${e.employeeId}` : t('audit.system')),
    },
    {
      key: 'action',
      dataIndex: 'action',
      title: t('audit.columns.action'),
      render: (v: string) => <Tag color={ACTION_COLORS[v] ?? 'default'}>{t(`audit.actions.${v}`, v)}</Tag>,
    },
    {
      key: 'entity',
      dataIndex: 'entity',
      title: t('audit.columns.entity'),
      render: (v: string) => groupLabel(v),
    },
    { key: 'entityId', dataIndex: 'entityId', title: t('audit.columns.record'), align: 'end' },
  ];

  return (
    <Card>
      <Flex wrap gap="middle" align="center" justify="space-between" style={{ marginBottom: 16 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('audit.title')}
        </Typography.Title>
        <Space wrap>
          <RefSelect
            entity="employees"
            allowClear
            aria-label={t('audit.filters.employee')}
            placeholder={t('audit.filters.employee')}
            style={{ minWidth: 200 }}
            value={filters.employeeId ?? null}
            onChange={(v) => setFilter({ employeeId: typeof v === 'number' ? v : undefined })}
          />
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            aria-label={t('audit.filters.entity')}
            placeholder={t('audit.filters.entity')}
            style={{ minWidth: 200 }}
            value={filters.entity}
            onChange={(entity?: string) => setFilter({ entity })}
            options={AUDITED.map((name) => ({ value: name, label: groupLabel(name) }))}
          />
          <DatePicker.RangePicker
            aria-label={t('audit.filters.date')}
            format={DATE_FORMAT}
            onChange={(range) => onRange(range as [Dayjs | null, Dayjs | null] | null)}
          />
        </Space>
      </Flex>
      <Table<AuditEntry>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: <Empty description={t('audit.empty')} /> }}
        expandable={{ expandedRowRender: (entry) => <AuditDiff entry={entry} /> }}
        pagination={{
          current: list.data?.page ?? pagination.page,
          pageSize: list.data?.pageSize ?? pagination.pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [20, 50, 100],
          onChange: (page, pageSize) => setPagination({ page, pageSize }),
        }}
        scroll={{ x: 'max-content' }}
      />
    </Card>
  );
}
