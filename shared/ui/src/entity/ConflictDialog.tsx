import { useState } from 'react';
import { Button, Modal, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateText } from '../dates/format';
import type { FieldDifference, StaleConflict } from './conflict';

export interface ConflictDialogProps<Row> {
  /** The refused save (open while set), or a live change the user asked to see. */
  conflict: StaleConflict<Row> | null;
  /** What was edited, for the title ("court", "system settings"). */
  subject: string;
  /** The per-field "mine versus theirs" of the current version, computed when the user asks. */
  differences: (current: Row) => FieldDifference[];
  /** Their version replaces the form's values. */
  onReload: (current: Row) => void;
  /** The user's values stay; the next save is based on the current version. */
  onKeepMine: (current: Row) => void;
  onClose: () => void;
}

/**
 * The dialog of a stale save: who changed the record and when, then "load their version" or
 * "review differences" (field, your value, their value) and keep editing on their version.
 *
 * @example <ConflictDialog conflict={conflict} subject={t('title')} differences={diff} onReload={load} onKeepMine={keep} onClose={close} />
 */
export function ConflictDialog<Row>({
  conflict,
  subject,
  differences,
  onReload,
  onKeepMine,
  onClose,
}: ConflictDialogProps<Row>) {
  const { t } = useTranslation('ui');
  const [review, setReview] = useState<FieldDifference[] | null>(null);
  const when = (at: string | null) => formatDateText(at, 'datetime');
  const close = (then?: () => void) => {
    setReview(null);
    then?.();
  };

  return (
    <Modal
      open={conflict !== null}
      title={t('conflict.title', { name: subject })}
      onCancel={() => close(onClose)}
      destroyOnHidden
      width={review ? 720 : 520}
      footer={
        conflict && (
          <Space wrap style={{ justifyContent: 'flex-end' }}>
            {review ? (
              <Button onClick={() => close(() => onKeepMine(conflict.current))}>
                {t('conflict.keepMine')}
              </Button>
            ) : (
              <Button onClick={() => setReview(differences(conflict.current))}>{t('conflict.review')}</Button>
            )}
            <Button type="primary" onClick={() => close(() => onReload(conflict.current))}>
              {t('conflict.reload')}
            </Button>
          </Space>
        )
      }
    >
      {conflict && (
        <Space orientation="vertical" style={{ inlineSize: '100%' }}>
          <Typography.Paragraph style={{ margin: 0 }}>
            {conflict.changedBy
              ? t('conflict.changedBy', {
                  who: conflict.changedBy.name,
                  time: when(conflict.changedAt),
                  context: conflict.changedBy.gender ?? undefined,
                })
              : t('conflict.changedBySomeone', { time: when(conflict.changedAt) })}
          </Typography.Paragraph>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t(conflict.message ? 'conflict.notSaved' : 'conflict.notSavedYet')}
          </Typography.Paragraph>
          {review && (
            <Table<FieldDifference>
              size="small"
              rowKey="field"
              pagination={false}
              dataSource={review}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: t('conflict.noDifferences') }}
              columns={[
                { key: 'label', dataIndex: 'label', title: t('conflict.field') },
                { key: 'mine', dataIndex: 'mine', title: t('conflict.mine') },
                { key: 'theirs', dataIndex: 'theirs', title: t('conflict.theirs') },
              ]}
            />
          )}
        </Space>
      )}
    </Modal>
  );
}
