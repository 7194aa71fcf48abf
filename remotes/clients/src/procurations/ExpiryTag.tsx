import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import type { ExpiryState } from './expiry';

/** The words of an expiry state: "expired", "expires in 8 days", "expires today", "open-ended". */
export function expiryText(state: ExpiryState, t: TFunction): string {
  switch (state.kind) {
    case 'open':
      return t('procurations.expiry.open', { ns: 'clients' });
    case 'expired':
      return t('procurations.expiry.expired', { ns: 'clients' });
    case 'soon':
      return state.days === 0
        ? t('procurations.expiry.today', { ns: 'clients' })
        : t('procurations.expiry.soon', { ns: 'clients', count: state.days });
    case 'valid':
      return t('procurations.expiry.valid', { ns: 'clients' });
  }
}

const COLORS = { open: 'default', expired: 'error', soon: 'warning', valid: 'success' } as const;

/** The flag of a power of attorney's row: red once expired, amber within the warning days. */
export function ExpiryTag({ state, t }: { state: ExpiryState; t: TFunction }) {
  return (
    <Tag color={COLORS[state.kind]} data-expiry={state.kind} style={{ marginInlineEnd: 0 }}>
      {expiryText(state, t)}
    </Tag>
  );
}
