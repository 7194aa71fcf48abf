import { normalizeDigits } from '@mizan/contracts';
import { dayjs } from './dayjs';

/** What a date typed by a person reads as: a day, nothing typed, or text that is no date. */
export type TypedDate =
  { kind: 'date'; value: dayjs.Dayjs } | { kind: 'empty' } | { kind: 'unreadable'; text: string };

const SEPARATORS = ['/', '-', '.'];
const SEPARATOR = '[\\/\\-.\\u060D\\u066B\\u066C]';
const YEAR_FIRST = new RegExp(`^(\\d{4})${SEPARATOR}(\\d{1,2})${SEPARATOR}(\\d{1,2})$`);
const YEAR_LAST = new RegExp(`^(\\d{1,2})${SEPARATOR}(\\d{1,2})${SEPARATOR}(\\d{4})$`);
const TIME = /^(\d{1,2}):(\d{2})$/;

/** The day of `year`, `month`, `day` if it exists (`2/30` does not), else null. */
function day(year: number, month: number, date: number): dayjs.Dayjs | null {
  if (month < 1 || month > 12 || date < 1 || date > 31) return null;
  const value = dayjs(new Date(year, month - 1, date));
  return value.year() === year && value.month() === month - 1 && value.date() === date ? value : null;
}

/**
 * Reads a date as a person types it, in the picker's order month/day/year (`11/1/2026`,
 * `11/01/2026`) or year-month-day (`2026-11-01`), one or two digits for day and month, `/`, `-`
 * or `.` between them, Arabic-Indic or Persian digits alike. A first number over 12 can only be
 * a day, so `25/12/2026` reads as day/month. A datetime takes an optional ` HH:mm`. Anything else,
 * or a day that does not exist (`2/30/2026`), is `unreadable`: the input says so rather than
 * dropping it.
 *
 * @example parseTypedDate('١١/٠١/٢٠٢٦') // { kind: 'date', value: 2026-11-01 }
 */
export function parseTypedDate(text: string, type: 'date' | 'datetime' = 'date'): TypedDate {
  const typed = normalizeDigits(text).trim().replace(/\s+/g, ' ');
  if (!typed) return { kind: 'empty' };
  const unreadable = { kind: 'unreadable', text: text.trim() } as const;
  const [datePart = '', timePart, ...rest] = typed.split(' ');
  if (rest.length || (timePart !== undefined && type === 'date')) return unreadable;
  let value: dayjs.Dayjs | null = null;
  const ymd = YEAR_FIRST.exec(datePart);
  const mdy = YEAR_LAST.exec(datePart);
  if (ymd) value = day(Number(ymd[1]), Number(ymd[2]), Number(ymd[3]));
  else if (mdy) {
    const [first, second, year] = [Number(mdy[1]), Number(mdy[2]), Number(mdy[3])];
    value = first > 12 ? day(year, second, first) : day(year, first, second);
  }
  if (!value) return unreadable;
  if (timePart !== undefined) {
    const time = TIME.exec(timePart);
    if (!time || Number(time[1]) > 23 || Number(time[2]) > 59) return unreadable;
    value = value.hour(Number(time[1])).minute(Number(time[2]));
  }
  return { kind: 'date', value };
}

/**
 * Every layout `parseTypedDate` reads, as dayjs formats: the picker parses typed text with them
 * while it is typed (the first one, its display format, comes first and is what it shows).
 */
export function typedDateFormats(display: string, type: 'date' | 'datetime'): string[] {
  const out = new Set<string>([display]);
  const pairs = ['D', 'DD'].flatMap((d) => ['M', 'MM'].map((m) => [m, d] as const));
  // Month first before day first: a day-first layout reads only what no month-first one can.
  for (const layout of ['mdy', 'ymd', 'dmy'])
    for (const sep of SEPARATORS)
      for (const [m, d] of pairs)
        out.add(
          layout === 'mdy'
            ? `${m}${sep}${d}${sep}YYYY`
            : layout === 'ymd'
              ? `YYYY${sep}${m}${sep}${d}`
              : `${d}${sep}${m}${sep}YYYY`,
        );
  if (type === 'datetime') for (const format of [...out]) out.add(`${format} H:mm`).add(`${format} HH:mm`);
  return [...out];
}
