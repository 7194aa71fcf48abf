import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

/** While the main view loads, a large spinner centred in the whole viewport. */
export function FullPageSpinner() {
  const { t } = useTranslation('layout');
  return (
    <div
      role="status"
      aria-label={t('loading')}
      style={{ position: 'fixed', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <Spin size="large" />
    </div>
  );
}

/** Spinner filling the content area (a remote's screens, a page's data). */
export function ContentSpinner() {
  const { t } = useTranslation('layout');
  return (
    <div
      role="status"
      aria-label={t('loading')}
      style={{ display: 'flex', justifyContent: 'center', padding: '96px 0' }}
    >
      <Spin size="large" />
    </div>
  );
}
