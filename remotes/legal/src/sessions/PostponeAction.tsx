import { useState } from 'react';
import { Button, Form, Input, Modal, Space, Tooltip } from 'antd';
import { FieldTimeOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { VERSION_FIELD, permissionKey, sessions } from '@mizan/contracts';
import { entityKeys, isApiError, notify, useAuth } from '@mizan/sdk';
import {
  DateInput,
  DualDate,
  recordPath,
  textCount,
  toDateValue,
  unreadableDateRule,
  type EntityRow,
} from '@mizan/ui';
import type { Dayjs } from 'dayjs';
import { legalKeys, runAction } from '../api';

/**
 * The hearing page's "record postponement": the decision taken and the next date, which creates
 * the next hearing. Once postponed (it has a next hearing) the button is disabled and the next
 * hearing is a link instead.
 */
export function PostponeAction({ row }: { row: EntityRow }) {
  const { t } = useTranslation('legal');
  const { can } = useAuth();
  const [open, setOpen] = useState(false);
  if (!can(permissionKey(sessions, 'postpone'))) return null;
  const nextId = typeof row.nextId === 'number' ? row.nextId : null;
  const label = t('sessions.postpone.action');

  if (nextId !== null)
    return (
      <Space wrap>
        <Tooltip title={t('sessions.postpone.already')}>
          <Button icon={<FieldTimeOutlined />} disabled>
            {label}
          </Button>
        </Tooltip>
        <Link to={recordPath(sessions, nextId)}>
          {t('sessions.postpone.openNext')}{' '}
          <DualDate value={typeof row.nextDate === 'string' ? row.nextDate : null} primaryOnly />
        </Link>
      </Space>
    );
  return (
    <>
      <Button type="primary" icon={<FieldTimeOutlined />} onClick={() => setOpen(true)}>
        {label}
      </Button>
      {open && <PostponeDialog row={row} onDone={() => setOpen(false)} />}
    </>
  );
}

interface PostponeValues {
  decision: string;
  nextDate: Dayjs | null;
}

function PostponeDialog({ row, onDone }: { row: EntityRow; onDone: () => void }) {
  const { t } = useTranslation('legal');
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PostponeValues>();
  const label = (field: string) => t(`sessions.fields.${field}`, { ns: 'entities' });
  const required = (field: string) => ({
    required: true,
    message: t('required', { ns: 'validation', label: label(field) }),
  });
  const postpone = useMutation({
    mutationFn: (values: PostponeValues) =>
      runAction(
        sessions,
        'postpone',
        row.id,
        {
          decision: values.decision,
          nextDate: toDateValue(values.nextDate, 'date'),
          [VERSION_FIELD]: typeof row[VERSION_FIELD] === 'string' ? row[VERSION_FIELD] : undefined,
        },
        { silent: true },
      ),
    onSuccess: () => {
      notify.success(t('sessions.postpone.done'));
      onDone();
    },
    onError: (error) => {
      const errors = isApiError(error) ? error.errors : {};
      const onForm = (['decision', 'nextDate'] as const)
        .filter((name) => (errors[name] ?? []).length > 0)
        .map((name) => ({ name, errors: errors[name]!.slice(0, 1) }));
      if (onForm.length > 0) form.setFields(onForm);
      else notify.error(error.message);
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: entityKeys.all(sessions.name) }),
        queryClient.invalidateQueries({ queryKey: legalKeys.chains() }),
      ]),
  });

  return (
    <Modal
      open
      title={t('sessions.postpone.title')}
      okText={t('sessions.postpone.ok')}
      cancelText={t('actions.cancel', { ns: 'ui' })}
      confirmLoading={postpone.isPending}
      onOk={() => form.submit()}
      onCancel={onDone}
      destroyOnHidden
    >
      <p>
        {t('sessions.postpone.explain')} <DualDate value={row.date as string} primaryOnly />
      </p>
      <Form<PostponeValues>
        form={form}
        layout="vertical"
        initialValues={{ decision: typeof row.decision === 'string' ? row.decision : '', nextDate: null }}
        onFinish={(values) => postpone.mutate(values)}
      >
        <Form.Item
          name="decision"
          label={label('decision')}
          rules={[{ ...required('decision'), whitespace: true }, { max: 5000 }]}
        >
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} {...textCount(5000)} />
        </Form.Item>
        <Form.Item
          name="nextDate"
          label={label('nextDate')}
          rules={[required('nextDate'), unreadableDateRule(t('dates.unreadableRule', { ns: 'ui' }))]}
        >
          <DateInput />
        </Form.Item>
      </Form>
    </Modal>
  );
}
