import { useEffect, useState } from 'react';
import { Alert, Button, Empty, Flex, Space, Spin, Tag, Typography } from 'antd';
import { EyeOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import {
  FILE_TEXT_ROUTES,
  permissionKey,
  type Entity,
  type Fields,
  type FileTextStatus,
  type StoredFile,
} from '@mizan/contracts';
import { api } from '@mizan/sdk';
import { entityApi, entityKeys, fetchFile, notify, useCan } from '../data';
import { useEntityText } from '../entity/labels';
import { formatSize } from '../fields/files';
import { DeleteFileButton, DownloadFileButton } from '../fields/StoredFileButtons';
import type { EntityRow } from '../fields/types';
import { FileVersions } from './FileVersions';

/** Types a browser shows inline: PDFs in a frame, images as images. */
const previewKind = (mime: string): 'pdf' | 'image' | null =>
  mime === 'application/pdf' ? 'pdf' : mime.startsWith('image/') ? 'image' : null;

/** The files fields of a definition. */
export function filesFields(entity: Entity<Fields>): string[] {
  return Object.entries(entity.fields)
    .filter(([, field]) => field.type === 'files')
    .map(([name]) => name);
}

/** Where reading a file's text stands, as a tag (queued, page n of m, extracted, OCR'd, failed...). */
function TextState({ status }: { status: FileTextStatus }) {
  const { t } = useTranslation('ui');
  const { state, progress, confidence, error } = status;
  const key = 'record.files.text';
  if (state === 'queued')
    return (
      <Tag color="processing">
        {progress.total
          ? t(`${key}.reading`, { done: progress.done, total: progress.total })
          : t(`${key}.queued`)}
      </Tag>
    );
  if (state === 'failed') return <Tag color="error">{t(`${key}.failed`, { reason: error ?? '' })}</Tag>;
  if (state === 'unavailable') return <Tag color="warning">{t(`${key}.unavailable`)}</Tag>;
  if (state === 'ocr')
    return <Tag color="success">{t(`${key}.ocr`, { confidence: Math.round(confidence ?? 0) })}</Tag>;
  return <Tag color={state === 'extracted' ? 'success' : 'default'}>{t(`${key}.${state}`)}</Tag>;
}

/** The text state of each file, polled while one is still being read. */
function useTextStates(ids: number[]): Map<number, FileTextStatus> {
  const { data } = useQuery({
    queryKey: ['fileTextStates', ids.join(',')],
    queryFn: () => api.call(FILE_TEXT_ROUTES.states, { query: { ids: ids.join(',') } }, { silent: true }),
    enabled: ids.length > 0,
    refetchInterval: (query) =>
      query.state.data?.items.some((item: FileTextStatus) => item.state === 'queued') ? 3000 : false,
  });
  return new Map((data?.items ?? []).map((item: FileTextStatus) => [item.fileId, item]));
}

/** A stored file fetched through the authorised route and shown inline (PDF frame or image), a PDF at `page`. */
function Preview({ file, page }: { file: StoredFile; page?: number }) {
  const { t } = useTranslation('ui');
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    let made: string | null = null;
    setUrl(null);
    setFailed(false);
    fetchFile(file.id, { signal: controller.signal, silent: true })
      .then((blob) => {
        // The stored type, so the browser's PDF viewer opens it whatever the answer's header said.
        made = URL.createObjectURL(new Blob([blob], { type: file.mimeType }));
        setUrl(made);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [file.id, file.mimeType]);
  const title = t('record.files.previewTitle', { ns: 'ui', name: file.originalName });
  if (failed) return <Alert type="error" showIcon title={t('record.files.previewFailed', { ns: 'ui' })} />;
  if (!url) return <Spin />;
  return previewKind(file.mimeType) === 'pdf' ? (
    <iframe
      src={page ? `${url}#page=${page}` : url}
      title={title}
      style={{ inlineSize: '100%', blockSize: '70vh', border: '1px solid rgba(0,0,0,0.1)' }}
    />
  ) : (
    <img
      src={url}
      alt={title}
      style={{ maxInlineSize: '100%', maxBlockSize: '70vh', objectFit: 'contain' }}
    />
  );
}

export interface RecordFilesProps {
  entity: Entity<Fields>;
  row: EntityRow;
}

/**
 * The stored files of a record (every `files` field): inline preview of PDFs and images,
 * download, and delete where the definition has a file route and the user may update the record.
 */
export function RecordFiles({ entity, row }: RecordFilesProps) {
  const text = useEntityText(entity);
  const { t, lng } = text;
  const can = useCan();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<number | null>(null);
  const canDelete = Boolean(entity.fileDeletePath) && can(permissionKey(entity, 'update'));
  const files = filesFields(entity).flatMap((name) =>
    ((row[name] as StoredFile[] | undefined) ?? []).map((file) => ({ field: name, file })),
  );
  // A search hit opens its file at the page found (`?file=<id>&page=<n>`).
  const [searchParams] = useSearchParams();
  const asked = files.find(({ file }) => String(file.id) === searchParams.get('file'))?.file ?? null;
  const askedPage = Number(searchParams.get('page')) || undefined;
  const [shown, setShown] = useState<StoredFile | null>(asked);
  // Asked again (another hit of a content search on the same page): shown at once.
  useEffect(() => {
    if (asked) setShown(asked);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- by the id asked, not the object
  }, [asked?.id, askedPage]);
  const states = useTextStates(files.map(({ file }) => file.id));
  const remove = async (file: StoredFile) => {
    setBusy(file.id);
    try {
      await entityApi(entity).deleteFile(row.id, file.id);
      notify.success(t('record.files.deleted', { ns: 'ui' }));
      if (shown?.id === file.id) setShown(null);
      await queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) });
    } catch {
      // The SDK showed the server's message.
    } finally {
      setBusy(null);
    }
  };

  if (files.length === 0) return <Empty description={t('record.files.empty', { ns: 'ui' })} />;
  return (
    <Flex vertical gap={16}>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {files.map(({ field, file }) => (
          <li key={file.id} style={{ borderBlockEnd: '1px solid rgba(5, 5, 5, 0.06)', paddingBlock: 8 }}>
            <Flex wrap gap={8} align="center" justify="space-between">
              <Flex vertical style={{ minInlineSize: 0 }}>
                <bdi style={{ overflowWrap: 'anywhere' }}>{file.originalName}</bdi>
                <Typography.Text type="secondary">
                  {text.label(field)} · {formatSize(file.size, lng)}
                  {!previewKind(file.mimeType) && ` · ${t('record.files.noPreview', { ns: 'ui' })}`}
                </Typography.Text>
                {states.get(file.id) && <TextState status={states.get(file.id)!} />}
              </Flex>
              <Space size={4}>
                {previewKind(file.mimeType) && (
                  <Button
                    type="link"
                    size="small"
                    icon={<EyeOutlined />}
                    aria-pressed={shown?.id === file.id}
                    aria-label={t('record.files.preview', { ns: 'ui', name: file.originalName })}
                    onClick={() => setShown(shown?.id === file.id ? null : file)}
                  />
                )}
                <DownloadFileButton
                  file={file}
                  onFailure={() => notify.error(t('files.downloadFailed', { ns: 'ui' }))}
                />
                <FileVersions
                  file={file}
                  canEdit={can(permissionKey(entity, 'update'))}
                  onChanged={() =>
                    void queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) })
                  }
                />
                {canDelete && (
                  <DeleteFileButton file={file} busy={busy === file.id} onConfirm={() => remove(file)} />
                )}
              </Space>
            </Flex>
          </li>
        ))}
      </ul>
      {shown && <Preview key={shown.id} file={shown} page={shown.id === asked?.id ? askedPage : undefined} />}
    </Flex>
  );
}
