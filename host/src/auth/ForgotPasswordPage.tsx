import { ROUTES } from '@mizan/contracts/light';
import { authApi } from '@mizan/sdk';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AuthLayout } from './AuthLayout';

/** Asks the server to mail a reset link and a 6-digit code; the answer never tells whether the email exists. */
export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);

  const submit = async ({ email }: { email: string }) => {
    setBusy(true);
    try {
      await authApi.forgotPassword(email.trim());
      setSent(email.trim());
    } catch {
      // Shown as a toast by the SDK (rate limit, server down); the form stays for another try.
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title={t('forgot.title')}>
      {sent ? (
        <>
          <Alert
            type="success"
            showIcon
            title={t('forgot.sent')}
            role="status"
            style={{ marginBottom: 16 }}
          />
          <Link to={`${ROUTES.resetPassword}?email=${encodeURIComponent(sent)}`}>
            <Button type="primary" block>
              {t('forgot.haveCode')}
            </Button>
          </Link>
        </>
      ) : (
        <>
          <p>{t('forgot.help')}</p>
          <Form<{ email: string }> layout="vertical" requiredMark={false} onFinish={submit} disabled={busy}>
            <Form.Item
              name="email"
              label={t('forgot.email')}
              rules={[
                { required: true, whitespace: true, message: t('forgot.emailRequired') },
                { type: 'email', message: t('forgot.emailInvalid') },
              ]}
            >
              <Input autoComplete="email" dir="ltr" autoFocus />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy}>
              {t('forgot.submit')}
            </Button>
          </Form>
        </>
      )}
      <div style={{ marginTop: 16, textAlign: 'center' }}>
        <Link to={ROUTES.login}>{t('forgot.backToLogin')}</Link>
      </div>
    </AuthLayout>
  );
}
