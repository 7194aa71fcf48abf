import { normalizeDigits } from './text';

/**
 * Lengths of time (`{ type: 'duration' }` fields): the API carries a whole number of minutes. Text
 * typed as hours and minutes (`1:30`, `١:٣٠`) or as decimal hours (`1.5`, `١٫٥`, `0.25`) is read
 * into minutes exactly: a decimal that is not a whole number of minutes (`0.01` hours, 36 seconds)
 * is refused rather than rounded.
 */

/** Minutes in a day: the longest a single time entry may be. */
export const MINUTES_PER_DAY = 24 * 60;

/**
 * `h:mm` or decimal hours as typed (ASCII, Arabic-Indic or Persian digits; `.`, `,` or `٫` for the
 * decimal point) → minutes. Null when the text is neither, when the minutes of `h:mm` are 60 or
 * more, or when decimal hours are not a whole number of minutes. A bare whole number is hours
 * (`2` → 120), as a time sheet reads it.
 *
 * @example parseDuration('1:30') // 90
 * @example parseDuration('١٫٥') // 90
 * @example parseDuration('0.1') // 6
 * @example parseDuration('0.01') // null (36 seconds)
 */
export function parseDuration(text: string): number | null {
  const plain = normalizeDigits(text.trim()).replace(/[\u066B,]/g, '.');
  const clock = /^(\d{1,4}):([0-5]\d)$/.exec(plain);
  if (clock) return Number(clock[1]) * 60 + Number(clock[2]);
  const decimal = /^(\d{1,4})(?:\.(\d{1,6}))?$/.exec(plain) ?? /^()\.(\d{1,6})$/.exec(plain);
  if (!decimal) return null;
  const [, whole = '', fraction = ''] = decimal;
  // Minutes = hours × 60, in integers: the fraction's digits × 60 must divide by 10^digits.
  const scale = 10 ** fraction.length;
  const fractionMinutes = Number(fraction || '0') * 60;
  if (fractionMinutes % scale !== 0) return null;
  return Number(whole || '0') * 60 + fractionMinutes / scale;
}

/**
 * Minutes → `h:mm` (`90` → `'1:30'`, `5` → `'0:05'`), the way a time sheet and the form show a
 * duration; digits are ASCII (the caller's number formatting localises them).
 */
export function formatDuration(minutes: number): string {
  const sign = minutes < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(minutes));
  return `${sign}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * What `minutes` of work at `ratePerHour` (minor units per hour) comes to, in minor units, rounded
 * half up to the smallest unit: the only multiplication of money by time, done in integers.
 *
 * @example amountForMinutes(90, 30000) // 45000 (1.5 h at 300.00)
 * @example amountForMinutes(1, 100) // 2 (1/60 of 1.00, 1.67 piastres, rounds up)
 */
export function amountForMinutes(minutes: number, ratePerHour: number): number {
  const product = minutes * ratePerHour;
  if (!Number.isSafeInteger(product)) throw new RangeError('Amount out of range');
  return Math.floor((product + 30) / 60);
}
