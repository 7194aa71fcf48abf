import type { ReactNode } from 'react';
import { Alert, Button, Form, Space } from 'antd';
import type { FormInstance } from 'antd';
import type { Entity, Fields } from '@mizan/contracts';
import { formatDateText } from '../dates/format';
import type { EntityRow } from '../fields/types';
import { MergeDialog } from './MergeDialog';
import type { FormMode } from './formValues';
import type { EntityFormState } from './useEntityForm';

/** What a `renderForm` override gets: the derived inputs, to lay out or replace as it likes. */
export interface EntityFormRenderProps {
  entity: Entity<Fields>;
  mode: FormMode;
  row: EntityRow | undefined;
  form: FormInstance;
  /** One ready `Form.Item` per field (and `status`), keyed by field name. */
  items: Record<string, ReactNode>;
  /** The default layout: every item in order. */
  children: ReactNode;
}

export interface EntityFormProps extends EntityFormState {
  /** Lay out or replace the form; the derived inputs come ready in `items`. */
  renderForm?: (props: EntityFormRenderProps) => ReactNode;
  /** Show save (and cancel, with `onCancel`) under the form: on a page; a drawer has its own footer. */
  buttons?: boolean;
  onCancel?: () => void;
}

/**
 * The form of `useEntityForm`: its inputs, the error it could not place on a field, the banner of
 * a change made elsewhere, and the dialog of a stale save (reload their version or review the
 * differences). Works on a page or inside a drawer.
 *
 * @example
 * const form = useEntityForm(courts, { record });
 * return <EntityForm {...form} buttons />;
 */
export function EntityForm(props: EntityFormProps) {
  const { entity, text, mode, record, form, items, submit, saving, formError, merge, remote } = props;
  const { disabled, applyMerge, reviewRemote, dismissMerge } = props;
  const { renderForm, buttons = false, onCancel } = props;
  const { t } = text;
  const children = <>{Object.values(items)}</>;
  const when = (at: string | null | undefined) => formatDateText(at ?? null, 'datetime');

  return (
    <>
      {formError && <Alert type="error" showIcon title={formError} style={{ marginBlockEnd: 16 }} />}
      {remote?.kind === 'deleted' && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('conflict.deleted', { ns: 'ui', name: text.singular })}
          style={{ marginBlockEnd: 16 }}
        />
      )}
      {remote?.kind === 'updated' && !merge && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={t('conflict.changedLive', {
            ns: 'ui',
            name: text.singular,
            time: when(remote.row.updatedAt),
          })}
          description={
            <>
              {remote.filled.length > 0 && (
                <div>
                  {t('conflict.filledLive', {
                    ns: 'ui',
                    count: remote.filled.length,
                    fields: remote.filled
                      .map((name) => text.label(name))
                      .join(t('conflict.listSeparator', { ns: 'ui' })),
                  })}
                </div>
              )}
              {remote.both.length > 0 && (
                <div>
                  {t('conflict.bothLive', {
                    ns: 'ui',
                    count: remote.both.length,
                    fields: remote.both
                      .map((name) => text.label(name))
                      .join(t('conflict.listSeparator', { ns: 'ui' })),
                  })}
                </div>
              )}
            </>
          }
          action={
            <Button size="small" onClick={reviewRemote}>
              {t('conflict.show', { ns: 'ui' })}
            </Button>
          }
          style={{ marginBlockEnd: 16 }}
        />
      )}
      <Form
        form={form}
        layout="vertical"
        onFinish={() => void submit()}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
          // Ctrl/Cmd+Enter saves from any field; Enter alone confirms the field it is typed in (a
          // date, a choice) and never sends a half-filled form.
          if (event.ctrlKey || event.metaKey) {
            event.preventDefault();
            if (!disabled) void submit();
          } else if ((event.target as HTMLElement).tagName === 'INPUT') event.preventDefault();
        }}
        requiredMark
        scrollToFirstError
        disabled={disabled}
      >
        {renderForm ? renderForm({ entity, mode, row: record, form, items, children }) : children}
        {buttons ? (
          <Space>
            <Button type="primary" htmlType="submit" loading={saving}>
              {t('actions.save', { ns: 'ui' })}
            </Button>
            {onCancel && (
              <Button htmlType="button" onClick={onCancel}>
                {t('actions.cancel', { ns: 'ui' })}
              </Button>
            )}
          </Space>
        ) : null}
      </Form>
      <MergeDialog
        merge={merge}
        subject={text.singular}
        saving={saving}
        onApply={applyMerge}
        onClose={dismissMerge}
      />
    </>
  );
}
