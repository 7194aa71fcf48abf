import { gregorianToHijri, hijriToGregorian } from '@tabby_ai/hijri-converter';
import type { PeriodCalendar, PeriodResult, PeriodShift, PeriodUnit, SkippedDay } from '@mizan/contracts';

/**
 * Calendar-day arithmetic on `YYYY-MM-DD` strings, the Umm al-Qura calendar through the converter
 * the interface uses (its table runs from 1343 to 1500 AH, 1924 to 2077), and the one function
 * that adds a legal period to a day: deadlines, the calculator and reminders all count with it.
 */

/** A day of the Umm al-Qura calendar; `month` is 1-based. */
export interface HijriDay {
  year: number;
  month: number;
  day: number;
}

const DAY_MS = 86_400_000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const parse = (day: string) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return { y, m, d };
};

/** `day` plus `n` calendar days (negative: before). */
export function plusDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday. */
export const weekdayOf = (day: string): number => new Date(`${day}T00:00:00Z`).getUTCDay();

/** Days in a Gregorian month (`month` 1-based). */
export const gregorianMonthLength = (year: number, month: number): number =>
  new Date(Date.UTC(year, month, 0)).getUTCDate();

/** A period or day the Umm al-Qura table does not reach (before 1343 or after 1500 AH). */
export class OutOfCalendarError extends RangeError {}

/** The Hijri day of a Gregorian day; `OutOfCalendarError` beyond the table. */
export function toHijri(day: string): HijriDay {
  const { y, m, d } = parse(day);
  try {
    return gregorianToHijri({ year: y, month: m, day: d });
  } catch {
    throw new OutOfCalendarError(`${day} is outside the Umm al-Qura table`);
  }
}

/** The Gregorian day of a Hijri day, or null when that day does not exist (30 of a 29-day month, or beyond the table). */
export function fromHijri(day: HijriDay): string | null {
  try {
    const g = hijriToGregorian(day);
    return `${pad(g.year, 4)}-${pad(g.month)}-${pad(g.day)}`;
  } catch {
    return null;
  }
}

/** 29 or 30, as the Umm al-Qura table says; 0 beyond the table. */
export function hijriMonthLength(year: number, month: number): number {
  if (fromHijri({ year, month, day: 30 })) return 30;
  return fromHijri({ year, month, day: 29 }) ? 29 : 0;
}

/** `1447-10-01`: a Hijri day written like a Gregorian one (the `dueHijri` of deadlines). */
export const hijriString = (h: HijriDay): string => `${pad(h.year, 4)}-${pad(h.month)}-${pad(h.day)}`;

/**
 * The same day number `months` months later (or earlier) in `calendar`; when that month is shorter
 * the period ends on its last day (31 January + 1 month = 28 or 29 February; 30 Ramadan + 1 month
 * = 29 Shawwal in a year whose Shawwal has 29 days).
 */
export function plusMonths(day: string, months: number, calendar: PeriodCalendar): string {
  if (calendar === 'gregorian') {
    const { y, m, d } = parse(day);
    const index = y * 12 + (m - 1) + months;
    const year = Math.floor(index / 12);
    const month = (index % 12) + 1;
    return `${pad(year, 4)}-${pad(month)}-${pad(Math.min(d, gregorianMonthLength(year, month)))}`;
  }
  const h = toHijri(day);
  const index = h.year * 12 + (h.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const length = hijriMonthLength(year, month);
  const due = length ? fromHijri({ year, month, day: Math.min(h.day, length) }) : null;
  if (!due) throw new OutOfCalendarError(`${months} Hijri months from ${day} leave the Umm al-Qura table`);
  return due;
}

/** What makes a day not a working day (a weekend day or a holiday), or null for a working day. */
export interface WorkingCalendar {
  offReason(day: string): SkippedDay | null;
}

/** A legal period: `amount` days, or months of `calendar`, and the shift off a non-working last day. */
export interface Period {
  amount: number;
  unit: PeriodUnit;
  calendar: PeriodCalendar;
  shift: PeriodShift;
}

/** A shift never walks further than this (a year of days off would be a misconfigured calendar). */
const MAX_SHIFT_DAYS = 366;

/**
 * Adds a legal period to `from` (the day of the event, which the period does not count): `amount`
 * calendar days, or months with the same day number in the Gregorian or the Umm al-Qura calendar
 * (clamped to a shorter month's last day). When that last day is a weekend day or a holiday of
 * `calendar`, `shift` moves it to the next working day or the previous one (each day passed over
 * in `skipped`, `shiftedFrom` the day it fell on), or leaves it (`none`).
 * `OutOfCalendarError` when a Hijri count leaves the converter's table.
 *
 * @example addPeriod('2026-03-01', { amount: 30, unit: 'days', calendar: 'gregorian', shift: 'next' }, cal)
 * // { due: '2026-04-01', dueHijri: '1447-10-13', skipped: [] } when 31 March … is a working day
 */
export function addPeriod(
  from: string,
  period: Period,
  calendar: WorkingCalendar,
): Omit<PeriodResult, 'country'> {
  const end =
    period.unit === 'days' ? plusDays(from, period.amount) : plusMonths(from, period.amount, period.calendar);
  const skipped: SkippedDay[] = [];
  let due = end;
  if (period.shift !== 'none') {
    const step = period.shift === 'next' ? 1 : -1;
    for (let i = 0; i < MAX_SHIFT_DAYS; i++) {
      const off = calendar.offReason(due);
      if (!off) break;
      skipped.push(off);
      due = plusDays(due, step);
    }
  }
  return {
    due,
    dueHijri: hijriString(toHijri(due)),
    ...(due !== end ? { shiftedFrom: end } : {}),
    skipped,
  };
}

/** A holiday as the calendar needs it (a row of the `holidays` list). */
export interface HolidayRule {
  name: string;
  kind: 'gregorian' | 'hijri' | 'once';
  month: number | null;
  day: number | null;
  date: string | null;
  days: number;
}

/** Whether `day` is one of the `holiday.days` days of `holiday` (any year it recurs in). */
function falls(holiday: HolidayRule, day: string): boolean {
  for (let k = 0; k < Math.max(1, holiday.days); k++) {
    const first = plusDays(day, -k);
    if (holiday.kind === 'once') {
      if (holiday.date === first) return true;
    } else if (holiday.kind === 'gregorian') {
      const { m, d } = parse(first);
      if (m === holiday.month && d === holiday.day) return true;
    } else {
      let h: HijriDay;
      try {
        h = toHijri(first);
      } catch {
        return false;
      }
      if (h.month === holiday.month && h.day === holiday.day) return true;
    }
  }
  return false;
}

/**
 * The working calendar of an office: `weekendDays` (0 = Sunday … 6 = Saturday) and `holidays`
 * (each may last several days; a Hijri one recurs on its Umm al-Qura day every year).
 */
export function workingCalendar(
  weekendDays: readonly number[],
  holidays: readonly HolidayRule[],
): WorkingCalendar {
  const weekend = new Set(weekendDays);
  return {
    offReason(day) {
      const holiday = holidays.find((h) => falls(h, day));
      if (holiday) return { date: day, reason: 'holiday', holiday: holiday.name };
      if (weekend.has(weekdayOf(day))) return { date: day, reason: 'weekend' };
      return null;
    },
  };
}
