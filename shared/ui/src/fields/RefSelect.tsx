import { useMemo, useState } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getEntity, recordTitle } from '@mizan/contracts';
import { entityApi, entityKeys } from '../data';
import { matchesFolded } from './matchText';
import { useDebouncedValue } from './useDebouncedValue';
import type { RefLabel } from './refs';
import type { EntityRow } from './types';

/** How many options a reference select loads per search: the first page, as the brief asks. */
const OPTIONS_PAGE_SIZE = 20;

export interface RefSelectProps {
  /** Name of the referenced entity (`continents`). */
  entity: string;
  value?: number | number[] | null;
  onChange?: (value: number | number[] | null) => void;
  multiple?: boolean;
  /** Labels already known from the row (`{ id, name }`), so the current value shows its name at once. */
  known?: RefLabel[];
  /**
   * List filters sent with every options query, narrowing the choice (`{ courtId: 3 }`: the
   * circuits of one court). The options reload when it changes.
   */
  filter?: Record<string, string | number | boolean>;
  placeholder?: string;
  allowClear?: boolean;
  disabled?: boolean;
  /** Passed by Form.Item so the label points at the control. */
  id?: string;
  'aria-label'?: string;
  style?: React.CSSProperties;
}

/**
 * A searchable select over another entity's list: types into `q` (debounced), shows the first page,
 * and keeps the label of the current value even when it is not on that page. While the server's
 * answer is pending, the options already loaded are narrowed at once by the folded label
 * ("احمد" keeps "أحمد"); what the server found for the text typed stays (it may match on another
 * field than the label, an ID number say).
 */
export function RefSelect({
  entity,
  value,
  onChange,
  multiple,
  known = [],
  filter,
  ...rest
}: RefSelectProps) {
  const { t, i18n } = useTranslation('ui');
  const target = getEntity(entity);
  const api = useMemo(() => entityApi(target), [target]);
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  const params = { page: 1, pageSize: OPTIONS_PAGE_SIZE, ...filter, ...(q ? { q } : {}) };
  const list = useQuery({
    queryKey: entityKeys.list(entity, params),
    queryFn: () => api.list(params),
  });

  const labelOf = (row: EntityRow): RefLabel => ({
    id: row.id,
    name: recordTitle(entity, String(row[target.titleField] ?? row.id), i18n.language),
  });
  const loaded = (list.data?.items ?? []).map(labelOf);
  const selected = value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];
  // A single value that is neither on the first page nor given by the row (a filter from the URL).
  const unknownId = selected.find(
    (id) => !known.some((k) => k.id === id) && !loaded.some((l) => l.id === id),
  );
  const detail = useQuery({
    queryKey: entityKeys.detail(entity, unknownId ?? 0),
    queryFn: () => api.get(unknownId as number),
    enabled: unknownId !== undefined,
  });

  // Rows the server found for exactly what is typed now: shown even when their label does not match.
  const found = new Set(q === search.trim() && !list.isPlaceholderData ? loaded.map((l) => l.id) : []);

  const options = new Map<number, string>();
  for (const item of [...known, ...(detail.data ? [labelOf(detail.data)] : []), ...loaded])
    if (!options.has(item.id)) options.set(item.id, item.name);

  return (
    <Select<number | number[]>
      {...rest}
      mode={multiple ? 'multiple' : undefined}
      value={multiple ? selected : (selected[0] ?? undefined)}
      onChange={(v) => onChange?.(v === undefined ? (multiple ? [] : null) : v)}
      onClear={() => onChange?.(multiple ? [] : null)}
      showSearch={{
        filterOption: (typed, option) =>
          option !== undefined &&
          ((typeof option.value === 'number' && found.has(option.value)) ||
            matchesFolded(String(option.label), typed)),
        onSearch: setSearch,
      }}
      onOpenChange={(open) => !open && setSearch('')}
      loading={list.isFetching}
      notFoundContent={list.isFetching ? t('states.loading') : t('states.noOptions')}
      options={[...options].map(([id, name]) => ({ value: id, label: name }))}
      allowClear={rest.allowClear ?? true}
      popupMatchSelectWidth={false}
      style={{ minWidth: 160, ...rest.style }}
    />
  );
}
