import { localizeDigits } from '@mizan/contracts';
import { i18n } from '@mizan/i18n';
import { sdkStore, systemSettingsAtom } from '@mizan/sdk';
import { DATE_FORMAT, DATETIME_FORMAT, parseDateValue } from './dayjs';
import { formatHijri } from './hijri';

/** Which calendar a date shows first (the office's system setting). */
export type Calendar = 'hijri' | 'gregorian';

/** How dates read: the interface language (digits, month names) and the calendar shown first. */
export interface DateStyle {
  lng: string;
  calendar: Calendar;
}

/** The office's calendar setting; Hijri until the settings arrive (the server's default). */
export function calendarOf(settings: { calendar?: string } | null | undefined): Calendar {
  return settings?.calendar === 'gregorian' ? 'gregorian' : 'hijri';
}

/** The style now, outside React (exports): the i18next language and the settings in the SDK store. */
export function currentDateStyle(): DateStyle {
  return {
    lng: i18n.resolvedLanguage ?? i18n.language ?? 'ar',
    calendar: calendarOf(sdkStore.get(systemSettingsAtom)),
  };
}

/** ASCII digits as Arabic-Indic in Arabic (shared with the documents the server writes). */
export { localizeDigits };

/** The two calendars of one value, the office's first calendar first. */
export interface DateParts {
  primary: string;
  secondary: string;
  /** The calendar of `primary`. */
  calendar: Calendar;
}

/**
 * A wire value (`YYYY-MM-DD` or an ISO instant) in both calendars: Gregorian as `M/D/YYYY`
 * (`HH:mm` added for datetimes), Hijri as day, month name and year; digits of the language.
 *
 * @example formatDateParts('2024-05-01', 'date', { lng: 'ar', calendar: 'hijri' })
 * // { primary: '٢٢ شوال ١٤٤٥ هـ', secondary: '٥/١/٢٠٢٤', calendar: 'hijri' }
 */
export function formatDateParts(
  value: string | null | undefined,
  type: 'date' | 'datetime',
  style: DateStyle,
): DateParts | null {
  const d = parseDateValue(value, type);
  if (!d) return null;
  const gregorian = localizeDigits(d.format(type === 'date' ? DATE_FORMAT : DATETIME_FORMAT), style.lng);
  const hijri = formatHijri(d.toDate(), style.lng);
  if (style.calendar === 'gregorian') return { primary: gregorian, secondary: hijri, calendar: 'gregorian' };
  // The time of a datetime stays with whichever calendar comes first.
  const time = type === 'datetime' ? ` ${localizeDigits(d.format('HH:mm'), style.lng)}` : '';
  return {
    primary: `${hijri}${time}`,
    secondary: localizeDigits(d.format(DATE_FORMAT), style.lng),
    calendar: 'hijri',
  };
}

/** "First (second)" as plain text, for CSV, titles and tooltips. */
export function formatDateText(
  value: string | null | undefined,
  type: 'date' | 'datetime',
  style: DateStyle = currentDateStyle(),
): string {
  const parts = formatDateParts(value, type, style);
  return parts ? `${parts.primary} (${parts.secondary})` : '';
}

/**
 * A date for an export: a real date cell in XLSX (sortable, summable), the text of the screen in CSV.
 * The cell holds the local calendar day and time as the office sees them (spreadsheets have no zone).
 */
export interface ExportDate {
  kind: 'date';
  type: 'date' | 'datetime';
  /** The wall-clock day and time, encoded as a UTC instant (what spreadsheet libraries write). */
  value: Date;
  text: string;
}

export function exportDate(
  value: string | null | undefined,
  type: 'date' | 'datetime',
  style: DateStyle = currentDateStyle(),
): ExportDate | '' {
  const d = parseDateValue(value, type);
  if (!d) return '';
  return {
    kind: 'date',
    type,
    value: new Date(Date.UTC(d.year(), d.month(), d.date(), d.hour(), d.minute(), d.second())),
    text: formatDateText(value, type, style),
  };
}
