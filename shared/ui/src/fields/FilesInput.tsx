import { createContext, useContext, useState } from 'react';
import { Button, List, Progress, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { Entity, Fields, FilesField, StoredFile } from '@mizan/contracts';
import { entityApi, entityKeys, useCan } from '../data';
import { checkFile, fileLimitBytes, formatSize, type FileProblem, type FileUpload } from './files';
import { DeleteFileButton, DownloadFileButton } from './StoredFileButtons';

/**
 * The upload state of the files of one field while its form is saved (`useEntityForm` provides
 * it around each files input): a progress bar per file, then done or the server's refusal.
 */
export const UploadProgressContext = createContext<readonly FileUpload[] | undefined>(undefined);

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
  const uploads = useContext(UploadProgressContext);
  const uploadOf = (index: number) => uploads?.find((u) => u.file === value[index]);

  const fileList: UploadFile[] = value.map((file, index) => ({
    uid: `${index}-${file.name}-${file.size}`,
    name: file.name,
    size: file.size,
    type: file.type,
    status: uploadOf(index)?.status === 'error' ? 'error' : 'done',
    response: uploadOf(index)?.error,
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
                <DownloadFileButton
                  key="download"
                  file={file}
                  onFailure={() => setFailure(t('files.downloadFailed'))}
                />,
                canDelete && (
                  <DeleteFileButton
                    key="delete"
                    file={file}
                    busy={busy === file.id}
                    onConfirm={() => remove(file)}
                  />
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
        itemRender={(node, item) => {
          const index = fileList.findIndex((f) => f.uid === item.uid);
          const upload = uploadOf(index);
          if (!upload) return node;
          const name = item.name;
          return (
            <div>
              {node}
              <Progress
                size="small"
                percent={upload.status === 'error' ? 100 : upload.percent}
                status={
                  upload.status === 'done' ? 'success' : upload.status === 'error' ? 'exception' : 'active'
                }
                aria-label={t('files.progress.label', { name })}
                aria-valuetext={t(`files.progress.${upload.status}`, { name, percent: upload.percent })}
              />
              {upload.error && (
                <Typography.Text type="danger" role="alert" style={{ display: 'block', fontSize: 12 }}>
                  {/* The server's message names the file itself; a message that does not gets the name. */}
                  {upload.error.includes(name) ? (
                    upload.error
                  ) : (
                    <>
                      <bdi>{name}</bdi>: {upload.error}
                    </>
                  )}
                </Typography.Text>
              )}
            </div>
          );
        }}
        onRemove={(removed) => {
          onChange?.(value.filter((_, index) => fileList[index]?.uid !== removed.uid));
          return true;
        }}
      >
        <Button icon={<UploadOutlined />}>{t('files.choose')}</Button>
      </Upload>
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, marginBlockStart: 4 }}>
        {t('files.limits', { count: field.maxCount, size: formatSize(fileLimitBytes(field), i18n.language) })}
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
