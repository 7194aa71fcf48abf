import { useState } from 'react';
import { Alert, Empty, Flex, Grid, Pagination, Spin, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditItem, Entity, Fields } from '@mizan/contracts';
import { recordHistory } from '../data';
import { DualDate } from '../dates/DualDate';
import { useEntityText } from '../entity/labels';
import { AuditAction } from './auditAction';
import { AuditDiff } from './AuditDiff';

const PAGE_SIZE = 10;

/** Query key of one record's history (refreshed with the record). */
export const historyKey = (entity: string, id: number) => ['entity', entity, 'history', id] as const;

export interface RecordHistoryProps {
  entity: Entity<Fields>;
  id: number;
}

/**
 * One record's audit entries, newest first and paged: what was done, by whom and when, and the
 * fields it changed (labels translated, references and enums readable).
 */
export function RecordHistory({ entity, id }: RecordHistoryProps) {
  const { t } = useEntityText(entity);
  const stacked = Grid.useBreakpoint().md === false;
  const [page, setPage] = useState(1);
  const history = useQuery({
    queryKey: [...historyKey(entity.name, id), page],
    queryFn: ({ signal }) => recordHistory(entity.name, id, { page, pageSize: PAGE_SIZE }, { signal }),
    placeholderData: keepPreviousData,
  });
  const who = (e: AuditItem) =>
    e.employee?.name ?? (e.employeeId ? `#${e.employeeId}` : t('record.history.system', { ns: 'ui' }));

  if (history.isError && !history.data)
    return (
      <Alert
        type="error"
        showIcon
        title={t('record.history.loadFailed', { ns: 'ui' })}
        description={history.error instanceof Error ? history.error.message : undefined}
      />
    );
  const total = history.data?.total ?? 0;
  if (history.isLoading) return <Spin />;
  if (total === 0) return <Empty description={t('record.history.empty', { ns: 'ui' })} />;
  return (
    <Flex vertical gap={12}>
      <ol style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {(history.data?.items ?? []).map((entry) => (
          <li key={entry.id} style={{ borderBlockEnd: '1px solid rgba(5, 5, 5, 0.06)', paddingBlock: 12 }}>
            <Flex wrap gap={8} align="center" style={{ marginBlockEnd: 8 }}>
              <AuditAction entry={entry} />
              <Typography.Text strong>
                <bdi>{who(entry)}</bdi>
              </Typography.Text>
              <Typography.Text type="secondary">
                <DualDate value={entry.createdAt} type="datetime" primaryOnly={stacked} />
              </Typography.Text>
            </Flex>
            <AuditDiff entry={entry} stacked={stacked} />
          </li>
        ))}
      </ol>
      {total > PAGE_SIZE && (
        <Pagination
          size="small"
          align="center"
          current={page}
          pageSize={PAGE_SIZE}
          total={total}
          showSizeChanger={false}
          onChange={setPage}
        />
      )}
    </Flex>
  );
}
