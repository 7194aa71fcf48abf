import { normalizeDigits } from './text';

/**
 * Amounts of money (`{ type: 'money' }` fields): the API carries an integer count of minor units,
 * 1/`MONEY_SCALE` of the office currency (piastres, halalas, fils), stored as a BIGINT (PostgreSQL)
 * or INTEGER (SQLite, 64-bit): never a float, so sums and comparisons are exact. Text typed or
 * imported in major units ("1,234.50", "١٬٢٣٤٫٥٠") is converted with string arithmetic only.
 */

/** Minor units in one major unit of the office currency. */
export const MONEY_SCALE = 100;
/** Decimal places of a major-unit amount (log10 of `MONEY_SCALE`). */
export const MONEY_DECIMALS = 2;
/**
 * Largest amount a money field holds, in minor units (just under ten trillion major units): well
 * inside JavaScript's exact integers (2^53), so no amount loses a digit on its way through JSON.
 */
export const MONEY_MAX = 999_999_999_999_999;

/**
 * Major units as typed (ASCII, Arabic-Indic or Persian digits; `.` or `٫` for the decimal point;
 * `,`, `٬` or spaces grouping thousands, in groups of three) → minor units, exactly. Null when the
 * text is not an amount, or holds a fraction of the smallest unit (`1.005`); a leading `-` gives a
 * negative amount (the field's own minimum refuses it with a clear message).
 *
 * @example parseMoney('1,234.50') // 123450
 * @example parseMoney('١٬٢٣٤٫٥') // 123450
 * @example parseMoney('0.1') + parseMoney('0.2') === parseMoney('0.3') // true (10 + 20 = 30)
 * @example parseMoney('1.005') // null
 */
export function parseMoney(text: string): number | null {
  const plain = normalizeDigits(text.trim())
    .replace(/\u066B/g, '.')
    .replace(/[\u066C\u00A0\u202F\u2009 ]/g, ',');
  const match = /^([+-]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d*))?$/.exec(plain);
  if (!match) return null;
  const [, sign, whole = '', fraction = ''] = match;
  // Digits past the smallest unit must be zeros: 1.50 and 1.500 are the same amount, 1.005 is not one.
  if (/[^0]/.test(fraction.slice(MONEY_DECIMALS))) return null;
  const digits = (
    whole.replace(/,/g, '') + fraction.slice(0, MONEY_DECIMALS).padEnd(MONEY_DECIMALS, '0')
  ).replace(/^0+(?=\d)/, '');
  if (digits.length > String(MONEY_MAX).length) return null;
  const minor = Number(digits);
  return sign === '-' && minor !== 0 ? -minor : minor;
}

/**
 * Minor units → major units as plain text with `MONEY_DECIMALS` places (`123450` → `'1234.50'`),
 * built from the digits (no division, so no float rounding): what an export writes and what
 * `Intl.NumberFormat` is given to format.
 *
 * @example moneyToMajor(5) // '0.05'
 * @example moneyToMajor(-123450) // '-1234.50'
 */
export function moneyToMajor(minor: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`Not an amount in minor units: ${minor}`);
  const digits = String(Math.abs(minor)).padStart(MONEY_DECIMALS + 1, '0');
  const major = `${digits.slice(0, -MONEY_DECIMALS)}.${digits.slice(-MONEY_DECIMALS)}`;
  return minor < 0 ? `-${major}` : major;
}
