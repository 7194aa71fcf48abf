import { useState } from 'react';
import { Button, Form, Input, Modal, Segmented, Space } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { VERSION_FIELD, deadlines, permissionKey } from '@mizan/contracts';
import { entityKeys, isApiError, notify, useAuth } from '@mizan/sdk';
import { DateInput, toDateValue, type EntityRow } from '@mizan/ui';
import dayjs, { type Dayjs } from 'dayjs';
import { runAction } from '../api';

type Dialog = 'changeDue' | 'close' | null;

interface DialogValues {
  dueDate?: Dayjs | null;
  reason?: string;
  state?: 'done' | 'waived';
  note?: string;
}

/**
 * A deadline's actions, on its row and its record page: change the due date (with the reason, kept
 * in the audit trail), close it as done or waived, and reopen a closed one. Each needs its own
 * permission (`deadlines.changeDue`, `.close`, `.reopen`).
 */
export function DeadlineActions({ row, compact }: { row: EntityRow; compact?: boolean }) {
  const { t } = useTranslation(['legal', 'entities', 'ui', 'validation']);
  const { can } = useAuth();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [form] = Form.useForm<DialogValues>();
  const label = (field: string) => t(`entities:deadlines.fields.${field}`);
  const version = typeof row[VERSION_FIELD] === 'string' ? row[VERSION_FIELD] : undefined;
  const run = useMutation({
    mutationFn: ({ action, body }: { action: string; body: Record<string, unknown> }) =>
      runAction(deadlines, action, row.id, { ...body, [VERSION_FIELD]: version }, { silent: true }),
    onSuccess: () => {
      notify.success(t('legal:deadlines.saved'));
      setDialog(null);
    },
    onError: (error) => {
      const errors = isApiError(error) ? error.errors : {};
      const onForm = (['dueDate', 'reason', 'state', 'note'] as const)
        .filter((name) => (errors[name] ?? []).length > 0)
        .map((name) => ({ name, errors: errors[name]!.slice(0, 1) }));
      if (dialog && onForm.length > 0) form.setFields(onForm);
      else notify.error(error.message);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: entityKeys.all(deadlines.name) }),
  });
  const size = compact ? 'small' : 'middle';
  const open = row.state === 'open';

  return (
    <Space wrap size="small">
      {open && can(permissionKey(deadlines, 'changeDue')) && (
        <Button size={size} onClick={() => setDialog('changeDue')}>
          {t('entities:deadlines.actions.changeDue')}
        </Button>
      )}
      {open && can(permissionKey(deadlines, 'close')) && (
        <Button size={size} type={compact ? 'default' : 'primary'} onClick={() => setDialog('close')}>
          {t('entities:deadlines.actions.close')}
        </Button>
      )}
      {!open && can(permissionKey(deadlines, 'reopen')) && (
        <Button
          size={size}
          loading={run.isPending}
          onClick={() => run.mutate({ action: 'reopen', body: {} })}
        >
          {t('entities:deadlines.actions.reopen')}
        </Button>
      )}
      {dialog && (
        <Modal
          open
          title={t(`entities:deadlines.actions.${dialog}`)}
          okText={t('ui:actions.save')}
          cancelText={t('ui:actions.cancel')}
          confirmLoading={run.isPending}
          onOk={() => form.submit()}
          onCancel={() => setDialog(null)}
          destroyOnHidden
        >
          <Form<DialogValues>
            form={form}
            layout="vertical"
            initialValues={
              dialog === 'changeDue'
                ? { dueDate: typeof row.dueDate === 'string' ? dayjs(row.dueDate) : null, reason: '' }
                : { state: 'done', note: '' }
            }
            onFinish={(values) =>
              run.mutate(
                dialog === 'changeDue'
                  ? {
                      action: 'changeDue',
                      body: { dueDate: toDateValue(values.dueDate ?? null, 'date'), reason: values.reason },
                    }
                  : { action: 'close', body: { state: values.state, note: values.note || null } },
              )
            }
          >
            {dialog === 'changeDue' ? (
              <>
                <Form.Item
                  name="dueDate"
                  label={label('dueDate')}
                  rules={[{ required: true, message: t('validation:required', { label: label('dueDate') }) }]}
                >
                  <DateInput />
                </Form.Item>
                <Form.Item
                  name="reason"
                  label={t('legal:deadlines.reason')}
                  rules={[
                    {
                      required: true,
                      whitespace: true,
                      message: t('validation:required', { label: t('legal:deadlines.reason') }),
                    },
                  ]}
                >
                  <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={1000} />
                </Form.Item>
              </>
            ) : (
              <>
                <Form.Item name="state" label={label('state')}>
                  <Segmented
                    options={(['done', 'waived'] as const).map((v) => ({
                      value: v,
                      label: t(`entities:deadlines.values.state.${v}`),
                    }))}
                  />
                </Form.Item>
                <Form.Item name="note" label={label('note')}>
                  <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={1000} />
                </Form.Item>
              </>
            )}
          </Form>
        </Modal>
      )}
    </Space>
  );
}
