import { formatHijri, localizeDigits, toHijri } from '@mizan/ui';

/**
 * The calendar runs in UTC so that a hearing's wall-clock date and time show as written (no zone
 * shifts it); its dates carry the day in their UTC fields. This is that day as a local date, what
 * the Hijri helpers take.
 */
export function wallDay(date: Date): Date {
  return new Date(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/** `YYYY-MM-DD` of a calendar date (UTC fields, see `wallDay`). */
export function dayString(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A `YYYY-MM-DD` day plus or minus whole days. */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return dayString(d);
}

/** Below this width (px) a calendar's columns name their weekday by its letter (ح ن ث …), the whole name on hover. */
export const NARROW_CALENDAR_PX = 560;

/**
 * A calendar date's weekday in `lng`, whole or as its letter.
 *
 * @example weekdayName(new Date(Date.UTC(2026, 10, 29)), 'ar', 'narrow') // 'ح'
 */
export function weekdayName(date: Date, lng: string, width: 'narrow' | 'long'): string {
  return new Intl.DateTimeFormat(lng, { weekday: width, timeZone: 'UTC' }).format(date);
}

/**
 * The Hijri day beside a Gregorian day cell: the day number alone, or the whole date on the first
 * of a Hijri month (where the month changes inside the Gregorian month); `full` for its tooltip.
 *
 * @example hijriCell(new Date(Date.UTC(2026, 10, 23)), 'ar') // { short: '١٣', full: '١٣ جمادى الآخرة ١٤٤٨ هـ' }
 */
export function hijriCell(date: Date, lng: string): { short: string; full: string } {
  const day = wallDay(date);
  const full = formatHijri(day, lng);
  const hijri = toHijri(day);
  return { short: hijri.day === 1 ? full : localizeDigits(String(hijri.day), lng), full };
}

/** The Hijri dates of a range's first and last days (`end` exclusive, as FullCalendar gives it). */
export function hijriRange(start: Date, end: Date, lng: string): string {
  const last = new Date(end.getTime() - 24 * 3600 * 1000);
  const first = formatHijri(wallDay(start), lng);
  const final = formatHijri(wallDay(last), lng);
  return first === final ? first : `${first} – ${final}`;
}

/** The office's wall-clock now to the minute (`YYYY-MM-DDTHH:mm:00`) in a time zone: the calendar's "now". */
export function wallClockNow(timeZone: string, now: Date = new Date()): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:00`;
}
