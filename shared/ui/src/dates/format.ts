import { DATE_FORMAT, DATETIME_FORMAT, parseDateValue } from './dayjs';
import { formatHijri } from './hijri';

/** "Gregorian (Hijri)" as plain text, for exports and titles. */
export function formatDateText(value: string | null | undefined, type: 'date' | 'datetime'): string {
  const d = parseDateValue(value, type);
  return d ? `${d.format(type === 'date' ? DATE_FORMAT : DATETIME_FORMAT)} (${formatHijri(d.toDate())})` : '';
}
