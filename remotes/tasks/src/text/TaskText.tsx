import { useEffect, useState } from 'react';
import { Alert, Button, Flex, Modal, Space, Typography, theme } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { tasks, type TaskRecord } from '@mizan/contracts';
import { entityKeys, notify, useAuth } from '@mizan/sdk';
import { formatDateText, staleConflictOf, type EntityRow, type StaleConflict } from '@mizan/ui';
import { saveTaskText } from '../api';
import { TEXT_EXTENSIONS } from './extensions';
import { TextToolbar } from './TextToolbar';

/** An editor of the text attachment's schema: each paragraph's direction follows its own text. */
function useTextEditor(content: string, editable: boolean, label: string, onChange?: () => void) {
  return useEditor({
    extensions: TEXT_EXTENSIONS,
    content,
    editable,
    textDirection: 'auto',
    immediatelyRender: true,
    onUpdate: onChange,
    editorProps: {
      attributes: {
        'aria-label': label,
        'aria-multiline': 'true',
        role: 'textbox',
        class: 'mizan-task-text',
      },
    },
  });
}

/** Someone else's version of the text, read-only, as the editor would show it. */
function TheirText({ html, label }: { html: string; label: string }) {
  const editor = useTextEditor(html, false, label);
  return <EditorContent editor={editor} />;
}

/** The editor's frame: a bordered area in the theme's colours (readable light and dark). */
function useFrameStyle() {
  const { token } = theme.useToken();
  return {
    border: `1px solid ${token.colorBorder}`,
    borderRadius: token.borderRadius,
    padding: token.paddingSM,
    background: token.colorBgContainer,
    minBlockSize: 160,
  };
}

/** A save refused because the text changed since it was loaded. */
type TextConflict = StaleConflict<TaskRecord>;

/**
 * The task's text attachment (a memo draft, a checklist), edited in place: a formatting toolbar,
 * an editor whose paragraphs each take the direction of their own text, and "save", which sends
 * the HTML with the version it was loaded at. When someone saved in between (409) the user sees
 * their text beside their own and chooses: keep mine (saved over the new version) or take theirs;
 * nothing is overwritten without that choice. A change from elsewhere shows at once while the
 * user has not started editing.
 */
export function TaskText({ task }: { task: EntityRow }) {
  const { t } = useTranslation('tasks');
  const { can } = useAuth();
  const queryClient = useQueryClient();
  const editable = can('tasks.updateText');
  const stored = typeof task.text === 'string' ? task.text : '';
  const [version, setVersion] = useState(String(task.updatedAt));
  const [dirty, setDirty] = useState(false);
  const [conflict, setConflict] = useState<TextConflict | null>(null);
  const editor = useTextEditor(stored, editable, t('text.label'), () => setDirty(true));
  const frame = useFrameStyle();

  // Someone else's save arrives (the task's channel): shown as is unless the user is editing. Only
  // a newer version counts (ISO instants order as text): the one chosen in a conflict may be newer
  // than the page's copy for a moment.
  useEffect(() => {
    if (dirty || String(task.updatedAt) <= version) return;
    editor.commands.setContent(stored, { emitUpdate: false });
    setVersion(String(task.updatedAt));
  }, [dirty, editor, stored, task.updatedAt, version]);

  const save = useMutation({
    mutationFn: (base: string) => saveTaskText(task.id, { text: editor.getHTML(), updatedAt: base }),
    onSuccess: (saved) => {
      setVersion(saved.updatedAt);
      setDirty(false);
      queryClient.setQueryData<EntityRow>(entityKeys.detail(tasks.name, task.id), (row) =>
        row ? { ...row, ...saved } : row,
      );
      notify.success(t('text.saved'));
    },
    onError: (error) => {
      const stale = staleConflictOf<TaskRecord>(error);
      if (stale) setConflict(stale);
      else notify.error(error.message);
    },
  });

  const takeTheirs = (current: TaskRecord) => {
    editor.commands.setContent(current.text ?? '', { emitUpdate: false });
    setVersion(current.updatedAt);
    setDirty(false);
    setConflict(null);
    queryClient.setQueryData<EntityRow>(entityKeys.detail(tasks.name, task.id), (row) =>
      row ? { ...row, ...current } : row,
    );
  };
  const keepMine = (current: TaskRecord) => {
    setConflict(null);
    setVersion(current.updatedAt);
    save.mutate(current.updatedAt);
  };

  return (
    <section aria-label={t('text.title')}>
      {editable ? (
        <Flex vertical gap={8}>
          <Flex justify="space-between" align="center" wrap gap={8}>
            <TextToolbar editor={editor} />
            <Space>
              {dirty && <Typography.Text type="secondary">{t('text.unsaved')}</Typography.Text>}
              <Button
                type="primary"
                icon={<SaveOutlined />}
                loading={save.isPending}
                disabled={!dirty}
                onClick={() => save.mutate(version)}
              >
                {t('text.save')}
              </Button>
            </Space>
          </Flex>
          <div style={frame}>
            <EditorContent editor={editor} />
          </div>
        </Flex>
      ) : (
        <div style={frame}>
          {stored ? (
            <EditorContent editor={editor} />
          ) : (
            <Typography.Text type="secondary">{t('text.empty')}</Typography.Text>
          )}
        </div>
      )}
      <ConflictChoice
        conflict={conflict}
        mine={editor}
        onKeepMine={keepMine}
        onTakeTheirs={takeTheirs}
        onClose={() => setConflict(null)}
      />
    </section>
  );
}

