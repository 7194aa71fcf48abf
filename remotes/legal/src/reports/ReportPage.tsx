import { useMemo } from 'react';
import { Flex, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import {
  FINANCE_REPORT_ROUTES,
  moneyToMajor,
  permissionKey,
  type FinanceReportKey,
  type ReportAnswer,
  type ReportColumn,
  type ReportDefinition,
  type ReportQuery,
  type ReportRoute,
} from '@mizan/contracts';
import { useAtomValue } from 'jotai';
import { api, permissionsAtom, sdkStore } from '@mizan/sdk';
import {
  DateInput,
  DateRangeFilter,
  ExportButton,
  RefSelect,
  durationWords,
  formatMoney,
  parseDateValue,
  rangeReversed,
  toDateValue,
  type ExportColumn,
} from '@mizan/ui';

type Row = ReportAnswer['rows'][number];
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const FILTERS = ['from', 'to', 'asOf', 'customerId', 'branchId'] as const;

/** A report's filters, kept in the URL so that a filtered report is bookmarkable; malformed values are left out. */
function useReportFilter(): [ReportQuery, (change: ReportQuery) => void] {
  const [params, setParams] = useSearchParams();
  const text = FILTERS.map((key) => params.get(key) ?? '').join('|');
  const filter = useMemo<ReportQuery>(() => {
    const [from, to, asOf, customer, branch] = text.split('|') as [string, string, string, string, string];
    return {
      ...(DAY.test(from) ? { from } : {}),
      ...(DAY.test(to) ? { to } : {}),
      ...(DAY.test(asOf) ? { asOf } : {}),
      ...(/^\d+$/.test(customer) ? { customerId: Number(customer) } : {}),
      ...(/^\d+$/.test(branch) ? { branchId: Number(branch) } : {}),
    };
  }, [text]);
  const update = (change: ReportQuery) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const key of FILTERS) {
          if (!(key in change)) continue;
          const value = change[key];
          if (value === undefined || value === '') next.delete(key);
          else next.set(key, String(value));
        }
        return next;
      },
      { replace: true },
    );
  return [filter, update];
}

