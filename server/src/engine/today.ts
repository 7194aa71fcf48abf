import { dayInZone } from '@mizan/contracts';

/** What "today" is for declared list filters and hooks: a day and days counted from it. */
export interface OfficeToday {
  /** Today's calendar day in the office's time zone, `YYYY-MM-DD`. */
  today: string;
  /** `today` plus `days` calendar days (negative: before), `YYYY-MM-DD`. */
  daysFromToday(days: number): string;
}

/**
 * The office's today at instant `now`: the calendar day in `timeZone` (an IANA name from the system
 * settings), so after midnight in Cairo it is already the next day while UTC is still on the last.
 *
 * @example officeToday('Asia/Riyadh', new Date('2026-11-22T22:30:00Z')).today // '2026-11-23'
 */
export function officeToday(timeZone: string, now: Date = new Date()): OfficeToday {
  const today = dayInZone(timeZone, now);
  const [y, m, d] = today.split('-').map(Number);
  // Counting calendar days on the date alone (no time of day), so no zone or summer time enters.
  const daysFromToday = (days: number) =>
    new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + days)).toISOString().slice(0, 10);
  return { today, daysFromToday };
}
