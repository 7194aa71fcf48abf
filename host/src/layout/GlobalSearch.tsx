import { SearchOutlined } from '@ant-design/icons';
import {
  GLOBAL_SEARCH_KINDS,
  SEARCH_ROUTES,
  getEntity,
  permissionKey,
  type GlobalSearchGroup,
  type GlobalSearchKind,
} from '@mizan/contracts';
import { api, useAuth } from '@mizan/sdk';
import { recordPath } from '@mizan/ui';
import { useQuery } from '@tanstack/react-query';
import { AutoComplete, Input, Typography, type InputRef } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

/** Quiet time after the last key before the server is asked. */
const DEBOUNCE_MS = 250;

/** The query sent: the typed text once it has stopped changing for `DEBOUNCE_MS`. */
function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/** Ctrl+K (⌘K) anywhere, or `/` outside a text field, puts the cursor in the box. */
function useFocusShortcut(input: React.RefObject<InputRef | null>) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target?.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target?.tagName ?? '');
      const shortcut =
        ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') ||
        (event.key === '/' && !typing);
      if (!shortcut) return;
      event.preventDefault();
      input.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [input]);
}

const optionValue = (kind: GlobalSearchKind, id: number) => `${kind}:${id}`;

/**
 * The header's search box over clients, opponents, lawsuits (file and case numbers) and their
 * hearings (`GET /api/search`): hits grouped by kind, arrow keys to move, Enter to open the
 * record, Escape to close; Ctrl+K or `/` to reach it. Shown to readers of at least one kind.
 */
export function GlobalSearch() {
  const { t } = useTranslation('layout');
  const { can } = useAuth();
  const navigate = useNavigate();
  const input = useRef<InputRef>(null);
  const [text, setText] = useState('');
  const q = useSettled(text.trim());
  useFocusShortcut(input);

  // Files are searched for whoever reads one of the other kinds (each file by its own read rule).
  const allowed = GLOBAL_SEARCH_KINDS.some((kind) => kind !== 'files' && can(permissionKey(kind, 'view')));
  const { data, isFetching } = useQuery({
    queryKey: ['globalSearch', q],
    queryFn: () => api.call(SEARCH_ROUTES.global, { query: { q } }, { silent: true }),
    enabled: allowed && q.length > 0,
    staleTime: 10_000,
  });
  if (!allowed) return null;

  const groups: GlobalSearchGroup[] = q && data ? data.groups : [];
  const options = groups.map((group) => ({
    label: (
      <span data-testid={`search-group-${group.kind}`}>
        {t(`search.kinds.${group.kind}`)} (
        {group.totalCapped
          ? t('ui:files.moreThan', { count: group.total })
          : t('search.total', { count: group.total })}
        )
      </span>
    ),
    title: t(`search.kinds.${group.kind}`),
    options: group.items.map((hit) => ({
      value: optionValue(group.kind, hit.id),
      label: (
        <span style={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
          <bdi>{hit.title}</bdi>
          {hit.detail ? (
            <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
              <bdi>{hit.detail}</bdi>
            </Typography.Text>
          ) : null}
          {hit.file ? (
            <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
              {t('search.filePage', { page: hit.file.page })} · <bdi>{hit.file.snippet}</bdi>
            </Typography.Text>
          ) : null}
        </span>
      ),
    })),
  }));

  const open = (value: string) => {
    const [kind, id] = value.split(':') as [GlobalSearchKind, string];
    setText('');
    input.current?.blur();
    if (kind === 'files') {
      // A file found by its content: the record it belongs to, its files tab, the file at that page.
      const file = groups.find((g) => g.kind === 'files')?.items.find((hit) => String(hit.id) === id)?.file;
      if (file)
        void navigate(
          `${recordPath(getEntity(file.entity), file.ownerId)}?tab=files&file=${id}&page=${file.page}`,
        );
      return;
    }
    void navigate(recordPath(getEntity(kind), id));
  };

  return (
    <AutoComplete
      value={text}
      options={options}
      onChange={setText}
      onSelect={open}
      // The first hit is highlighted: Enter opens it at once.
      defaultActiveFirstOption
      // Hits come from the server already filtered by the folded query.
      filterOption={false}
      notFoundContent={q && data && !isFetching ? t('search.empty') : null}
      popupMatchSelectWidth={360}
      style={{ width: 'min(320px, 30vw)' }}
    >
      <Input
        ref={input}
        allowClear
        prefix={<SearchOutlined />}
        placeholder={t('search.placeholder')}
        aria-label={t('search.label')}
        aria-keyshortcuts="Control+K /"
      />
    </AutoComplete>
  );
}
