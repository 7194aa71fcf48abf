import { Checkbox } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useAuth } from '@mizan/sdk';

/** Days ahead of "due this week" (`dueWithinDays`). */
const WEEK = 7;

/**
 * The quick views of the tasks, each a filter of the list query under the key the list itself
 * keeps in the URL: mine (`assigneeIds=<me>`), created by me (`createdById=<me>`), overdue, and
 * due this week (`dueWithinDays=7`). So the list and the board share them through the address.
 */
export function quickFilters(me: number | undefined) {
  return [
    { name: 'mine', key: 'assigneeIds', value: me === undefined ? undefined : String(me) },
    { name: 'createdByMe', key: 'createdById', value: me === undefined ? undefined : String(me) },
    { name: 'overdue', key: 'overdue', value: 'true' },
    { name: 'dueWithinDays', key: 'dueWithinDays', value: String(WEEK) },
  ].filter((f): f is { name: string; key: string; value: string } => f.value !== undefined);
}

/** The quick views as check boxes; a change goes back to the first page. */
export function QuickFilters() {
  const { t } = useTranslation('tasks');
  const { user } = useAuth();
  const [search, setSearch] = useSearchParams();
  const filters = quickFilters(user?.id);
  return (
    <Checkbox.Group
      aria-label={t('board.filters')}
      value={filters.filter((f) => search.get(f.key) === f.value).map((f) => f.name)}
      options={filters.map((f) => ({ value: f.name, label: t(`filters.${f.name}`) }))}
      onChange={(checked) =>
        setSearch((current) => {
          const next = new URLSearchParams(current);
          for (const f of filters)
            if (checked.includes(f.name)) next.set(f.key, f.value);
            else if (next.get(f.key) === f.value) next.delete(f.key);
          next.delete('page');
          return next;
        })
      }
    />
  );
}
