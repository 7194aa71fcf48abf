import { ROUTES } from '@mizan/contracts/light';
import { authApi, notify } from '@mizan/sdk';
import { Alert, Button, Form, Input, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthLayout } from './AuthLayout';
import { MIN_PASSWORD } from './ChangePasswordForm';

type Step =
  | { kind: 'verifying' }
  | { kind: 'invalid' }
  | { kind: 'code' }
  | { kind: 'password'; token: string; email: string };

const CODE = /^\d{6}$/;

/** `verifyResetCode` answers the reset token that the link would have carried. */
function resetTokenOf(answer: unknown): string | null {
  const token =
    typeof answer === 'object' && answer !== null ? (answer as { token?: unknown }).token : undefined;
  return typeof token === 'string' && token !== '' ? token : null;
}

/**
 * Two ways in: the mailed link (`?token=&email=`, verified with `verifyResetToken` before the form
 * shows) or the 6-digit code (`verifyResetCode` answers the token). Then the new password.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const linkToken = params.get('token');
  const linkEmail = params.get('email') ?? '';
  const [step, setStep] = useState<Step>(linkToken ? { kind: 'verifying' } : { kind: 'code' });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!linkToken) return undefined;
    let live = true;
    authApi
      .verifyResetToken({ token: linkToken, email: linkEmail })
      .then(() => live && setStep({ kind: 'password', token: linkToken, email: linkEmail }))
      .catch(() => live && setStep({ kind: 'invalid' }));
    return () => {
      live = false;
    };
  }, [linkToken, linkEmail]);

  const verifyCode = async ({ email, code }: { email: string; code: string }) => {
    setBusy(true);
    try {
      const answer = await authApi.verifyResetCode({ email: email.trim(), code: code.trim() });
      const token = resetTokenOf(answer);
      if (token) setStep({ kind: 'password', token, email: email.trim() });
      else notify.error(t('reset.invalidCode'));
    } catch {
      // The SDK toasts the server's message (wrong or expired code, too many attempts).
    } finally {
      setBusy(false);
    }
  };

  const reset = async ({ password }: { password: string; confirm: string }) => {
    if (step.kind !== 'password') return;
    setBusy(true);
    try {
      await authApi.resetPassword({ token: step.token, email: step.email, password });
      notify.success(t('reset.success'));
      navigate(ROUTES.login, { replace: true });
    } catch {
      // Toasted by the SDK (expired token, weak password); the form stays for another try.
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title={t('reset.title')}>
      {step.kind === 'verifying' ? (
        <div style={{ textAlign: 'center', padding: 24 }} role="status" aria-label={t('reset.verifying')}>
          <Spin size="large" />
          <p>{t('reset.verifying')}</p>
        </div>
      ) : null}
      {step.kind === 'invalid' ? (
        <>
          <Alert
            type="error"
            showIcon
            title={t('reset.invalidLink')}
            role="alert"
            style={{ marginBottom: 16 }}
          />
          <Link to={ROUTES.forgotPassword}>
            <Button block>{t('reset.requestNew')}</Button>
          </Link>
        </>
      ) : null}
      {step.kind === 'code' ? (
        <>
          <p>{t('reset.codeHelp')}</p>
          <Form<{ email: string; code: string }>
            layout="vertical"
            requiredMark={false}
            onFinish={verifyCode}
            disabled={busy}
            initialValues={{ email: linkEmail }}
          >
            <Form.Item
              name="email"
              label={t('forgot.email')}
              rules={[
                { required: true, whitespace: true, message: t('forgot.emailRequired') },
                { type: 'email', message: t('forgot.emailInvalid') },
              ]}
            >
              <Input autoComplete="email" dir="ltr" />
            </Form.Item>
            <Form.Item
              name="code"
              label={t('reset.code')}
              rules={[
                { required: true, message: t('reset.codeRequired') },
                { pattern: CODE, message: t('reset.codeInvalid') },
              ]}
            >
              <Input.OTP length={6} inputMode="numeric" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy}>
              {t('reset.verifyCode')}
            </Button>
          </Form>
        </>
      ) : null}
      {step.kind === 'password' ? (
        <>
          <Form<{ password: string; confirm: string }>
            layout="vertical"
            requiredMark={false}
            onFinish={reset}
            disabled={busy}
          >
            <Form.Item
              name="password"
              label={t('changePassword.new')}
              rules={[
                { required: true, message: t('changePassword.newRequired') },
                {
                  min: MIN_PASSWORD,
                  message: t('changePassword.tooShort', { min: MIN_PASSWORD, count: MIN_PASSWORD }),
                },
              ]}
            >
              <Input.Password autoComplete="new-password" dir="ltr" autoFocus />
            </Form.Item>
            <Form.Item
              name="confirm"
              label={t('changePassword.confirm')}
              dependencies={['password']}
              rules={[
                { required: true, message: t('changePassword.newRequired') },
                ({ getFieldValue }) => ({
                  validator: (_rule, value: string | undefined) =>
                    !value || value === getFieldValue('password')
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('changePassword.mismatch'))),
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" dir="ltr" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy}>
              {t('reset.submit')}
            </Button>
          </Form>
        </>
      ) : null}
      <div style={{ marginTop: 16, textAlign: 'center' }}>
        <Link to={ROUTES.login}>{t('forgot.backToLogin')}</Link>
      </div>
    </AuthLayout>
  );
}
