import { useState } from 'react';
import { Alert, Button, Flex, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { displayKey, lawsuitPayments, type Entity, type Fields, type LawsuitFeeRow } from '@mizan/contracts';
import {
  EntityFormDrawer,
  formatDateText,
  formatMoney,
  useEntityList,
  type EntityRow,
  type FormMode,
} from '@mizan/ui';
import { fetchLawsuitFeeRows, legalKeys } from '../api';
import { FeesPanel } from './FeesPanel';

export interface PaymentsTabProps {
  /** The lawsuit as the record page read it. */
  lawsuit: EntityRow;
  /** Its title (file number), for the pre-filled reference of a new payment. */
  title: string;
}

const ledger = lawsuitPayments as unknown as Entity<Fields>;

type DrawerState = { mode: FormMode; row?: EntityRow } | null;

/**
 * A lawsuit's fees tab: the fee figures above every payment that counts towards its fee, one row
 * each (`LEGAL_ROUTES.lawsuitFeeRows`): the fees ledger's entries (added, edited and deleted here as
 * the user may), payments recorded under Finance with the invoices they settled, and the client's
 * retainer applied to the lawsuit's invoices (those two are changed under Finance). The figures and
 * the rows are read again whenever the ledger changes (a save here, a change seen live) or the
 * lawsuit does (its agreed fee).
 */
export function PaymentsTab({ lawsuit, title }: PaymentsTabProps) {
  const { t, i18n } = useTranslation('legal');
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const queryClient = useQueryClient();
  // The ledger's own list: its permissions, its live channel and its delete.
  const list = useEntityList(ledger, { urlState: false, fixedFilters: { lawsuitId: lawsuit.id } });
  const loadedAt = list.list.dataUpdatedAt;
  const version = loadedAt ? `${String(lawsuit.updatedAt)}|${loadedAt}` : null;
  const rows = useQuery({
    queryKey: [...legalKeys.feeRows(lawsuit.id), version],
    queryFn: ({ signal }) => fetchLawsuitFeeRows(lawsuit.id, { signal, silent: true }),
    placeholderData: keepPreviousData,
  });
  const [drawer, setDrawer] = useState<DrawerState>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const entryOf = (row: LawsuitFeeRow) => list.api.get(row.ledgerEntryId!);
  const edit = async (row: LawsuitFeeRow) => {
    setBusy(row.ledgerEntryId);
    try {
      setDrawer({ mode: 'update', row: await entryOf(row) });
    } finally {
      setBusy(null);
    }
  };
  const remove = async (row: LawsuitFeeRow) => {
    setBusy(row.ledgerEntryId);
    try {
      await list.remove.mutateAsync(await entryOf(row));
    } catch {
      // The request's own message was shown.
    } finally {
      setBusy(null);
    }
  };
  const money = (minor: number) => <bdi>{formatMoney(minor, lng)}</bdi>;
  const label = (key: string) => t(`lawsuitPayments.fields.${key}`, { ns: 'entities' });

  return (
    <>
      <FeesPanel lawsuitId={lawsuit.id} version={version} />
      {rows.isError && !rows.data && (
        <Alert type="error" showIcon title={t('fees.rowsLoadFailed')} style={{ marginBlockEnd: 16 }} />
      )}
      <Flex justify="end" style={{ marginBlockEnd: 12 }}>
        {list.allowed('create') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDrawer({ mode: 'create' })}>
            {t('actions.createNamed', { ns: 'ui', name: list.text.singular })}
          </Button>
        )}
      </Flex>
      <Table<LawsuitFeeRow>
        size="small"
        rowKey="key"
        aria-label={t('fees.rowsTitle')}
        loading={rows.isFetching && !rows.data}
        dataSource={rows.data?.items ?? []}
        pagination={false}
        locale={{ emptyText: t('fees.noRows') }}
        columns={[
          {
            key: 'date',
            title: label('paidOn'),
            render: (_, row) => <bdi>{formatDateText(row.date, 'date')}</bdi>,
          },
          { key: 'amount', title: label('amount'), render: (_, row) => money(row.amount) },
          {
            key: 'source',
            title: t('fees.source'),
            render: (_, row) => (
              <Space size={4} wrap>
                <Tag
                  color={row.source === 'ledger' ? 'blue' : row.source === 'retainer' ? 'purple' : 'green'}
                >
                  {t(`fees.sources.${row.source}`)}
                </Tag>
                {row.invoiceNumbers.map((n) => (
                  <Tag key={n}>
                    <bdi>{n}</bdi>
                  </Tag>
                ))}
                {row.overpayment && <Tag color="red">{t('fees.overpayment')}</Tag>}
              </Space>
            ),
          },
          {
            key: 'method',
            title: label('method'),
            render: (_, row) =>
              row.method
                ? t(`lawsuitPayments.values.method.${row.method}`, {
                    ns: 'entities',
                    defaultValue: row.method,
                  })
                : null,
          },
          {
            key: 'reference',
            title: label('receiptNumber'),
            render: (_, row) => (row.reference ? <bdi>{row.reference}</bdi> : null),
          },
          {
            key: 'note',
            title: label('note'),
            render: (_, row) => (
              <Typography.Text ellipsis={{ tooltip: row.note }}>{row.note}</Typography.Text>
            ),
          },
          {
            key: 'actions',
            title: t('fees.actions'),
            render: (_, row) =>
              row.ledgerEntryId === null ? (
                <Tooltip title={t('fees.changedInFinance')}>
                  <Typography.Text type="secondary">—</Typography.Text>
                </Tooltip>
              ) : (
                <Space size={0}>
                  {list.allowed('update') && (
                    <Button
                      type="link"
                      icon={<EditOutlined />}
                      aria-label={t('actions.edit', { ns: 'ui' })}
                      loading={busy === row.ledgerEntryId}
                      onClick={() => void edit(row)}
                    />
                  )}
                  {list.allowed('delete') && (
                    <Popconfirm title={t('fees.deleteConfirm')} onConfirm={() => remove(row)}>
                      <Button
                        type="link"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('actions.delete', { ns: 'ui' })}
                      />
                    </Popconfirm>
                  )}
                </Space>
              ),
          },
        ]}
      />
      <EntityFormDrawer
        entity={ledger}
        open={drawer !== null}
        mode={drawer?.mode ?? 'create'}
        row={drawer?.row}
        defaults={{
          lawsuitId: lawsuit.id,
          [displayKey('lawsuitId', { type: 'ref' })]: { id: lawsuit.id, name: title },
        }}
        onClose={() => {
          setDrawer(null);
          void queryClient.invalidateQueries({ queryKey: legalKeys.feeRows(lawsuit.id) });
        }}
      />
    </>
  );
}
