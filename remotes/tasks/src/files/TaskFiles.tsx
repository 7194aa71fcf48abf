import { useState } from 'react';
import { Button, Flex, Progress, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { tasks, type FilesField } from '@mizan/contracts';
import { entityKeys, notify, useAuth } from '@mizan/sdk';
import {
  RecordFiles,
  checkFile,
  fileLimitBytes,
  fileFractions,
  formatSize,
  multipartLayout,
  type EntityRow,
} from '@mizan/ui';
import { uploadTaskFiles } from '../api';

const FIELD = tasks.fields.files as FilesField;

/** One file on its way: its name and how much of it has been sent (0–100). */
interface Sending {
  name: string;
  percent: number;
}

/**
 * The task's files: "add files" (checked against the field's limits first, then sent at once
 * with a progress bar per file) above the stored files with their preview, download and delete.
 */
export function TaskFiles({ task }: { task: EntityRow }) {
  const { t, i18n } = useTranslation('tasks');
  const { can } = useAuth();
  const queryClient = useQueryClient();
  const [sending, setSending] = useState<Sending[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const stored = Array.isArray(task.files) ? task.files.length : 0;

  const send = async (files: File[]) => {
    const form = new FormData();
    for (const file of files) form.append('files', file);
    const layout = multipartLayout(form.entries());
    setSending(files.map((file) => ({ name: file.name, percent: 0 })));
    try {
      await uploadTaskFiles(task.id, form, {
        onUploadProgress: (event) => {
          const fractions = fileFractions(layout, event.loaded, event.total);
          // Held at 99 until the server has stored them.
          setSending(
            files.map((file, i) => ({
              name: file.name,
              percent: Math.min(99, Math.floor((fractions[i] ?? 0) * 100)),
            })),
          );
        },
      });
      notify.success(t('files.added', { count: files.length }));
      await queryClient.invalidateQueries({ queryKey: entityKeys.detail(tasks.name, task.id) });
    } catch {
      // The SDK showed the server's message (413, 415, 422).
    } finally {
      setSending([]);
    }
  };

  return (
    <Flex vertical gap={16}>
      {can('tasks.update') && (
        <div>
          <Upload
            multiple
            showUploadList={false}
            accept={FIELD.accept.join(',')}
            disabled={sending.length > 0}
            beforeUpload={(file, batch) => {
              // antd calls this once per file of a batch; the whole batch is checked and sent once.
              if (file !== batch[0]) return false;
              const accepted: File[] = [];
              const found: string[] = [];
              for (const candidate of batch) {
                const problem = checkFile(candidate, FIELD, stored + accepted.length);
                if (problem) found.push(t(`files.problem.${problem.kind}`, { ns: 'ui', ...problem }));
                else accepted.push(candidate);
              }
              setProblems(found);
              if (accepted.length) void send(accepted);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} loading={sending.length > 0}>
              {t('files.add')}
            </Button>
          </Upload>
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, marginBlockStart: 4 }}>
            {t('files.limits', {
              ns: 'ui',
              count: FIELD.maxCount,
              size: formatSize(fileLimitBytes(FIELD), i18n.language),
            })}
          </Typography.Text>
          {sending.map(({ name, percent }) => (
            <div key={name}>
              <bdi>{name}</bdi>
              <Progress
                size="small"
                percent={percent}
                status="active"
                aria-label={t('files.progress.label', { ns: 'ui', name })}
                aria-valuetext={t('files.progress.uploading', { ns: 'ui', name, percent })}
              />
            </div>
          ))}
          {problems.map((text) => (
            <Typography.Text key={text} type="danger" role="alert" style={{ display: 'block' }}>
              {text}
            </Typography.Text>
          ))}
        </div>
      )}
      <RecordFiles entity={tasks} row={task} />
    </Flex>
  );
}
