import { useState } from 'react';
import { Input } from 'antd';

/**
 * A list's search box. What is typed is its own state: it follows `value` (the URL's `q`) when
 * that changes from elsewhere (a cleared filter, the browser's back button), but not when the
 * search this box sent arrives. Navigations are React transitions (React Router 7), so the URL's
 * new `q` can reach this box after the person has already typed the next search; replacing the
 * text then would make Enter search the old text again (seen in the browser tests on PostgreSQL).
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
  const [text, setText] = useState(value ?? '');
  const [shown, setShown] = useState(value);
  // The search this box sent last, until `value` carries it (null: none on its way). `q` is
  // trimmed, and empty means none, as the list state stores it.
  const [sent, setSent] = useState<string | undefined | null>(null);
  if (shown !== value) {
    setShown(value);
    // While a search of this box is on its way, `value` is either that search or an older one
    // overtaken by it: neither is newer than what the box holds.
    if (sent === null) setText(value ?? '');
    else if (sent === value) setSent(null);
  }
  return (
    <Input.Search
      value={text}
      onChange={(event) => setText(event.target.value)}
      placeholder={label}
      aria-label={label}
      allowClear
      enterButton
      onSearch={(q) => {
        const next = q.trim() || undefined;
        if (next !== value) setSent(next);
        onSearch(q);
      }}
      style={{ inlineSize: 280, maxInlineSize: '100%' }}
    />
  );
}
