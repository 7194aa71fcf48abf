import { useState } from 'react';
import { Button, Empty, Flex, Input, Popconfirm, Skeleton, Space, Typography, Upload, theme } from 'antd';
import { DeleteOutlined, EditOutlined, PaperClipOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  TASK_COMMENT_MAX,
  taskComments,
  type FilesField,
  type StoredFile,
  type TaskComment,
} from '@mizan/contracts';
import { useAuth } from '@mizan/sdk';
import { DualDate, checkFile, downloadStoredFile, refLabels, type EntityRow } from '@mizan/ui';
import { useComments } from './useComments';

const FILES = taskComments.fields.files as FilesField;

/** A comment's stored files, each a download button named after the file. */
function CommentFiles({ files }: { files: StoredFile[] }) {
  const { t } = useTranslation('tasks');
  if (files.length === 0) return null;
  return (
    <Flex wrap gap={4}>
      {files.map((file) => (
        <Button
          key={file.id}
          size="small"
          icon={<PaperClipOutlined />}
          aria-label={t('files.download', { ns: 'ui', name: file.originalName })}
          onClick={() => void downloadStoredFile(file).catch(() => undefined)}
        >
          <bdi>{file.originalName}</bdi>
        </Button>
      ))}
    </Flex>
  );
}

/** One comment: author, time (and "edited"), text, files; edit and delete for its author or a moderator. */
function CommentItem({
  comment,
  mayChange,
  onSave,
  onDelete,
}: {
  comment: TaskComment;
  mayChange: { edit: boolean; remove: boolean };
  onSave: (body: string) => Promise<unknown>;
  onDelete: () => Promise<unknown>;
}) {
  const { t } = useTranslation('tasks');
  const { token } = theme.useToken();
  const [editing, setEditing] = useState<string | null>(null);
  // The engine's row also carries the author's label beside the declared fields.
  const author =
    refLabels(comment as unknown as EntityRow, 'authorId', taskComments.fields.authorId)[0]?.name ??
    `#${comment.authorId}`;
  const files = (comment.files ?? []) as StoredFile[];
  const headingId = `comment-${comment.id}`;

  return (
    <article
      aria-labelledby={headingId}
      style={{ borderBlockEnd: `1px solid ${token.colorSplit}`, paddingBlock: token.paddingSM }}
    >
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Space size={8} wrap id={headingId}>
          <Typography.Text strong>
            <bdi>{author}</bdi>
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            <DualDate value={comment.createdAt} type="datetime" primaryOnly />
          </Typography.Text>
          {comment.updatedAt > comment.createdAt && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('comments.edited')}
            </Typography.Text>
          )}
        </Space>
        {editing === null && (
          <Space size={4}>
            {mayChange.edit && (
              <Button
                type="text"
                size="small"
                icon={<EditOutlined />}
                aria-label={t('comments.edit', { who: author })}
                onClick={() => setEditing(comment.body)}
              />
            )}
            {mayChange.remove && (
              <Popconfirm
                title={t('comments.deleteConfirm')}
                okText={t('actions.delete', { ns: 'ui' })}
                cancelText={t('actions.cancel', { ns: 'ui' })}
                okButtonProps={{ danger: true }}
                onConfirm={() => onDelete().catch(() => undefined)}
              >
                <Button
                  type="text"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('comments.delete', { who: author })}
                />
              </Popconfirm>
            )}
          </Space>
        )}
      </Flex>
      {editing === null ? (
        <Typography.Paragraph dir="auto" style={{ whiteSpace: 'pre-wrap', marginBlock: 4 }}>
          {comment.body}
        </Typography.Paragraph>
      ) : (
        <Flex vertical gap={4} style={{ marginBlock: 4 }}>
          <Input.TextArea
            dir="auto"
            autoSize={{ minRows: 2, maxRows: 8 }}
            maxLength={TASK_COMMENT_MAX}
            value={editing}
            aria-label={t('comments.editLabel')}
            onChange={(event) => setEditing(event.target.value)}
          />
          <Space>
            <Button
              type="primary"
              size="small"
              disabled={!editing.trim()}
              onClick={() =>
                void onSave(editing.trim()).then(
                  () => setEditing(null),
                  () => undefined,
                )
              }
            >
              {t('actions.save', { ns: 'ui' })}
            </Button>
            <Button size="small" onClick={() => setEditing(null)}>
              {t('actions.cancel', { ns: 'ui' })}
            </Button>
          </Space>
        </Flex>
      )}
      <CommentFiles files={files} />
    </article>
  );
}

