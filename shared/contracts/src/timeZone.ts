/**
 * The office's time zone until an administrator picks another (IANA name): the office is in Egypt,
 * as the clients' national-ID rule already assumes. "Today" (expiry flags and filters, hearings)
 * is the calendar day in this zone, on the server and in the browser alike.
 */
export const DEFAULT_TIME_ZONE = 'Africa/Cairo';

/** Whether `name` is a time zone the runtime's Intl knows (`Africa/Cairo`, `UTC`). */
export function isTimeZone(name: string): boolean {
  if (!name || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
