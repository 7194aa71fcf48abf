import { useState } from 'react';
import { Button, Flex, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import {
  FINANCE_ROUTES,
  invoices,
  moneyToMajor,
  payments,
  retainerMovements,
  type CustomerStatement as Statement,
} from '@mizan/contracts';
import { api } from '@mizan/sdk';
import {
  DateRangeFilter,
  ExportButton,
  exportDate,
  formatMoney,
  rangeReversed,
  type DateRange,
  type ExportColumn,
} from '@mizan/ui';
import './statement.css';

type Entry = Statement['entries'][number];
type Range = DateRange;

/** Where each kind of line is kept: invoices and credit notes, payments, retainer movements. */
const RECORD_ROUTE: Record<Entry['kind'], string> = {
  invoice: invoices.route,
  creditNote: invoices.route,
  payment: payments.route,
  deposit: retainerMovements.route,
  apply: retainerMovements.route,
  refund: retainerMovements.route,
};

const MONEY_COLUMNS = ['debit', 'credit', 'balance', 'retainer'] as const;

/** Query key of a client's statement over a range. */
export const customerStatementKey = (customerId: number, range: Range) =>
  ['finance', 'statement', customerId, range] as const;

/**
 * A client's statement, a tab of the client page: issued invoices and credit notes, payments and
 * retainer movements in day order over a range, with the opening balance, what is owed and held
 * after each line, and the sums. It prints on its own (the browser's print dialog, `statement.css`)
 * and exports to XLSX or CSV as shown.
 */
export function CustomerStatement({
  customerId,
  customerName,
}: {
  customerId: number;
  customerName: string;
}) {
  const { t, i18n } = useTranslation('clients');
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const [range, setRange] = useState<Range>({});
  const invalid = rangeReversed(range);
  const query = useQuery({
    queryKey: customerStatementKey(customerId, range),
    queryFn: () => api.call(FINANCE_ROUTES.customerStatement, { params: { id: customerId }, query: range }),
    enabled: !invalid,
  });
  const data = query.data;
  const money = (v: number) => <bdi>{formatMoney(v, lng)}</bdi>;
  // The opening line (id 0) has a balance only.
  const kind = (entry: Entry) => (entry.id ? t(`statement.kinds.${entry.kind}`) : t('statement.opening'));
  const shown = (e: Entry, key: (typeof MONEY_COLUMNS)[number]) =>
    e.id ? (key !== 'debit' && key !== 'credit') || e[key] !== 0 : key === 'balance';

  const columns: ColumnsType<Entry> = [
    {
      key: 'date',
      title: t('statement.columns.date'),
      dataIndex: 'date',
      render: (v: string) => <bdi>{v}</bdi>,
    },
    { key: 'kind', title: t('statement.columns.kind'), render: (_: unknown, e: Entry) => kind(e) },
    {
      key: 'number',
      title: t('statement.columns.number'),
      render: (_: unknown, e: Entry) =>
        e.id ? (
          <Link to={`${RECORD_ROUTE[e.kind]}/${e.id}`}>
            <bdi>{e.number ?? `#${e.id}`}</bdi>
          </Link>
        ) : null,
    },
    ...MONEY_COLUMNS.map((key) => ({
      key,
      title: t(`statement.columns.${key}`),
      align: 'end' as const,
      render: (_: unknown, e: Entry) => (shown(e, key) ? money(e[key]) : ''),
    })),
  ];

  const exportColumns: ExportColumn<Entry>[] = [
    { title: t('statement.columns.date'), value: (e) => (e.date ? exportDate(e.date, 'date') : '') },
    { title: t('statement.columns.kind'), value: kind },
    { title: t('statement.columns.number'), value: (e) => e.number ?? '' },
    ...MONEY_COLUMNS.map((key) => ({
      title: t(`statement.columns.${key}`),
      value: (e: Entry) => (shown(e, key) ? Number(moneyToMajor(e[key])) : ''),
    })),
  ];
  const opening: Entry | null =
    data && range.from
      ? {
          date: range.from,
          kind: 'invoice',
          id: 0,
          number: null,
          debit: 0,
          credit: 0,
          balance: data.opening,
          retainer: 0,
        }
      : null;
  const rows = [...(opening ? [opening] : []), ...(data?.entries ?? [])];
  const title = `${t('statement.title')} - ${customerName}`;

  return (
    <section className="customer-statement" aria-label={t('statement.title')}>
      <Flex wrap gap={12} align="center" justify="space-between" className="customer-statement__toolbar">
        <DateRangeFilter value={range} onChange={(change) => setRange((r) => ({ ...r, ...change }))} />
        <Space>
          <ExportButton<Entry>
            title={title}
            fetchRows={async () => rows}
            columns={exportColumns}
            disabled={!data}
          />
          <Button icon={<PrinterOutlined />} onClick={() => window.print()} disabled={!data}>
            {t('statement.print')}
          </Button>
        </Space>
      </Flex>
      <header className="customer-statement__header">
        <Typography.Title level={4}>{title}</Typography.Title>
        {data && (
          <Typography.Text type="secondary">
            {[
              range.from || range.to
                ? t('statement.period', { from: range.from ?? '…', to: range.to ?? '…' })
                : t('statement.allTime'),
              t('statement.entries', { count: data.entries.length }),
              t('statement.currency', { currency: data.currency }),
            ].join(' · ')}
          </Typography.Text>
        )}
      </header>
      <Table<Entry>
        rowKey={(e) => `${e.kind}-${e.id}`}
        size="small"
        columns={columns}
        dataSource={rows}
        loading={query.isFetching}
        pagination={false}
        scroll={{ x: 'max-content' }}
        summary={() =>
          data ? (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0} colSpan={3}>
                <strong>{t('statement.totals')}</strong>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={3} align="end">
                <strong>{money(data.invoiced)}</strong>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={4} align="end">
                <strong>{money(data.credited + data.paid)}</strong>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={5} align="end">
                <strong>{money(data.balance)}</strong>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={6} align="end">
                <strong>{money(data.retainer)}</strong>
              </Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
      />
      {data && (
        <dl className="customer-statement__figures">
          <dt>{t('statement.figures.invoiced')}</dt>
          <dd>{money(data.invoiced)}</dd>
          <dt>{t('statement.figures.credited')}</dt>
          <dd>{money(data.credited)}</dd>
          <dt>{t('statement.figures.paid')}</dt>
          <dd>{money(data.paid)}</dd>
          <dt>{t('statement.figures.balance')}</dt>
          <dd>
            {money(data.balance)} {data.currency}
          </dd>
          <dt>{t('statement.figures.retainer')}</dt>
          <dd>
            {money(data.retainer)} {data.currency}
          </dd>
        </dl>
      )}
    </section>
  );
}