/** The new comment's text and files; sent together. */
function Composer({ onSend }: { onSend: (body: string, files: File[]) => Promise<unknown> }) {
  const { t } = useTranslation('tasks');
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const send = async () => {
    setBusy(true);
    try {
      await onSend(body.trim(), files);
      setBody('');
      setFiles([]);
    } catch {
      // The SDK showed the server's message; the draft stays.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Flex vertical gap={8}>
      <Input.TextArea
        dir="auto"
        autoSize={{ minRows: 2, maxRows: 8 }}
        maxLength={TASK_COMMENT_MAX}
        value={body}
        aria-label={t('comments.new')}
        placeholder={t('comments.placeholder')}
        onChange={(event) => setBody(event.target.value)}
      />
      <Flex justify="space-between" align="start" wrap gap={8}>
        <Upload
          multiple
          accept={FILES.accept.join(',')}
          fileList={files.map((file, i) => ({ uid: `${i}-${file.name}`, name: file.name, status: 'done' }))}
          onRemove={(removed) =>
            setFiles((list) => list.filter((_, i) => `${i}-${list[i]!.name}` !== removed.uid))
          }
          beforeUpload={(file, batch) => {
            if (file !== batch[0]) return false;
            const accepted: File[] = [];
            const found: string[] = [];
            for (const candidate of batch) {
              const problem = checkFile(candidate, FILES, files.length + accepted.length);
              if (problem) found.push(t(`files.problem.${problem.kind}`, { ns: 'ui', ...problem }));
              else accepted.push(candidate);
            }
            setProblems(found);
            setFiles((list) => [...list, ...accepted]);
            return false;
          }}
        >
          <Button icon={<PaperClipOutlined />}>{t('comments.attach')}</Button>
        </Upload>
        <Button type="primary" loading={busy} disabled={!body.trim()} onClick={() => void send()}>
          {t('comments.send')}
        </Button>
      </Flex>
      {problems.map((text) => (
        <Typography.Text key={text} type="danger" role="alert">
          {text}
        </Typography.Text>
      ))}
    </Flex>
  );
}

/**
 * A task's comment thread, oldest first, live through the task's channel (the record page
 * follows it): each comment with its author, time and files; edit and delete only on one's own
 * comments, or on anyone's with `tasks.moderate`; a composer with optional files at the end.
 */
export function CommentsThread({ taskId }: { taskId: number }) {
  const { t } = useTranslation('tasks');
  const { user, can } = useAuth();
  const { thread, comments, create, edit, remove } = useComments(taskId);
  const moderator = can('tasks.moderate');
  const mayChange = (comment: TaskComment) => {
    const own = moderator || comment.authorId === user?.id;
    return { edit: own && can('taskComments.update'), remove: own && can('taskComments.delete') };
  };

  return (
    <section aria-label={t('comments.title')}>
      {thread.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : comments.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('comments.empty')} />
      ) : (
        <div role="feed" aria-label={t('comments.title')} aria-busy={thread.isFetching}>
          {comments.map((comment) => (
            <CommentItem
              key={comment.id}
              comment={comment}
              mayChange={mayChange(comment)}
              onSave={(body) => edit.mutateAsync({ comment, body })}
              onDelete={() => remove.mutateAsync(comment)}
            />
          ))}
        </div>
      )}
      {thread.hasNextPage && (
        <Button type="link" loading={thread.isFetchingNextPage} onClick={() => void thread.fetchNextPage()}>
          {t('comments.more')}
        </Button>
      )}
      {can('taskComments.create') && (
        <div style={{ marginBlockStart: 16 }}>
          <Composer onSend={(body, files) => create.mutateAsync({ body, files })} />
        </div>
      )}
    </section>
  );
}
