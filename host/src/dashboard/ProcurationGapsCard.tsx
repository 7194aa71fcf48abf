import { lawsuits } from '@mizan/contracts';
import { entityApi, entityKeys, permissionsAtom, useEntityChannel } from '@mizan/sdk';
import { recordPath, refLabels, type EntityRow } from '@mizan/ui';
import { Card, Empty, List, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** How many lawsuits the card lists; the rest are a click away. */
const SHOWN = 5;
const FILTER = { procurationGap: 'true' } as const;

/**
 * The lawsuits with a coming hearing on whose day a client has no power of attorney covering
 * litigation (expired by then, none, none for litigation): renew it before the hearing. Each opens
 * its lawsuit, "show all" the lawsuits list filtered the same way. Kept live by the lawsuits' and
 * hearings' channels (a power of attorney renewed shows on the next read).
 */
export function ProcurationGapsCard() {
  const { t } = useTranslation('dashboard');
  const permissions = useAtomValue(permissionsAtom);
  const allowed = permissions.has('lawsuits.view');
  useEntityChannel(lawsuits.name, { enabled: allowed });
  const params = { ...FILTER, sort: 'createdAt:desc', pageSize: SHOWN, page: 1 };
  const list = useQuery({
    queryKey: entityKeys.list(lawsuits.name, { ...params, scope: 'dashboard' }),
    queryFn: ({ signal }) => entityApi.list(lawsuits, params, { signal }),
    enabled: allowed,
  });
  if (!allowed) return null;
  const rows = (list.data?.items ?? []) as EntityRow[];
  const total = list.data?.total ?? 0;
  return (
    <Card
      size="small"
      title={
        <>
          {t('procurationGaps.title')}{' '}
          {total > 0 && <Tag color="red">{t('procurationGaps.count', { count: total })}</Tag>}
        </>
      }
      extra={<Link to={`${lawsuits.route}?procurationGap=true`}>{t('showAll')}</Link>}
      data-testid="procuration-gaps"
    >
      <List
        loading={list.isLoading}
        dataSource={rows}
        locale={{ emptyText: <Empty description={t('procurationGaps.empty')} /> }}
        renderItem={(row) => (
          <List.Item key={row.id} data-testid="procuration-gap">
            <List.Item.Meta
              title={
                <Link to={recordPath(lawsuits, row.id)}>
                  <bdi>{String(row.fileNumber ?? row.id)}</bdi>
                </Link>
              }
              description={refLabels(row, 'customerIds', lawsuits.fields.customerIds)
                .map((c) => c.name)
                .join(t('procurationGaps.separator'))}
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
