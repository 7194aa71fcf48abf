import { useState } from 'react';
import { Button, Form, Modal, Popconfirm, Select, Tooltip } from 'antd';
import { LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { VERSION_FIELD, lawsuits, permissionKey } from '@mizan/contracts';
import { entityKeys, isApiError, notify, useAuth } from '@mizan/sdk';
import type { EntityRow } from '@mizan/ui';
import { runAction } from '../api';
import { useFinalCases } from './useLawsuitCases';

export interface LawsuitStateActionsProps {
  row: EntityRow;
  /** Icon buttons for a list row; labelled buttons on the record page. */
  compact?: boolean;
}

const versionOf = (row: EntityRow) =>
  typeof row[VERSION_FIELD] === 'string' ? (row[VERSION_FIELD] as string) : undefined;

/** The state actions a user with the permission sees: "close" for an active lawsuit, "reopen" for a closed one. */
export function LawsuitStateActions({ row, compact = false }: LawsuitStateActionsProps) {
  const { t } = useTranslation('legal');
  const { can } = useAuth();
  const queryClient = useQueryClient();
  const [closing, setClosing] = useState(false);
  const name = String(row.fileNumber ?? row.id);
  const refresh = () => queryClient.invalidateQueries({ queryKey: entityKeys.all(lawsuits.name) });
  const reopen = useMutation({
    mutationFn: () => runAction(lawsuits, 'reopen', row.id, { [VERSION_FIELD]: versionOf(row) }),
    onSuccess: () => notify.success(t('lawsuits.reopen.done', { name })),
    onSettled: refresh,
  });

  if (row.state === 'completed') {
    if (!can(permissionKey(lawsuits, 'reopen'))) return null;
    const label = t('lawsuits.reopen.action');
    return (
      <Popconfirm
        title={t('lawsuits.reopen.title')}
        description={t('lawsuits.reopen.confirm', { name })}
        okText={t('lawsuits.reopen.ok')}
        cancelText={t('actions.cancel', { ns: 'ui' })}
        onConfirm={() => reopen.mutateAsync().catch(() => undefined)}
      >
        {compact ? (
          <Tooltip title={label}>
            <Button
              type="text"
              size="small"
              icon={<UnlockOutlined />}
              loading={reopen.isPending}
              aria-label={t('lawsuits.reopen.named', { name })}
            />
          </Tooltip>
        ) : (
          <Button icon={<UnlockOutlined />} loading={reopen.isPending}>
            {label}
          </Button>
        )}
      </Popconfirm>
    );
  }

  if (!can(permissionKey(lawsuits, 'close'))) return null;
  const label = t('lawsuits.close.action');
  return (
    <>
      {compact ? (
        <Tooltip title={label}>
          <Button
            type="text"
            size="small"
            icon={<LockOutlined />}
            aria-label={t('lawsuits.close.named', { name })}
            onClick={() => setClosing(true)}
          />
        </Tooltip>
      ) : (
        <Button icon={<LockOutlined />} onClick={() => setClosing(true)}>
          {label}
        </Button>
      )}
      {closing && <CloseLawsuitDialog row={row} name={name} onDone={() => setClosing(false)} />}
    </>
  );
}

/**
 * Closing a lawsuit: the final case (stage and outcome) is asked for and required; the version
 * read goes along, so a lawsuit changed meanwhile is refused (409, the server's message) rather
 * than closed over someone's change. A refused case (422) shows on the field.
 */
function CloseLawsuitDialog({ row, name, onDone }: { row: EntityRow; name: string; onDone: () => void }) {
  const { t } = useTranslation('legal');
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ lawsuitCaseId: number | null }>();
  const close = useMutation({
    mutationFn: (lawsuitCaseId: number) =>
      runAction(
        lawsuits,
        'close',
        row.id,
        { lawsuitCaseId, [VERSION_FIELD]: versionOf(row) },
        { silent: true },
      ),
    onSuccess: () => {
      notify.success(t('lawsuits.close.done', { name }));
      onDone();
    },
    onError: (error) => {
      const onField = isApiError(error) ? (error.errors.lawsuitCaseId ?? []) : [];
      if (onField.length > 0) form.setFields([{ name: 'lawsuitCaseId', errors: onField.slice(0, 1) }]);
      else notify.error(error.message);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: entityKeys.all(lawsuits.name) }),
  });
  const caseLabel = t('lawsuits.fields.lawsuitCaseId', { ns: 'entities' });
  const finalCases = useFinalCases();

  return (
    <Modal
      open
      title={t('lawsuits.close.title', { name })}
      okText={t('lawsuits.close.ok')}
      cancelText={t('actions.cancel', { ns: 'ui' })}
      confirmLoading={close.isPending}
      onOk={() => form.submit()}
      onCancel={onDone}
      destroyOnHidden
    >
      <p>{t('lawsuits.close.explain')}</p>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ lawsuitCaseId: null }}
        onFinish={(values) => close.mutate(values.lawsuitCaseId as number)}
      >
        <Form.Item
          name="lawsuitCaseId"
          label={caseLabel}
          rules={[
            {
              required: true,
              message: t('required', { ns: 'validation', label: caseLabel }),
            },
          ]}
        >
          <Select
            loading={finalCases.loading}
            notFoundContent={finalCases.loading ? undefined : t('lawsuits.close.noFinalCase')}
            options={finalCases.cases.map((c) => ({ value: c.id, label: c.name }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
