import { deadlines } from '@mizan/contracts';
import { entityApi, entityKeys, permissionsAtom, useEntityChannel } from '@mizan/sdk';
import { DualDate, recordPath, refLabels, type EntityRow } from '@mizan/ui';
import { Card, Col, Empty, List, Row, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ProcurationGapsCard } from './ProcurationGapsCard';

/** How many deadlines each half of the card lists; the rest are a click away. */
const SHOWN = 5;
/** "Upcoming": open and due from today to a week from today. */
const WEEK = 7;

type Kind = 'overdue' | 'upcoming';
const FILTERS: Record<Kind, Record<string, string | number>> = {
  overdue: { overdue: 'true' },
  upcoming: { dueWithinDays: WEEK },
};

function DeadlineList({ kind }: { kind: Kind }) {
  const { t } = useTranslation('dashboard');
  const { t: te } = useTranslation('entities');
  const params = { ...FILTERS[kind], sort: 'dueDate:asc', pageSize: SHOWN, page: 1 };
  const list = useQuery({
    queryKey: entityKeys.list(deadlines.name, { ...params, scope: 'dashboard' }),
    queryFn: ({ signal }) => entityApi.list(deadlines, params, { signal }),
  });
  const rows = (list.data?.items ?? []) as EntityRow[];
  const total = list.data?.total ?? 0;
  const more = new URLSearchParams(
    Object.entries(FILTERS[kind]).map(([key, value]) => [key, String(value)]),
  ).toString();
  return (
    <Card
      size="small"
      title={
        <>
          {t(`deadlines.${kind}.title`)}{' '}
          {total > 0 && (
            <Tag color={kind === 'overdue' ? 'red' : 'orange'}>{t('deadlines.count', { count: total })}</Tag>
          )}
        </>
      }
      extra={<Link to={`${deadlines.route}?${more}`}>{t('showAll')}</Link>}
      data-testid={`deadlines-${kind}`}
    >
      <List
        loading={list.isLoading}
        dataSource={rows}
        locale={{ emptyText: <Empty description={t(`deadlines.${kind}.empty`)} /> }}
        renderItem={(row) => {
          const fileNumber = refLabels(row, 'lawsuitId', deadlines.fields.lawsuitId)[0]?.name;
          const lawyer = refLabels(row, 'lawyerId', deadlines.fields.lawyerId)[0]?.name;
          return (
            <List.Item key={row.id} data-testid="dashboard-deadline">
              <List.Item.Meta
                title={
                  <Link to={recordPath(deadlines, row.id)}>
                    {te(`deadlines.values.action.${String(row.action)}`)} ·{' '}
                    <DualDate value={row.dueDate as string} primaryOnly />
                  </Link>
                }
                description={[fileNumber ? t('upcoming.lawsuit', { fileNumber }) : null, lawyer]
                  .filter(Boolean)
                  .join(' · ')}
              />
            </List.Item>
          );
        }}
      />
    </Card>
  );
}

/**
 * The dashboard's deadlines: the open ones already past their due date, and those due within a
 * week, nearest first; each opens its record page, "show all" the deadlines list filtered the
 * same way; beside them the lawsuits whose client's power of attorney does not cover a coming
 * hearing. Each part shown to whoever may see its list; kept live by their channels.
 */
export function DeadlinesCard() {
  const permissions = useAtomValue(permissionsAtom);
  const allowed = permissions.has('deadlines.view');
  useEntityChannel(deadlines.name, { enabled: allowed });
  const gaps = permissions.has('lawsuits.view');
  if (!allowed && !gaps) return null;
  const width = allowed && gaps ? 8 : 12;
  return (
    <Row gutter={[16, 16]}>
      {allowed && (
        <>
          <Col xs={24} lg={12} xl={width}>
            <DeadlineList kind="overdue" />
          </Col>
          <Col xs={24} lg={12} xl={width}>
            <DeadlineList kind="upcoming" />
          </Col>
        </>
      )}
      {gaps && (
        <Col xs={24} lg={allowed ? 24 : 12} xl={width}>
          <ProcurationGapsCard />
        </Col>
      )}
    </Row>
  );
}
