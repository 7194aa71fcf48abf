import { getEntity, permissionKey, type Dashboard, type EmployeePerformance } from '@mizan/contracts';
import { permissionsAtom } from '@mizan/sdk';
import { DualDate, formatMoney, formatNumber, recordPath } from '@mizan/ui';
import { QuestionCircleOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  List,
  Row,
  Skeleton,
  Space,
  Statistic,
  Table,
  Tag,
  Tooltip,
} from 'antd';
import { useAtomValue } from 'jotai';
import { Component, Suspense, lazy, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { DashboardFilter } from './dashboardQuery';

/** The charts come in their own chunk, after the figures (first paint without ECharts). */
const loadCharts = () => lazy(() => import('./DashboardCharts'));

/** A chunk that failed to load stays failed: "retry" makes a fresh lazy component. */
class ChartsBoundary extends Component<
  { fallback: (retry: () => void) => ReactNode; onRetry: () => void; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return this.props.fallback(() => {
      this.props.onRetry();
      this.setState({ failed: false });
    });
  }
}

function listLink(entity: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(key, String(value));
  const query = search.toString();
  return `${getEntity(entity).route}${query ? `?${query}` : ''}`;
}

interface FigureCard {
  key: string;
  title: string;
  value: number;
  /** `%` after the number. */
  percent?: boolean;
  /** How the figure is counted, in a tooltip beside its title. */
  help?: string;
  /** The list this figure counts, filtered the same way (when the user may open it). */
  entity: string;
  params: Record<string, string | number | undefined>;
}

export interface DashboardFiguresProps {
  dashboard: Dashboard;
  filter: DashboardFilter;
}

/**
 * The dashboard's figures: cards for the counts and rates (each opening the matching filtered
 * list), fees when the user may see them, the charts (lazy), the upcoming hearings and recent
 * lawsuits (each opening its record page) and the lawyers' figures when the user may see them.
 */
