import { Alert, Card, Col, Flex, Progress, Row, Skeleton, Statistic, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LawsuitFees } from '@mizan/contracts';
import { formatMoney } from '@mizan/ui';
import { fetchLawsuitFees, legalKeys } from '../api';

/** A whole percentage in the interface language's digits and sign (`٣٣٪`, `33%`). */
export function formatPercent(rate: number, lng: string): string {
  return new Intl.NumberFormat(lng.startsWith('ar') ? 'ar-EG' : 'en', {
    style: 'percent',
    maximumFractionDigits: 0,
  }).format(rate / 100);
}

export interface FeesPanelProps {
  lawsuitId: number;
  /**
   * Changes whenever the figures may have: the lawsuit's version (its agreed fee) and the time the
   * payments list was last read (a payment saved, deleted or changed elsewhere). A new value reads
   * the figures again; null while not known yet (the payments not loaded).
   */
  version: string | null;
}

/**
 * The fee figures of a lawsuit (`LEGAL_ROUTES.lawsuitFees`): agreed fee, paid, pending, overpaid
 * and the collection rate as a bar, amounts as money in the interface language (Arabic-Indic
 * digits in Arabic). No agreed fee recorded: the rate is left out and the panel says why.
 */
export function FeesPanel({ lawsuitId, version }: FeesPanelProps) {
  const { t, i18n } = useTranslation('legal');
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const queryClient = useQueryClient();
  const fees = useQuery({
    queryKey: legalKeys.fees(lawsuitId),
    queryFn: ({ signal }) => fetchLawsuitFees(lawsuitId, { signal, silent: true }),
    placeholderData: keepPreviousData,
  });
  const previous = useRef(version);
  useEffect(() => {
    const before = previous.current;
    previous.current = version;
    if (before !== null && version !== null && before !== version)
      void queryClient.invalidateQueries({ queryKey: legalKeys.fees(lawsuitId) });
  }, [version, lawsuitId, queryClient]);

  if (fees.isError && !fees.data)
    return <Alert type="error" showIcon title={t('fees.loadFailed')} style={{ marginBlockEnd: 16 }} />;
  if (!fees.data) return <Skeleton active paragraph={{ rows: 2 }} />;
  const figures: LawsuitFees = fees.data;
  const money = (minor: number) => <bdi>{formatMoney(minor, lng)}</bdi>;
  const stat = (key: keyof LawsuitFees, value: number, color?: string) => (
    <Col xs={12} md={6} key={key}>
      <Statistic
        title={t(`fees.${key}`)}
        value={value}
        formatter={() => money(value)}
        styles={{ content: color ? { color } : undefined }}
      />
    </Col>
  );
  const rate = figures.collectionRate;

  return (
    <Card
      size="small"
      title={t('fees.title')}
      role="region"
      aria-label={t('fees.title')}
      aria-busy={fees.isFetching}
      style={{ marginBlockEnd: 16 }}
    >
      <Row gutter={[16, 16]}>
        {stat('agreedFee', figures.agreedFee)}
        {stat('paid', figures.paid, '#389e0d')}
        {stat('pending', figures.pending, figures.pending > 0 ? '#d46b08' : undefined)}
        {stat('overpaid', figures.overpaid, figures.overpaid > 0 ? '#cf1322' : undefined)}
      </Row>
      <Flex vertical gap={4} style={{ marginBlockStart: 16 }}>
        <Typography.Text type="secondary">{t('fees.collectionRate')}</Typography.Text>
        {rate === null ? (
          <Typography.Text>{t('fees.noAgreedFee')}</Typography.Text>
        ) : (
          <Progress
            percent={Math.min(rate, 100)}
            status={rate >= 100 ? 'success' : 'active'}
            format={() => <bdi>{formatPercent(rate, lng)}</bdi>}
            aria-label={t('fees.collectionRate')}
          />
        )}
      </Flex>
    </Card>
  );
}
