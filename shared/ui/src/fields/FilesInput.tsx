import { useState } from 'react';
import { Button, List, Popconfirm, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { DeleteOutlined, DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { Entity, Fields, FilesField, StoredFile } from '@mizan/contracts';
import { entityApi, entityKeys, useCan } from '../data';
import { checkFile, downloadStoredFile, formatSize, type FileProblem } from './files';

export interface FilesInputProps {
  entity: Entity<Fields>;
  field: FilesField;
  /** New files chosen for upload (sent as multipart parts named after the field). */
  value?: File[];
  onChange?: (files: File[]) => void;
  /** The edited row's stored files; absent on create. */
  existing?: StoredFile[];
  /** The edited row's id, for deleting stored files. */
  ownerId?: number;
  id?: string;
}

/** Upload list for a `files` field: new files checked against the field's limits, stored ones downloadable. */
export function FilesInput({
  entity,
  field,
  value = [],
  onChange,
  existing = [],
  ownerId,
  id,
}: FilesInputProps) {
  const { t, i18n } = useTranslation('ui');
  const can = useCan();
  const queryClient = useQueryClient();
  const [stored, setStored] = useState(existing);
  const [problems, setProblems] = useState<FileProblem[]>([]);
  const [busy, setBusy] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const fileList: UploadFile[] = value.map((file, index) => ({
    uid: `${index}-${file.name}-${file.size}`,
    name: file.name,
    size: file.size,
    type: file.type,
    status: 'done',
  }));

  const remove = async (file: StoredFile) => {
    if (!entity.fileDeletePath || ownerId === undefined) return;
    setBusy(file.id);
    setFailure(null);
    try {
      await entityApi(entity).deleteFile(ownerId, file.id);
      setStored((files) => files.filter((f) => f.id !== file.id));
      await queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) });
    } catch (error) {
      setFailure(error instanceof Error ? error.message : t('errors.generic'));
    } finally {
      setBusy(null);
    }
  };

  const canDelete = Boolean(entity.fileDeletePath) && ownerId !== undefined && can(`${entity.name}.update`);

  return (
    <div id={id}>
      {stored.length > 0 && (
        <List
          size="small"
          dataSource={stored}
          style={{ marginBlockEnd: 8 }}
          renderItem={(file) => (
            <List.Item
              actions={[
                <Button
                  key="download"
                  type="link"
                  size="small"
                  icon={<DownloadOutlined />}
                  aria-label={t('files.download', { name: file.originalName })}
                  onClick={() =>
                    void downloadStoredFile(file).catch(() => setFailure(t('files.downloadFailed')))
                  }
                />,
                canDelete && (
                  <Popconfirm
                    key="delete"
                    title={t('files.confirmDelete', { name: file.originalName })}
                    okText={t('actions.delete')}
                    cancelText={t('actions.cancel')}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => remove(file)}
                  >
                    <Button
                      type="link"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      loading={busy === file.id}
                      aria-label={t('files.delete', { name: file.originalName })}
                    />
                  </Popconfirm>
                ),
              ].filter(Boolean)}
            >
              <Typography.Text ellipsis style={{ maxWidth: 260 }}>
                <bdi>{file.originalName}</bdi>
              </Typography.Text>
              <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
                {formatSize(file.size, i18n.language)}
              </Typography.Text>
            </List.Item>
          )}
        />
      )}
      <Upload
        multiple
        fileList={fileList}
        accept={field.accept.join(',')}
        beforeUpload={(file, batch) => {
          // antd calls this once per file of a batch; check the whole batch on its first file.
          if (file !== batch[0]) return false;
          const accepted: File[] = [];
          const found: FileProblem[] = [];
          for (const candidate of batch) {
            const problem = checkFile(candidate, field, stored.length + value.length + accepted.length);
            if (problem) found.push(problem);
            else accepted.push(candidate);
          }
          setProblems(found);
          if (accepted.length) onChange?.([...value, ...accepted]);
          return false;
        }}
        onRemove={(removed) => {
          onChange?.(value.filter((_, index) => fileList[index]?.uid !== removed.uid));
          return true;
        }}
      >
        <Button icon={<UploadOutlined />}>{t('files.choose')}</Button>
      </Upload>
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, marginBlockStart: 4 }}>
        {t('files.limits', { count: field.maxCount, size: formatSize(field.maxSize, i18n.language) })}
      </Typography.Text>
      {[...problems.map((p) => t(`files.problem.${p.kind}`, { ...p })), ...(failure ? [failure] : [])].map(
        (text) => (
          <Typography.Text key={text} type="danger" role="alert" style={{ display: 'block' }}>
            {text}
          </Typography.Text>
        ),
      )}
    </div>
  );
}
