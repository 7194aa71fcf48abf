import { useState } from 'react';
import { Button, Modal, Radio, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateText } from '../dates/format';
import type { ChangedBy } from './conflict';

/** One field of a merge: its label, the user's value and theirs, as display text. */
export interface MergeField {
  field: string;
  label: string;
  mine: string;
  theirs: string;
}

/** A save (or a live change) to merge with the version someone else saved. */
export interface MergeState {
  /** Who saved the other version and when (null: not named). */
  changedBy: ChangedBy | null;
  changedAt: string | null;
  /** From a refused save (the merge saves again) or from a live change (it only fills the form). */
  from: 'save' | 'live';
  /** Fields both changed, to different values: the user chooses each. */
  both: MergeField[];
  /** Fields only they changed: taken as they are. */
  taken: MergeField[];
}

export type MergeChoice = 'mine' | 'theirs';

export interface MergeDialogProps {
  merge: MergeState | null;
  /** What was edited, for the title ("lawsuit"). */
  subject: string;
  saving?: boolean;
  /** The user's choice for each field both changed. */
  onApply: (choices: Record<string, MergeChoice>) => void;
  onClose: () => void;
}

/**
 * The merge of an edit with someone else's saved version, as a person would do it by hand: who
 * saved and when; each field both changed with their value and the user's, "keep mine" or "take
 * theirs" for each (nothing chosen for them); the fields only they changed, taken as they are.
 * From a refused save, applying saves again on their version.
 *
 * @example <MergeDialog merge={merge} subject={t('singular')} onApply={apply} onClose={close} />
 */
export function MergeDialog({ merge, subject, saving = false, onApply, onClose }: MergeDialogProps) {
  const { t } = useTranslation('ui');
  const [choices, setChoices] = useState<Record<string, MergeChoice>>({});
  const open = merge !== null;
  const chosen = merge ? merge.both.every((f) => choices[f.field]) : false;
  const close = (then: () => void) => {
    setChoices({});
    then();
  };
  const when = formatDateText(merge?.changedAt ?? null, 'datetime');

  /** A value as the tables show it: a dash for an empty one. */
  const shown = (value: string) => <Typography.Text>{value || '—'}</Typography.Text>;
  const fieldColumn = { key: 'label', dataIndex: 'label', title: t('conflict.field') };
  return (
    <Modal
      open={open}
      title={t('conflict.title', { name: subject })}
      onCancel={() => close(onClose)}
      destroyOnHidden
      width={760}
      footer={
        merge && (
          <Space wrap style={{ justifyContent: 'flex-end' }}>
            <Button onClick={() => close(onClose)}>{t('actions.cancel')}</Button>
            <Button
              type="primary"
              disabled={!chosen}
              loading={saving}
              onClick={() => {
                const picked = choices;
                close(() => onApply(picked));
              }}
            >
              {t(merge.from === 'save' ? 'conflict.merge.save' : 'conflict.merge.apply')}
            </Button>
          </Space>
        )
      }
    >
      {merge && (
        <Space orientation="vertical" style={{ inlineSize: '100%' }}>
          <Typography.Paragraph style={{ margin: 0 }}>
            {merge.changedBy
              ? t('conflict.changedBy', {
                  who: merge.changedBy.name,
                  time: when,
                  context: merge.changedBy.gender ?? undefined,
                })
              : t('conflict.changedBySomeone', { time: when })}
          </Typography.Paragraph>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {merge.both.length
              ? t('conflict.merge.choose', { count: merge.both.length })
              : t('conflict.merge.nothingToChoose')}
          </Typography.Paragraph>
          {merge.both.length > 0 && (
            <Table<MergeField>
              size="small"
              rowKey="field"
              pagination={false}
              dataSource={merge.both}
              scroll={{ x: 'max-content' }}
              columns={[
                fieldColumn,
                { key: 'theirs', dataIndex: 'theirs', title: t('conflict.theirs'), render: shown },
                { key: 'mine', dataIndex: 'mine', title: t('conflict.mine'), render: shown },
                {
                  key: 'choice',
                  title: t('conflict.merge.choice'),
                  render: (_: unknown, row: MergeField) => (
                    <Radio.Group
                      aria-label={t('conflict.merge.choiceOf', { field: row.label })}
                      value={choices[row.field]}
                      onChange={(e) =>
                        setChoices((current) => ({ ...current, [row.field]: e.target.value as MergeChoice }))
                      }
                      options={[
                        { value: 'mine', label: t('conflict.merge.keepMine') },
                        { value: 'theirs', label: t('conflict.merge.takeTheirs') },
                      ]}
                    />
                  ),
                },
              ]}
            />
          )}
          {merge.taken.length > 0 && (
            <>
              <Typography.Text strong>
                {t('conflict.merge.taken', { count: merge.taken.length })}
              </Typography.Text>
              <Table<MergeField>
                size="small"
                rowKey="field"
                pagination={false}
                dataSource={merge.taken}
                scroll={{ x: 'max-content' }}
                columns={[
                  fieldColumn,
                  {
                    key: 'theirs',
                    dataIndex: 'theirs',
                    title: t('conflict.theirs'),
                    render: (value: string) => (
                      <Space size={6}>
                        {shown(value)}
                        <Tag color="blue">{t('conflict.merge.takenTag')}</Tag>
                      </Space>
                    ),
                  },
                ]}
              />
            </>
          )}
        </Space>
      )}
    </Modal>
  );
}