/** The choice after a stale save: both versions side by side, then keep mine or take theirs. */
function ConflictChoice({
  conflict,
  mine,
  onKeepMine,
  onTakeTheirs,
  onClose,
}: {
  conflict: TextConflict | null;
  mine: Editor;
  onKeepMine: (current: TaskRecord) => void;
  onTakeTheirs: (current: TaskRecord) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('tasks');
  const frame = useFrameStyle();
  const when = formatDateText(conflict?.changedAt, 'datetime');
  return (
    <Modal
      open={conflict !== null}
      title={t('text.conflict.title')}
      onCancel={onClose}
      destroyOnHidden
      width={880}
      footer={
        conflict && (
          <Space wrap>
            <Button onClick={() => onKeepMine(conflict.current)}>{t('text.conflict.keepMine')}</Button>
            <Button type="primary" onClick={() => onTakeTheirs(conflict.current)}>
              {t('text.conflict.takeTheirs')}
            </Button>
          </Space>
        )
      }
    >
      {conflict && (
        <Flex vertical gap={12}>
          <Alert
            type="warning"
            showIcon
            title={
              conflict.changedBy
                ? t('text.conflict.changedBy', {
                    who: conflict.changedBy.name,
                    time: when,
                    context: conflict.changedBy.gender ?? undefined,
                  })
                : t('text.conflict.changedBySomeone', { time: when })
            }
            description={t('text.conflict.explain')}
          />
          <Flex wrap gap={12}>
            <section aria-label={t('text.conflict.theirs')} style={{ flex: '1 1 320px', minInlineSize: 0 }}>
              <Typography.Title level={5}>{t('text.conflict.theirs')}</Typography.Title>
              <div style={frame}>
                <TheirText html={conflict.current.text ?? ''} label={t('text.conflict.theirs')} />
              </div>
            </section>
            <section aria-label={t('text.conflict.mine')} style={{ flex: '1 1 320px', minInlineSize: 0 }}>
              <Typography.Title level={5}>{t('text.conflict.mine')}</Typography.Title>
              <div style={frame}>
                <TheirText html={mine.getHTML()} label={t('text.conflict.mine')} />
              </div>
            </section>
          </Flex>
        </Flex>
      )}
    </Modal>
  );
}
