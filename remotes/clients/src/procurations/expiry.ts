import { PROCURATION_EXPIRY_WARNING_DAYS } from '@mizan/contracts';

/**
 * Where a power of attorney stands on a given day: open-ended (no expiry date), expired (its
 * expiry date is before today, as the list's `expired` filter counts it), expiring soon (within
 * `PROCURATION_EXPIRY_WARNING_DAYS`, today included) or valid for longer. `days` is calendar days
 * from today (the office's day, `officeToday` of @mizan/ui) to the expiry date (negative once expired).
 */
export type ExpiryState =
  | { kind: 'open' }
  | { kind: 'expired'; days: number }
  | { kind: 'soon'; days: number }
  | { kind: 'valid'; days: number };

const DAY_MS = 24 * 60 * 60 * 1000;
/** A `YYYY-MM-DD` day as a UTC day number, so a change of clocks never shifts the count. */
const dayNumber = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 1) / DAY_MS;
};

/**
 * @example expiryState('2026-12-01', '2026-11-23') // { kind: 'soon', days: 8 }
 */
export function expiryState(expiryDate: unknown, today: string): ExpiryState {
  if (typeof expiryDate !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(expiryDate)) return { kind: 'open' };
  const days = dayNumber(expiryDate.slice(0, 10)) - dayNumber(today);
  if (days < 0) return { kind: 'expired', days };
  if (days <= PROCURATION_EXPIRY_WARNING_DAYS) return { kind: 'soon', days };
  return { kind: 'valid', days };
}
