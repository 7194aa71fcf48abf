import { useState } from 'react';
import { Input, List, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FILE_TEXT_ROUTES, type GlobalSearchHit } from '@mizan/contracts';
import { api } from '@mizan/sdk';

export interface FilesContentSearchProps {
  /** The entity the files belong to (`attachments`). */
  entity: string;
  /** The rows of the list shown (one lawsuit's attachments). */
  ownerIds: number[];
  /** A hit chosen: open its file at its page. */
  onOpen: (hit: GlobalSearchHit & { file: NonNullable<GlobalSearchHit['file']> }) => void;
}

/**
 * Searches the text of a list's files (scans included, read by OCR): each hit names the file,
 * the page found and a few words around what was found.
 */
export function FilesContentSearch({ entity, ownerIds, onOpen }: FilesContentSearchProps) {
  const { t } = useTranslation('ui');
  const [q, setQ] = useState('');
  const { data, isFetching } = useQuery({
    queryKey: ['filesContent', entity, ownerIds.join(','), q],
    queryFn: () =>
      api.call(
        FILE_TEXT_ROUTES.search,
        { query: { q, entity, ownerIds: ownerIds.join(',') } },
        { silent: true },
      ),
    enabled: q.length > 0 && ownerIds.length > 0,
  });
  return (
    <div>
      <Input.Search
        allowClear
        loading={isFetching}
        placeholder={t('record.files.contentSearch.placeholder')}
        aria-label={t('record.files.contentSearch.placeholder')}
        onSearch={(value) => setQ(value.trim())}
        style={{ maxInlineSize: 420 }}
      />
      {q && data && data.total > 0 && (
        <Typography.Text type="secondary" data-testid="files-content-total" style={{ display: 'block' }}>
          {t(data.totalCapped ? 'files.moreThan' : 'files.found', { count: data.total })}
        </Typography.Text>
      )}
      {q && data && (
        <List
          size="small"
          locale={{ emptyText: t('record.files.contentSearch.empty') }}
          dataSource={data.items.filter((hit) => hit.file)}
          renderItem={(hit) => (
            <List.Item>
              <Typography.Link onClick={() => onOpen(hit as Parameters<typeof onOpen>[0])}>
                <bdi>{hit.title}</bdi> · {t('record.files.contentSearch.page', { page: hit.file!.page })}
              </Typography.Link>
              <Typography.Text type="secondary" style={{ display: 'block' }}>
                <bdi>{hit.file!.snippet}</bdi>
              </Typography.Text>
            </List.Item>
          )}
        />
      )}
    </div>
  );
}