/** `YYYY-MM` as the month's name and year in the language. */
const monthName = (month: string, lng: string) =>
  new Intl.DateTimeFormat(lng === 'ar' ? 'ar-EG' : 'en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${month}-01T00:00:00Z`));

/**
 * One screen for every finance report of `FINANCE_REPORTS`: its filters (a day range or the day it is
 * taken at, a client, and a branch for whoever may see branches), its rows with a totals row, and the export to XLSX or CSV of exactly what
 * it shows (money in major units, time in hours, so a spreadsheet can sum them).
 */
export function ReportPage({ report }: { report: ReportDefinition }) {
  const { t, i18n } = useTranslation('legal');
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const [filter, setFilter] = useReportFilter();
  const permissions = useAtomValue(permissionsAtom, { store: sdkStore });
  const invalid = rangeReversed(filter);
  const query = useQuery({
    queryKey: ['finance', 'report', report.key, filter],
    queryFn: () =>
      api.call(FINANCE_REPORT_ROUTES[report.key as FinanceReportKey] as ReportRoute, { query: filter }),
    enabled: !invalid,
  });
  const title = t(`reports.${report.key}.title`);
  const label = (column: ReportColumn) => t(`reports.${report.key}.columns.${column.key}`);
  const none = (column: ReportColumn) => t(`reports.none.${column.key}`, { defaultValue: '—' });

  const text = (column: ReportColumn, row: Row): string => {
    const v = row[column.key];
    if (column.kind === 'money') return formatMoney(Number(v ?? 0), lng);
    if (column.kind === 'minutes') return durationWords(Number(v ?? 0), i18n.t.bind(i18n));
    if (column.kind === 'month') return typeof v === 'string' ? monthName(v, lng) : '';
    return v === null || v === undefined ? none(column) : String(v);
  };

  const columns: ColumnsType<Row> = report.columns.map((column) => ({
    key: column.key,
    title: label(column),
    align: column.kind === 'money' ? 'end' : 'start',
    render: (_: unknown, row: Row) => {
      const shown = <bdi>{text(column, row)}</bdi>;
      const id = column.link ? row[column.link.idKey] : null;
      return column.link && typeof id === 'number' ? (
        <Link to={`${column.link.route}/${id}`}>{shown}</Link>
      ) : (
        shown
      );
    },
  }));

  const exportColumns: ExportColumn<Row>[] = report.columns.map((column) => ({
    title: label(column),
    value: (row) => {
      const v = Number(row[column.key] ?? 0);
      if (column.kind === 'money') return Number(moneyToMajor(v));
      if (column.kind === 'minutes') return Math.round((v / 60) * 100) / 100;
      return text(column, row);
    },
  }));

  const data = query.data;
  const totalsRow: Row | null = data && data.rows.length ? { ...data.totals } : null;
  const day = (value: Parameters<typeof toDateValue>[0]) => toDateValue(value, 'date') ?? undefined;
  const asOfFilter = (
    <Flex gap={8} align="center">
      <Typography.Text type="secondary">{t('reports.filters.asOf')}</Typography.Text>
      <DateInput
        aria-label={t('reports.filters.asOf')}
        value={parseDateValue(filter.asOf, 'date')}
        onChange={(value) => setFilter({ asOf: day(value) })}
      />
    </Flex>
  );

  return (
    <div className="mizan-report" data-testid={`report-${report.key}`}>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBlockEnd: 16 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <ExportButton<Row>
          title={title}
          fetchRows={async () => [...(data?.rows ?? []), ...(totalsRow ? [totalsRow] : [])]}
          columns={exportColumns.map((column, index) =>
            index === 0
              ? { ...column, value: (row) => (row === totalsRow ? t('reports.total') : column.value(row)) }
              : column,
          )}
          disabled={!data?.rows.length}
        />
      </Flex>
      <Flex wrap gap={12} align="center" style={{ marginBlockEnd: 16 }}>
        {report.filter === 'range' ? <DateRangeFilter value={filter} onChange={setFilter} /> : asOfFilter}
        <RefSelect
          entity="customers"
          aria-label={t('reports.filters.customerId')}
          placeholder={t('reports.filters.customerId')}
          allowClear
          style={{ minInlineSize: 220 }}
          value={filter.customerId ?? null}
          onChange={(value) => setFilter({ customerId: typeof value === 'number' ? value : undefined })}
        />
        {permissions.has(permissionKey('branches', 'view')) && (
          <RefSelect
            entity="branches"
            aria-label={t('reports.filters.branchId')}
            placeholder={t('reports.filters.allBranches')}
            allowClear
            style={{ minInlineSize: 200 }}
            value={filter.branchId ?? null}
            onChange={(value) => setFilter({ branchId: typeof value === 'number' ? value : undefined })}
          />
        )}
      </Flex>
      {data && (
        <Typography.Paragraph type="secondary">
          {t('reports.summary', { count: data.rows.length, currency: data.currency })}
        </Typography.Paragraph>
      )}
      <Table<Row>
        rowKey={(row) => JSON.stringify(row)}
        columns={columns}
        dataSource={data?.rows ?? []}
        loading={query.isFetching}
        pagination={false}
        scroll={{ x: 'max-content' }}
        summary={() =>
          totalsRow ? (
            <Table.Summary fixed>
              <Table.Summary.Row>
                {report.columns.map((column, index) => (
                  <Table.Summary.Cell
                    key={column.key}
                    index={index}
                    align={column.kind === 'money' ? 'end' : 'start'}
                  >
                    <strong>
                      {index === 0 ? (
                        t('reports.total')
                      ) : column.key in totalsRow ? (
                        <bdi>{text(column, totalsRow)}</bdi>
                      ) : null}
                    </strong>
                  </Table.Summary.Cell>
                ))}
              </Table.Summary.Row>
            </Table.Summary>
          ) : null
        }
      />
    </div>
  );
}