export function DashboardFigures({ dashboard, filter }: DashboardFiguresProps) {
  const { t, i18n } = useTranslation('dashboard');
  const { t: te } = useTranslation('entities');
  const permissions = useAtomValue(permissionsAtom);
  const [Charts, setCharts] = useState(loadCharts);
  const lng = i18n.language;
  const number = (value: number) => formatNumber(value, lng);
  const { counts, rates } = dashboard;
  const lawsuitRange = { branchId: filter.branchId, filedFrom: filter.from, filedTo: filter.to };

  const cards: FigureCard[] = [
    {
      key: 'lawsuits',
      title: t('counts.lawsuits'),
      value: counts.lawsuits,
      entity: 'lawsuits',
      params: lawsuitRange,
    },
    {
      key: 'activeLawsuits',
      title: t('counts.activeLawsuits'),
      value: counts.activeLawsuits,
      entity: 'lawsuits',
      params: { ...lawsuitRange, state: 'active' },
    },
    {
      key: 'completedLawsuits',
      title: t('counts.completedLawsuits'),
      value: counts.completedLawsuits,
      entity: 'lawsuits',
      params: { ...lawsuitRange, state: 'completed' },
    },
    {
      key: 'successRate',
      title: t('rates.successRate'),
      help: t('rates.successRateHelp'),
      value: rates.successRate,
      percent: true,
      entity: 'lawsuits',
      params: { ...lawsuitRange, state: 'completed' },
    },
    {
      key: 'sessions',
      title: t('counts.sessions'),
      value: counts.sessions,
      entity: 'sessions',
      params: { from: filter.from, to: filter.to },
    },
    {
      key: 'customers',
      title: t('counts.customers'),
      value: counts.customers,
      entity: 'customers',
      params: { branchId: filter.branchId },
    },
    {
      key: 'employees',
      title: t('counts.employees'),
      value: counts.employees,
      entity: 'employees',
      params: {},
    },
  ];
  const may = (entity: string) => permissions.has(permissionKey(entity, 'view'));
  const linked = (entity: string, to: string, children: ReactNode) =>
    may(entity) ? <Link to={to}>{children}</Link> : children;

  const fees = dashboard.financialStatistics;
  const invoicing = dashboard.invoicing;
  const performance = dashboard.employeePerformance;

  return (
    <>
      <Row gutter={[12, 12]}>
        {cards.map((card) => (
          <Col key={card.key} xs={12} md={8} xl={6} xxl={3}>
            {linked(
              card.entity,
              listLink(card.entity, card.params),
              <Card size="small" hoverable={may(card.entity)} data-testid={`figure-${card.key}`}>
                <Statistic
                  title={
                    card.help ? (
                      <Space size={4}>
                        {card.title}
                        <Tooltip title={card.help}>
                          <QuestionCircleOutlined aria-label={card.help} />
                        </Tooltip>
                      </Space>
                    ) : (
                      card.title
                    )
                  }
                  value={card.value}
                  formatter={(value) =>
                    `${number(Number(value))}${card.percent ? (lng.startsWith('ar') ? '٪' : '%') : ''}`
                  }
                />
              </Card>,
            )}
          </Col>
        ))}
      </Row>

      {fees ? (
        <Card size="small" title={t('fees.title')} data-testid="figure-fees">
          <Row gutter={[12, 12]}>
            {(
              [
                ['totalFees', formatMoney(fees.totalFees, lng)],
                ['paidFees', formatMoney(fees.paidFees, lng)],
                ['pendingFees', formatMoney(fees.pendingFees, lng)],
                ['collectionRate', `${number(fees.collectionRate)}${lng.startsWith('ar') ? '٪' : '%'}`],
              ] as const
            ).map(([key, text]) => (
              <Col key={key} xs={12} md={6}>
                <Statistic title={t(`fees.${key}`)} value={text} />
              </Col>
            ))}
          </Row>
        </Card>
      ) : null}

      {invoicing ? (
        <Card size="small" title={t('invoicing.title')} data-testid="figure-invoicing">
          <Row gutter={[12, 12]}>
            {(['revenue', 'collected', 'unbilled', 'receivables', 'overdue'] as const).map((key) => (
              <Col key={key} xs={12} md={8} xl={4}>
                <Statistic title={t(`invoicing.${key}`)} value={formatMoney(invoicing[key], lng)} />
              </Col>
            ))}
          </Row>
        </Card>
      ) : null}

      {/* No lawsuit in the range: nothing to draw, and no chart chunk to load. */}
      {dashboard.counts.lawsuits > 0 ? (
        <ChartsBoundary
          onRetry={() => setCharts(loadCharts)}
          fallback={(retry) => (
            <Alert
              type="warning"
              showIcon
              title={t('charts.failed')}
              action={
                <Button size="small" onClick={retry}>
                  {t('retry')}
                </Button>
              }
            />
          )}
        >
          <Suspense fallback={<Skeleton active />}>
            <Charts dashboard={dashboard} />
          </Suspense>
        </ChartsBoundary>
      ) : null}

      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card
            size="small"
            title={t('upcoming.title')}
            extra={linked(
              'sessions',
              listLink('sessions', { from: filter.from, to: filter.to }),
              t('showAll'),
            )}
          >
            <List
              dataSource={dashboard.upcomingSessions}
              locale={{ emptyText: <Empty description={t('upcoming.empty')} /> }}
              renderItem={(s) => (
                <List.Item key={s.id} data-testid="upcoming-session">
                  <List.Item.Meta
                    title={
                      <Link to={recordPath(getEntity('sessions'), s.id)}>
                        <DualDate value={s.date} /> {s.time ? <bdi>{s.time}</bdi> : null}
                      </Link>
                    }
                    description={[
                      t('upcoming.lawsuit', { fileNumber: s.lawsuit.fileNumber }),
                      s.court?.name,
                      s.lawyer?.name,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  />
                </List.Item>
              )}
            />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card
            size="small"
            title={t('recent.title')}
            extra={linked('lawsuits', listLink('lawsuits', lawsuitRange), t('showAll'))}
          >
            <List
              dataSource={dashboard.recentLawsuits}
              locale={{ emptyText: <Empty description={t('recent.empty')} /> }}
              renderItem={(l) => (
                <List.Item
                  key={l.id}
                  data-testid="recent-lawsuit"
                  extra={
                    <Tag color={l.state === 'completed' ? 'default' : 'processing'}>
                      {te(`lawsuits.values.state.${l.state}`)}
                    </Tag>
                  }
                >
                  <List.Item.Meta
                    title={
                      <Link to={recordPath(getEntity('lawsuits'), l.id)}>
                        <bdi>{l.fileNumber}</bdi>
                      </Link>
                    }
                    description={
                      <>
                        {l.filingDate ? <DualDate value={l.filingDate} primaryOnly /> : null}
                        {[l.court?.name, l.lawsuitCase?.name].filter(Boolean).length ? ' · ' : ''}
                        {[l.court?.name, l.lawsuitCase?.name].filter(Boolean).join(' · ')}
                      </>
                    }
                  />
                </List.Item>
              )}
            />
          </Card>
        </Col>
      </Row>

      {performance ? (
        <Card size="small" title={t('performance.title')} data-testid="figure-performance">
          <Table<EmployeePerformance>
            size="small"
            rowKey="employeeId"
            pagination={false}
            scroll={{ x: true }}
            dataSource={performance}
            locale={{ emptyText: <Empty description={t('performance.empty')} /> }}
            columns={[
              {
                key: 'name',
                title: t('performance.name'),
                render: (_, row) =>
                  linked(
                    'lawsuits',
                    listLink('lawsuits', { ...lawsuitRange, lawyerIds: row.employeeId }),
                    row.name,
                  ),
              },
              ...(['lawsuits', 'won', 'lost', 'hearings', 'hearingsAttended', 'tasksDone'] as const).map(
                (key) => ({
                  key,
                  title: t(`performance.${key}`),
                  render: (_: unknown, row: EmployeePerformance) => number(row[key]),
                }),
              ),
            ]}
          />
        </Card>
      ) : null}
    </>
  );
}
