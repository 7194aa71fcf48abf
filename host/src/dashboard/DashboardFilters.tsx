import { permissionKey } from '@mizan/contracts';
import { permissionsAtom } from '@mizan/sdk';
import { DateRangeFilter, RefSelect } from '@mizan/ui';
import { Button, Flex } from 'antd';
import { useAtomValue } from 'jotai';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { DashboardFilter } from './dashboardQuery';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The dashboard's filter, kept in the URL (`?from=…&to=…&branchId=…`) so a filtered dashboard is
 * bookmarkable; malformed values are ignored.
 */
export function useDashboardFilter(): [DashboardFilter, (change: DashboardFilter) => void] {
  const [params, setParams] = useSearchParams();
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const branch = params.get('branchId') ?? '';
  const filter = useMemo<DashboardFilter>(() => {
    const branchId = /^\d+$/.test(branch) ? Number(branch) : undefined;
    return {
      ...(DAY.test(from) ? { from } : {}),
      ...(DAY.test(to) ? { to } : {}),
      ...(branchId ? { branchId } : {}),
    };
  }, [from, to, branch]);
  const update = useCallback(
    (change: DashboardFilter) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const key of ['from', 'to', 'branchId'] as const) {
            if (!(key in change)) continue;
            const value = change[key];
            if (value === undefined || value === '') next.delete(key);
            else next.set(key, String(value));
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [filter, update];
}

/** The date range (filing and hearing dates) and branch of the dashboard. */
export function DashboardFilters({
  filter,
  onChange,
}: {
  filter: DashboardFilter;
  onChange: (change: DashboardFilter) => void;
}) {
  const { t } = useTranslation('dashboard');
  const permissions = useAtomValue(permissionsAtom);
  return (
    <Flex wrap gap={12} align="center" data-testid="dashboard-filters">
      <DateRangeFilter value={filter} onChange={onChange} />
      {permissions.has(permissionKey('branches', 'view')) ? (
        <RefSelect
          entity="branches"
          value={filter.branchId ?? null}
          onChange={(value) => onChange({ branchId: typeof value === 'number' ? value : undefined })}
          placeholder={t('filters.allBranches')}
          allowClear
          aria-label={t('filters.branch')}
          style={{ minWidth: 200 }}
        />
      ) : null}
      {filter.from || filter.to || filter.branchId ? (
        <Button onClick={() => onChange({ from: undefined, to: undefined, branchId: undefined })}>
          {t('filters.clear')}
        </Button>
      ) : null}
    </Flex>
  );
}
