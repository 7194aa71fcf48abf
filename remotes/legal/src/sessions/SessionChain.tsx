import { Alert, Empty, Flex, Skeleton, Tag, Timeline, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { sessions, type SessionRow } from '@mizan/contracts';
import { DualDate, formatNumber, recordPath, useOfficeToday } from '@mizan/ui';
import { fetchSessionChain, legalKeys } from '../api';
import { NoDecisionTag, pastWithoutDecision } from './columns';

export interface SessionChainProps {
  /** The hearing whose chain is shown (marked as the current one). */
  sessionId: number;
  /** Changes when the hearing does (a postponement recorded), so the chain is read again. */
  version?: string;
}

/**
 * The postponement chain a hearing belongs to (`LEGAL_ROUTES.sessionChain`), first to last, as a
 * timeline: each hearing's date linking to its page, its decision and the date it was postponed
 * to; the hearing of this page marked, one past its day with no decision flagged.
 */
export function SessionChain({ sessionId, version }: SessionChainProps) {
  const { t, i18n } = useTranslation('legal');
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const today = useOfficeToday();
  const chain = useQuery({
    queryKey: [...legalKeys.chain(sessionId), version ?? ''],
    queryFn: ({ signal }) => fetchSessionChain(sessionId, { signal, silent: true }),
    // The chain stays in view while a newer version of it loads.
    placeholderData: keepPreviousData,
  });
  if (chain.isError) return <Alert type="error" showIcon title={t('sessions.chain.loadFailed')} />;
  if (!chain.data) return <Skeleton active paragraph={{ rows: 3 }} />;
  const items: SessionRow[] = chain.data.items;
  if (items.length === 0) return <Empty />;

  return (
    <section aria-label={t('sessions.chain.title')}>
      <Typography.Paragraph type="secondary">
        {items.length === 1
          ? t('sessions.chain.single')
          : t('sessions.chain.count', { count: items.length, n: formatNumber(items.length, lng) })}
      </Typography.Paragraph>
      <Timeline
        items={items.map((item, index) => {
          const current = item.id === sessionId;
          const missing = pastWithoutDecision(item as never, today);
          return {
            key: item.id,
            color: current ? 'blue' : missing ? 'red' : item.nextId !== null ? 'gray' : 'green',
            content: (
              <Flex
                vertical
                gap={4}
                aria-current={current ? 'step' : undefined}
                data-testid={`chain-${item.id}`}
              >
                <Flex wrap gap={8} align="center">
                  <Typography.Text type="secondary">
                    {t('sessions.chain.step', { number: index + 1 })}
                  </Typography.Text>
                  {current ? (
                    <Typography.Text strong>
                      <DualDate value={item.date} />
                    </Typography.Text>
                  ) : (
                    // Named by the date it shows; its place in the chain is the text just before.
                    <Link to={recordPath(sessions, item.id)}>
                      <DualDate value={item.date} />
                    </Link>
                  )}
                  {item.time && <bdi dir="ltr">{item.time}</bdi>}
                  {current && <Tag color="blue">{t('sessions.chain.current')}</Tag>}
                  {missing && <NoDecisionTag />}
                </Flex>
                {item.decision && (
                  <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>
                    <Typography.Text type="secondary">{t('sessions.chain.decision')} </Typography.Text>
                    <bdi>{item.decision}</bdi>
                  </Typography.Paragraph>
                )}
                {item.nextDate && (
                  <Typography.Text>
                    <Typography.Text type="secondary">{t('sessions.chain.nextDate')} </Typography.Text>
                    <DualDate value={item.nextDate} />
                  </Typography.Text>
                )}
              </Flex>
            ),
          };
        })}
      />
    </section>
  );
}
