import { KeyOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { employees, PEOPLE_ROUTES } from '@mizan/contracts';
import { api, isApiError, notify } from '@mizan/sdk';
import type { EntityRow } from '@mizan/ui';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rulesFor } from '../common/validation';
import { generateTemporaryPassword } from './temporaryPassword';

const passwordField = employees.fields.password;

/**
 * The employees list's "reset password" row action: the administrator sets (or generates) a
 * temporary password, hands it over, and the employee must replace it at the next sign-in.
 */
export function ResetPasswordButton({ row }: { row: EntityRow }) {
  const { t } = useTranslation('settings');
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [form] = Form.useForm<{ password: string }>();
  const name = String(row.name ?? row.id);
  const label = t('employees.resetPassword.newPassword');
  const rules = rulesFor(t, label);
  const reset = useMutation({
    mutationFn: (password: string) =>
      api.call(
        PEOPLE_ROUTES.adminResetPassword,
        { params: { id: row.id }, body: { password } },
        { silent: true },
      ),
    onSuccess: (_, password) => {
      setDone(password);
      notify.success(t('employees.resetPassword.success', { name }));
    },
    onError: (error) => {
      if (isApiError(error) && error.errors.password)
        form.setFields([{ name: 'password', errors: error.errors.password }]);
      else notify.error(isApiError(error) ? error.message : t('employees.resetPassword.failed'));
    },
  });
  const close = () => {
    setOpen(false);
    setDone(null);
    form.resetFields();
    reset.reset();
  };

  return (
    <>
      <Tooltip title={t('employees.resetPassword.action')}>
        <Button
          type="text"
          size="small"
          icon={<KeyOutlined />}
          aria-label={t('employees.resetPassword.actionNamed', { name })}
          onClick={() => setOpen(true)}
        />
      </Tooltip>
      <Modal
        open={open}
        title={t('employees.resetPassword.title', { name })}
        onCancel={close}
        destroyOnHidden
        footer={
          done ? (
            <Button type="primary" onClick={close}>
              {t('actions.close')}
            </Button>
          ) : (
            <Space>
              <Button onClick={close}>{t('actions.cancel')}</Button>
              <Button type="primary" danger loading={reset.isPending} onClick={() => form.submit()}>
                {t('employees.resetPassword.confirm')}
              </Button>
            </Space>
          )
        }
      >
        {done ? (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Alert type="success" showIcon title={t('employees.resetPassword.handOver', { name })} />
            <Typography.Paragraph copyable={{ text: done }} code style={{ fontSize: 16 }} dir="ltr">
              {done}
            </Typography.Paragraph>
          </Space>
        ) : (
          <Form form={form} layout="vertical" onFinish={({ password }) => reset.mutate(password)}>
            <Typography.Paragraph type="secondary">
              {t('employees.resetPassword.description')}
            </Typography.Paragraph>
            <Form.Item
              name="password"
              label={label}
              rules={[
                rules.required(),
                {
                  min: passwordField.min,
                  message: t('validation:string.min', { label, min: passwordField.min }),
                },
                rules.max(passwordField.max ?? 128),
              ]}
            >
              <Input.Password autoComplete="new-password" dir="ltr" />
            </Form.Item>
            <Button
              icon={<ThunderboltOutlined />}
              onClick={() =>
                form.setFields([{ name: 'password', value: generateTemporaryPassword(), errors: [] }])
              }
            >
              {t('employees.resetPassword.generate')}
            </Button>
          </Form>
        )}
      </Modal>
    </>
  );
}
