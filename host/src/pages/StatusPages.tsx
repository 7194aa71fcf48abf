import { ROUTES } from '@mizan/contracts/light';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** Shown in place of a screen the user lacks the permission for (the URL stays). */
export function ForbiddenPage() {
  const { t } = useTranslation('layout');
  return (
    <Result
      status="403"
      title={t('forbidden.title')}
      subTitle={t('forbidden.text')}
      extra={
        <Link to={ROUTES.dashboard}>
          <Button type="primary">{t('forbidden.home')}</Button>
        </Link>
      }
    />
  );
}

export function NotFoundPage() {
  const { t } = useTranslation('layout');
  return (
    <Result
      status="404"
      title={t('notFound.title')}
      subTitle={t('notFound.text')}
      extra={
        <Link to={ROUTES.home}>
          <Button type="primary">{t('notFound.home')}</Button>
        </Link>
      }
    />
  );
}

/** Route error element: a screen that throws while rendering shows this instead of a blank page. */
export function RouteErrorPage() {
  const { t } = useTranslation('layout');
  return (
    <Result
      status="error"
      title={t('errorBoundary.title')}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('errorBoundary.retry')}
        </Button>
      }
    />
  );
}
