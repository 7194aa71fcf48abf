import { Input } from 'antd';
import { useDraft } from '../fields/useDraft';

/**
 * A list's search box. What is typed is its own state: it follows `value` (the URL's `q`) when
 * that changes from elsewhere, not when the search this box sent arrives late (see `useDraft`;
 * Enter once searched the previous text again in the browser tests on PostgreSQL).
 *
 * @example <SearchBox value={query.q} label={t('table.search')} onSearch={(q) => update({ q })} />
 */
export function SearchBox({
  value,
  label,
  onSearch,
}: {
  value: string | undefined;
  label: string;
  onSearch: (q: string) => void;
}) {
  const { draft, setDraft, sending } = useDraft(value);
  return (
    <Input.Search
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      placeholder={label}
      aria-label={label}
      allowClear
      enterButton
      onSearch={(q) => {
        // `q` is trimmed, and empty means none, as the list state stores it.
        sending(q.trim() || undefined);
        onSearch(q);
      }}
      style={{ inlineSize: 280, maxInlineSize: '100%' }}
    />
  );
}
