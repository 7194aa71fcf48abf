import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { ROUTES } from '@mizan/contracts/light';
import type { TwoFactorChallenge } from '@mizan/contracts';
import {
  completeLogin,
  isTwoFactorChallenge,
  login,
  tokenAtom,
  userAtom,
  type LoginResult,
} from '@mizan/sdk';
import { Button, Form, Input, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthLayout } from './AuthLayout';
import { safeRedirect } from './guards';
import { ContentSpinner } from '../pages/Spinners';

// The second step of a sign-in is loaded only by those who need it, so the login page stays light.
const TwoFactorStep = lazy(() => import('./TwoFactorStep').then((m) => ({ default: m.TwoFactorStep })));
const TwoFactorSetup = lazy(() => import('./TwoFactorSetup').then((m) => ({ default: m.TwoFactorSetup })));

interface Credentials {
  email: string;
  password: string;
}

/**
 * Sign-in: on success token and user are stored and "welcome back" shows; a required
 * password change goes to the change-password page with its warning; otherwise to `redirect`
 * (a path of this app only).
 */
export function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = useAtomValue(tokenAtom);
  const user = useAtomValue(userAtom);
  const [busy, setBusy] = useState(false);
  // A right password whose sign-in needs a second step (a code, or an enrolment a role requires).
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null);
  // An enrolment signed in already: the recovery codes are shown before going on.
  const [enrolled, setEnrolled] = useState<LoginResult | null>(null);
  const redirect = safeRedirect(params.get(ROUTES.redirectParam));

  const proceed = (result: LoginResult) => {
    if (result.passwordChangeRequired || result.user.passwordChangeRequired) {
      navigate(ROUTES.changePassword, { replace: true, state: { redirect } });
    } else {
      navigate(redirect, { replace: true });
    }
  };

  if (token && user && !busy && !challenge) {
    return <Navigate to={user.passwordChangeRequired ? ROUTES.changePassword : redirect} replace />;
  }

  const submit = async ({ email, password }: Credentials) => {
    setBusy(true);
    try {
      // The SDK stores the session and toasts "welcome back", the password warning or the failure.
      const result = await login(email.trim(), password);
      if (isTwoFactorChallenge(result)) setChallenge(result);
      else proceed(result);
    } catch {
      // Already shown as a toast (the server's message, or "error in login").
    } finally {
      setBusy(false);
    }
  };

  if (challenge?.twoFactorRequired) {
    return (
      <AuthLayout title={t('twoFactor.verifyTitle')}>
        <Suspense fallback={<ContentSpinner />}>
          <TwoFactorStep challenge={challenge} onSignedIn={proceed} onBack={() => setChallenge(null)} />
        </Suspense>
      </AuthLayout>
    );
  }
  if (challenge?.twoFactorEnrolmentRequired) {
    return (
      <AuthLayout title={t('twoFactor.enrolTitle')}>
        <Typography.Paragraph>{t('twoFactor.enrolHelp')}</Typography.Paragraph>
        <Suspense fallback={<ContentSpinner />}>
          <TwoFactorSetup
            challenge={challenge.challenge}
            onEnabled={async (result) => {
              if (result.login) setEnrolled(await completeLogin(result.login));
            }}
            onDone={() => enrolled && proceed(enrolled)}
          />
        </Suspense>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('login.title')}>
      <Form<Credentials> layout="vertical" requiredMark={false} onFinish={submit} disabled={busy}>
        <Form.Item
          name="email"
          label={t('login.email')}
          rules={[{ required: true, whitespace: true, message: t('login.emailRequired') }]}
        >
          <Input prefix={<UserOutlined />} autoComplete="username" autoFocus dir="ltr" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('login.password')}
          rules={[{ required: true, message: t('login.passwordRequired') }]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" dir="ltr" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t('login.submit')}
        </Button>
      </Form>
      <div style={{ marginTop: 16, textAlign: 'center' }}>
        <Link to={ROUTES.forgotPassword}>{t('login.forgot')}</Link>
      </div>
    </AuthLayout>
  );
}
