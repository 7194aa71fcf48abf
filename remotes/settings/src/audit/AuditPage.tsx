import { AUDIT_ROUTES, DATE_FORMAT, findEntity, registry } from '@mizan/contracts';
import { api } from '@mizan/sdk';
import {
  AuditAction,
  AuditDiff as EntityAuditDiff,
  DualDate,
  RefSelect,
  recordPath,
  usePickerLocale,
} from '@mizan/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Collapse, DatePicker, Empty, Flex, Grid, List, Select, Space, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useGroupLabel } from '../roles/PermissionMatrix';
import type { AuditEntry } from './types';

/** Entities whose changes are audited: every definition, plus the system settings. */
const AUDITED = [...registry.map((e) => e.name), 'systemSettings'];

export interface AuditFilters {
  employeeId?: number;
  entity?: string;
  from?: string;
  to?: string;
}

/**
 * The before/after of one entry (`AuditDiff` of `@mizan/ui`), the system settings' fields labelled
 * with this remote's own names.
 */
export function AuditDiff({ entry, stacked = false }: { entry: AuditEntry; stacked?: boolean }) {
  const { t } = useTranslation(['settings', 'entities']);
  return (
    <EntityAuditDiff
      entry={entry}
      stacked={stacked}
      fieldLabel={(entity, field) =>
        t(`entities:${entity}.fields.${field}`, {
          defaultValue: t(`settings:system.general.fields.${field}`, { defaultValue: field }),
        })
      }
    />
  );
}

/** The record an entry is about: its title (from the entry's own row) linked to its record page. */
export function AuditRecord({ entry }: { entry: AuditEntry }) {
  const entity = findEntity(entry.entity);
  const row = entry.after ?? entry.before;
  const title = entity && row ? row[entity.titleField] : undefined;
  const text =
    typeof title === 'string' && title ? title : entry.entityId === null ? '' : `#${entry.entityId}`;
  if (!text) return null;
  // A deleted record has nowhere to go; the others open their record page.
  if (!entity || entry.after === null || entry.entityId === null) return <bdi>{text}</bdi>;
  return (
    <Link to={recordPath(entity, entry.entityId)}>
      <bdi>{text}</bdi>
    </Link>
  );
}

/** Who changed what and when, filterable by employee, entity and date. */
export function AuditPage() {
  const { t } = useTranslation('settings');
  const groupLabel = useGroupLabel();
  const pickerLocale = usePickerLocale();
  // Under 768 px the trail is a list of cards: a table would push the page sideways on a phone.
  const stacked = Grid.useBreakpoint().md === false;
  const [filters, setFilters] = useState<AuditFilters>({});
  const [pagination, setPagination] = useState({ page: 1, pageSize: 20 });
  const params = { ...filters, ...pagination, sort: 'createdAt:desc' as const };
  const list = useQuery({
    queryKey: ['audit', params],
    queryFn: () => api.call(AUDIT_ROUTES.list, { query: params }),
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
      render: (_, e) => who(e),
    },
    {
      key: 'action',
      dataIndex: 'action',
      title: t('audit.columns.action'),
      render: (_, e) => <AuditAction entry={e} />,
    },
    {
      key: 'entity',
      dataIndex: 'entity',
      title: t('audit.columns.entity'),
      render: (v: string) => groupLabel(v),
    },
    { key: 'record', title: t('audit.columns.record'), render: (_, e) => <AuditRecord entry={e} /> },
  ];
  const who = (e: AuditEntry) => e.employee?.name ?? (e.employeeId ? `#${e.employeeId}` : t('audit.system'));
  const pager = {
    current: list.data?.page ?? pagination.page,
    pageSize: list.data?.pageSize ?? pagination.pageSize,
    total: list.data?.total ?? 0,
    onChange: (page: number, pageSize: number) => setPagination({ page, pageSize }),
  };

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
            locale={pickerLocale}
            format={DATE_FORMAT}
            onChange={(range) => onRange(range as [Dayjs | null, Dayjs | null] | null)}
          />
        </Space>
      </Flex>
      {stacked ? (
        <List<AuditEntry>
          loading={list.isFetching}
          dataSource={list.data?.items ?? []}
          locale={{ emptyText: <Empty description={t('audit.empty')} /> }}
          pagination={{ ...pager, size: 'small', simple: true }}
          renderItem={(e) => (
            <List.Item key={e.id} style={{ display: 'block', paddingInline: 0 }}>
              <Flex wrap gap={8} align="center">
                <AuditAction entry={e} />
                <Typography.Text strong>{groupLabel(e.entity)}</Typography.Text>
                <AuditRecord entry={e} />
              </Flex>
              <Typography.Text type="secondary" style={{ display: 'block', marginBlock: 4 }}>
                {who(e)} · <DualDate value={e.createdAt} type="datetime" primaryOnly />
              </Typography.Text>
              <Collapse
                size="small"
                ghost
                items={[
                  { key: 'diff', label: t('audit.diff.field'), children: <AuditDiff entry={e} stacked /> },
                ]}
              />
            </List.Item>
          )}
        />
      ) : (
        <Table<AuditEntry>
          rowKey="id"
          size="small"
          loading={list.isFetching}
          columns={columns}
          dataSource={list.data?.items ?? []}
          locale={{ emptyText: <Empty description={t('audit.empty')} /> }}
          expandable={{ expandedRowRender: (entry) => <AuditDiff entry={entry} /> }}
          pagination={{ ...pager, showSizeChanger: true, pageSizeOptions: [20, 50, 100] }}
          scroll={{ x: 'max-content' }}
        />
      )}
    </Card>
  );
}
