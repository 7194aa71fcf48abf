import { DATE_FORMAT, SYSTEM, findEntity, registry, type Page } from '@mizan/contracts';
import { api } from '@mizan/sdk';
import { DualDate, RefSelect, usePickerLocale } from '@mizan/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Card,
  Collapse,
  DatePicker,
  Empty,
  Flex,
  Grid,
  List,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useGroupLabel } from '../roles/PermissionMatrix';
import { AuditValue, displayKeys, fieldLabel } from './AuditValue';
import { diffRows, type FieldChange } from './diff';
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

/** The before/after of one entry, field by field: translated labels, values as the lists show them. */
export function AuditDiff({ entry, stacked = false }: { entry: AuditEntry; stacked?: boolean }) {
  const { t, i18n } = useTranslation(['settings', 'entities', 'ui']);
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const hidden = displayKeys(findEntity(entry.entity));
  const changes = diffRows(entry.before, entry.after).filter((c) => !hidden.has(c.field));
  const cell = (c: FieldChange, side: 'before' | 'after') => (
    <Typography.Text
      delete={side === 'before' && entry.after !== null}
      type={side === 'before' ? 'danger' : 'success'}
    >
      <AuditValue
        entityName={entry.entity}
        field={c.field}
        value={c[side]}
        row={entry[side]}
        t={t}
        lng={lng}
      />
    </Typography.Text>
  );
  if (changes.length === 0)
    return <Typography.Text type="secondary">{t('settings:audit.diff.none')}</Typography.Text>;
  if (stacked)
    return (
      <dl style={{ margin: 0 }}>
        {changes.map((c) => (
          <div key={c.field} style={{ marginBlockEnd: 8 }}>
            <dt style={{ fontWeight: 600 }}>{fieldLabel(t, entry.entity, c.field)}</dt>
            <dd style={{ margin: 0, overflowWrap: 'anywhere' }}>
              {entry.before !== null && <div>{cell(c, 'before')}</div>}
              {entry.after !== null && <div>{cell(c, 'after')}</div>}
            </dd>
          </div>
        ))}
      </dl>
    );
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
          render: (_, c) => fieldLabel(t, entry.entity, c.field),
          width: 200,
        },
        { key: 'before', title: t('settings:audit.diff.before'), render: (_, c) => cell(c, 'before') },
        { key: 'after', title: t('settings:audit.diff.after'), render: (_, c) => cell(c, 'after') },
      ]}
    />
  );
}

/** The record an entry is about: its title (from the entry's own row) linked to its list. */
export function AuditRecord({ entry }: { entry: AuditEntry }) {
  const entity = findEntity(entry.entity);
  const row = entry.after ?? entry.before;
  const title = entity && row ? row[entity.titleField] : undefined;
  const text =
    typeof title === 'string' && title ? title : entry.entityId === null ? '' : `#${entry.entityId}`;
  if (!text) return null;
  // A deleted record has nowhere to go; the others open their list searched by the title.
  if (!entity || entry.after === null) return <bdi>{text}</bdi>;
  const search = typeof title === 'string' && title ? `?q=${encodeURIComponent(title)}` : '';
  return (
    <Link to={`${entity.route}${search}`}>
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
      render: (_, e) => who(e),
    },
    {
      key: 'action',
      dataIndex: 'action',
      title: t('audit.columns.action'),
      render: (v: string) => actionTag(v),
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
  const actionTag = (v: string) => (
    <Tag color={ACTION_COLORS[v] ?? 'default'}>{t(`audit.actions.${v}`, v)}</Tag>
  );
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
                {actionTag(e.action)}
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
