import { i18n } from '@mizan/i18n';
import { officeToday, type EntityColumn } from '@mizan/ui';
import { ExpiryTag, expiryText } from './ExpiryTag';
import { expiryState } from './expiry';

/**
 * The procurations list's columns: the derived ones, with the expiry flag after the expiry date
 * (expired, expires in N days, open-ended), shown and exported. `today` is the office's calendar
 * day (its time zone in the system settings, as the server's `expired` filter counts it; fixed in
 * tests).
 */
export function procurationColumns(today: () => string = () => officeToday()) {
  return (derived: EntityColumn[]): EntityColumn[] => {
    const flag: EntityColumn = {
      key: 'expiry',
      title: i18n.t('procurations.expiry.column', { ns: 'clients' }),
      render: (row) => <ExpiryTag state={expiryState(row.expiryDate, today())} t={i18n.t} />,
      exportValue: (row) => expiryText(expiryState(row.expiryDate, today()), i18n.t),
      sortable: false,
      defaultVisible: true,
    };
    const at = derived.findIndex((c) => c.key === 'expiryDate');
    return at < 0 ? [...derived, flag] : [...derived.slice(0, at + 1), flag, ...derived.slice(at + 1)];
  };
}
