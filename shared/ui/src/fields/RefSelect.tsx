import { useMemo, useState } from 'react';
import { Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getEntity, recordTitle } from '@mizan/contracts';
import { entityApi, entityKeys, referenceOptions } from '../data';
import { matchesFolded } from './matchText';
import { useDebouncedValue } from './useDebouncedValue';
import type { RefLabel } from './refs';
import type { EntityRow } from './types';

/** How many options a reference select loads per search: the first page, as the brief asks. */
const OPTIONS_PAGE_SIZE = 20;

/** A `ref`/`refs` field of an entity: `{ entity: 'lawsuits', name: 'lawyerIds' }`. */
export interface RefFieldName {
  entity: string;
  name: string;
}

export interface RefSelectProps {
  /** Name of the referenced entity (`continents`). */
  entity: string;
  /**
   * The reference field this select fills or filters by: its options then come from the
   * field's picker (`GET /api/options/<entity>/<field>`), which offers what the field may point
   * at to whoever may view, create or update its entity, without the right to read the
   * referenced list, narrowed as the field's definition says (lawyers only), with a line
   * telling two rows apart. Without it the select reads the referenced entity's own list.
   */
  field?: RefFieldName;
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
  field,
  ...rest
}: RefSelectProps) {
  const { t, i18n } = useTranslation('ui');
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  const source = useOptionSource(entity, field, i18n.language);
  const params = { ...filter, ...(q ? { q } : {}) };
  const list = useQuery({ queryKey: source.key(params), queryFn: () => source.search(params) });

  const loaded = list.data ?? [];
  const selected = value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];
  // A single value that is neither on the first page nor given by the row (a filter from the URL).
  const unknownId = selected.find(
    (id) => !known.some((k) => k.id === id) && !loaded.some((l) => l.id === id),
  );
  const detail = useQuery({
    queryKey: source.key({ ids: String(unknownId ?? 0) }),
    queryFn: () => source.byId(unknownId as number),
    enabled: unknownId !== undefined,
  });

  // Rows the server found for exactly what is typed now: shown even when their label does not match.
  const found = new Set(q === search.trim() && !list.isPlaceholderData ? loaded.map((l) => l.id) : []);

  const options = new Map<number, PickerOption>();
  for (const item of [...known, ...(detail.data ? [detail.data] : []), ...loaded])
    if (!options.has(item.id)) options.set(item.id, item);

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
            matchesFolded(`${String(option.label)} ${option.detail ?? ''}`, typed)),
        onSearch: setSearch,
      }}
      onOpenChange={(open) => !open && setSearch('')}
      loading={list.isFetching}
      notFoundContent={list.isFetching ? t('states.loading') : t('states.noOptions')}
      options={[...options].map(([id, { name, detail }]) => ({ value: id, label: name, detail }))}
      optionRender={(option) =>
        option.data.detail ? (
          <span className="mizan-ref-option">
            <span>{option.label}</span>
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              {option.data.detail}
            </Typography.Text>
          </span>
        ) : (
          option.label
        )
      }
      allowClear={rest.allowClear ?? true}
      popupMatchSelectWidth={false}
      style={{ minWidth: 160, ...rest.style }}
    />
  );
}

/** One choice: its label, and what tells it apart from another of the same label. */
interface PickerOption extends RefLabel {
  detail?: string | null;
}

type Params = Record<string, string | number | boolean>;

/**
 * Where a reference select reads its choices: the field's picker when it names its field (see
 * `RefSelectProps.field`), else the referenced entity's list; both answer `PickerOption`s.
 */
function useOptionSource(entity: string, field: RefFieldName | undefined, lng: string) {
  const fieldEntity = field?.entity;
  const fieldName = field?.name;
  return useMemo(() => {
    const target = getEntity(entity);
    const title = (value: unknown, id: number) => recordTitle(entity, String(value ?? id), lng);
    if (fieldEntity && fieldName) {
      const read = async (params: Params): Promise<PickerOption[]> =>
        (await referenceOptions(fieldEntity, fieldName, params)).map((o) => ({
          id: o.id,
          name: title(o.title, o.id),
          detail: o.detail,
        }));
      return {
        key: (params: Params) => [...entityKeys.all(entity), 'options', fieldEntity, fieldName, params],
        search: read,
        byId: async (id: number) => (await read({ ids: String(id) }))[0] ?? null,
      };
    }
    const list = entityApi(target);
    const labelOf = (row: EntityRow): PickerOption => ({
      id: row.id,
      name: title(row[target.titleField], row.id),
    });
    return {
      // Under the entity's lists (a created row refreshes them), with a scope of its own: the list
      // screen keeps whole pages there, and a picker sharing one would read a page as options.
      key: (params: Params) =>
        'ids' in params
          ? [...entityKeys.all(entity), 'label', Number(params.ids)]
          : entityKeys.list(entity, { page: 1, pageSize: OPTIONS_PAGE_SIZE, ...params, scope: 'picker' }),
      search: async (params: Params) =>
        (await list.list({ page: 1, pageSize: OPTIONS_PAGE_SIZE, ...params })).items.map(labelOf),
      byId: async (id: number) => labelOf(await list.get(id)),
    };
  }, [entity, fieldEntity, fieldName, lng]);
}
