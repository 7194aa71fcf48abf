import { ROUTES } from '@mizan/contracts/light';
import { tokenAtom, userAtom } from '@mizan/sdk';
import { Alert } from 'antd';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { AuthLayout } from './AuthLayout';
import { ChangePasswordForm } from './ChangePasswordForm';
import { loginPathFor, safeRedirect } from './guards';

/** Where an employee who must change the password is held until it is done. */
export function ChangePasswordPage() {
  const { t } = useTranslation('auth');
  const token = useAtomValue(tokenAtom);
  const user = useAtomValue(userAtom);
  const navigate = useNavigate();
  const location = useLocation();
  if (!token || !user) return <Navigate to={loginPathFor(ROUTES.changePassword)} replace />;
  const state = location.state as { redirect?: string } | null;
  const redirect = safeRedirect(state?.redirect);
  return (
    <AuthLayout title={t('changePassword.title')}>
      {user.passwordChangeRequired ? (
        <Alert
          type="warning"
          showIcon
          title={t('changePassword.required')}
          role="alert"
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <ChangePasswordForm onDone={() => navigate(redirect, { replace: true })} />
    </AuthLayout>
  );
}
