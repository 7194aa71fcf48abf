import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';

// The spinners draw antd's Spin; the login page shows none, so it loads when one is first shown
// (login page weight). Until then the same status region stands there, without the dots.
const Spinner = lazy(() => import('./Spinners').then((m) => ({ default: m.FullPageSpinner })));

function PendingSpinner() {
  const { t } = useTranslation('layout');
  return <div role="status" aria-label={t('loading')} style={{ position: 'fixed', inset: 0 }} />;
}

/** `FullPageSpinner` of ./Spinners, loaded when first shown. */
export function FullPageSpinner() {
  return (
    <Suspense fallback={<PendingSpinner />}>
      <Spinner />
    </Suspense>
  );
}
