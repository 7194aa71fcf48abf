import dayjs from 'dayjs';
import 'dayjs/locale/ar';
import updateLocale from 'dayjs/plugin/updateLocale';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import localeData from 'dayjs/plugin/localeData';
import { DATE_FORMAT } from '@mizan/contracts';

/**
 * Product-wide date conventions: weeks start on Sunday and the picker shows `M/D/YYYY`.
 * antd's DatePicker takes its first weekday from the dayjs locale, so the Arabic locale is adjusted
 * here once; Latin digits are kept so typed dates and the table read the same in both languages.
 */
dayjs.extend(updateLocale);
dayjs.extend(customParseFormat);
dayjs.extend(localeData);
dayjs.updateLocale('ar', { weekStart: 0, postformat: (s: string) => s });
dayjs.updateLocale('en', { weekStart: 0 });

export { DATE_FORMAT };
export const DATETIME_FORMAT = `${DATE_FORMAT} HH:mm`;
/** Wire format of `date` fields. */
export const ISO_DATE_FORMAT = 'YYYY-MM-DD';

/** Parses a wire value (`YYYY-MM-DD` as a local calendar day, or an ISO instant) into dayjs. */
export function parseDateValue(
  value: string | null | undefined,
  type: 'date' | 'datetime',
): dayjs.Dayjs | null {
  if (!value) return null;
  const d = type === 'date' ? dayjs(value, ISO_DATE_FORMAT, true) : dayjs(value);
  return d.isValid() ? d : null;
}

/** Turns a picker value back into the wire format of the field. */
export function toDateValue(value: dayjs.Dayjs | null | undefined, type: 'date' | 'datetime'): string | null {
  if (!value || !value.isValid()) return null;
  return type === 'date' ? value.format(ISO_DATE_FORMAT) : value.toISOString();
}

export { dayjs };
