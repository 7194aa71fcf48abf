import { authApi, isApiError, notify, updateSessionUser, userAtom } from '@mizan/sdk';
import { Button, Form, Input } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Same minimum as the employee definition's password field. */
export const MIN_PASSWORD = 8;

interface Values {
  currentPassword: string;
  newPassword: string;
  confirm: string;
}

/** Current, new and confirmed password; on success the "must change" flag is lifted locally. */
export function ChangePasswordForm({ onDone }: { onDone?: () => void }) {
  const { t } = useTranslation('auth');
  const user = useAtomValue(userAtom);
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);

  const submit = async (values: Values) => {
    setBusy(true);
    try {
      await authApi.changePassword({
        currentPassword: values.currentPassword,
        newPassword: values.newPassword,
      });
      if (user) await updateSessionUser({ ...user, passwordChangeRequired: false });
      // The sign-in's "you must change your password" no longer holds: it must not linger beside
      // the next page while that one loads.
      notify.clear();
      notify.success(t('changePassword.success'));
      form.resetFields();
      onDone?.();
    } catch (caught) {
      // The SDK toasts the message; field errors (wrong current password, ...) also mark their field.
      if (isApiError(caught)) {
        form.setFields(
          caught
            .fieldErrors()
            .filter((f): f is { name: 'currentPassword' | 'newPassword'; errors: string[] } =>
              ['currentPassword', 'newPassword'].includes(f.name),
            ),
        );
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Form<Values> form={form} layout="vertical" requiredMark={false} onFinish={submit} disabled={busy}>
        <Form.Item
          name="currentPassword"
          label={t('changePassword.current')}
          rules={[{ required: true, message: t('changePassword.currentRequired') }]}
        >
          <Input.Password autoComplete="current-password" dir="ltr" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('changePassword.new')}
          rules={[
            { required: true, message: t('changePassword.newRequired') },
            {
              min: MIN_PASSWORD,
              message: t('changePassword.tooShort', { min: MIN_PASSWORD, count: MIN_PASSWORD }),
            },
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                value && value === getFieldValue('currentPassword')
                  ? Promise.reject(new Error(t('changePassword.sameAsOld')))
                  : Promise.resolve(),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" dir="ltr" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('changePassword.confirm')}
          dependencies={['newPassword']}
          rules={[
            { required: true, message: t('changePassword.newRequired') },
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                !value || value === getFieldValue('newPassword')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('changePassword.mismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" dir="ltr" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('changePassword.submit')}
        </Button>
      </Form>
    </>
  );
}
