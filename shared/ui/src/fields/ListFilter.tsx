import { Checkbox, InputNumber } from 'antd';
import type { ListFilterDefinition } from '@mizan/contracts';
import { DateFilter, parseNumberInput } from './registry';
import type { FilterControlProps } from './types';

/**
 * The control of a declared list filter (`listFilters` of a definition): a number box for an
 * integer filter (`?expiresWithin=30`, bounds from the definition, Eastern digits read), a
 * checkbox for a boolean one (`?expired=true`; unticked means no filter), a day picker for a date
 * one (`?filedFrom=2026-01-31`).
 */
export function ListFilter({
  filter,
  label,
  value,
  onChange,
}: FilterControlProps & { filter: ListFilterDefinition; label: string }) {
  if (filter.type === 'date') return <DateFilter label={label} value={value} onChange={onChange} />;
  if (filter.type === 'boolean')
    return (
      <Checkbox checked={value === 'true'} onChange={(e) => onChange(e.target.checked ? 'true' : undefined)}>
        {label}
      </Checkbox>
    );
  return (
    <InputNumber<string>
      aria-label={label}
      placeholder={label}
      stringMode
      min={filter.min === undefined ? undefined : String(filter.min)}
      max={filter.max === undefined ? undefined : String(filter.max)}
      precision={0}
      parser={parseNumberInput}
      value={value === undefined ? null : value}
      onChange={(v) => onChange(v === null || v === undefined || v === '' ? undefined : String(v))}
      style={{ minWidth: 160 }}
    />
  );
}
