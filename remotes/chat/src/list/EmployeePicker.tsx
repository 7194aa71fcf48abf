import { useDebouncedValue } from '@mizan/ui';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chatApi, chatKeys } from '../api';

export interface EmployeePickerProps {
  value?: number | number[];
  onChange?: (value: number | number[]) => void;
  multiple?: boolean;
  /** Names of employees already chosen, so they show before a search finds them. */
  known?: { id: number; name: string }[];
  'aria-label'?: string;
  id?: string;
}

/** Employees to chat with, searched on the server as the name is typed (Arabic-folded there). */
export function EmployeePicker({ value, onChange, multiple, known = [], ...rest }: EmployeePickerProps) {
  const { t } = useTranslation('chat');
  const [q, setQ] = useState('');
  const search = useDebouncedValue(q, 300);
  const found = useQuery({ queryKey: chatKeys.employees(search), queryFn: () => chatApi.employees(search) });
  const options = new Map(known.map((e) => [e.id, e.name]));
  for (const e of found.data?.items ?? []) options.set(e.id, e.name);
  return (
    <Select
      {...rest}
      showSearch={{ filterOption: false, onSearch: setQ }}
      mode={multiple ? 'multiple' : undefined}
      value={value}
      onChange={onChange}
      loading={found.isFetching}
      placeholder={t('picker.placeholder')}
      notFoundContent={t('picker.none')}
      options={[...options].map(([id, name]) => ({ value: id, label: name }))}
    />
  );
}
