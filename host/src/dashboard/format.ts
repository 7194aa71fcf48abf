/**
 * A trend month `YYYY-MM` as the interface reads it: Arabic month names and Arabic-Indic digits in
 * Arabic (`يناير ٢٠٢٦`), English otherwise (`Jan 2026`). Always the Gregorian month the server counted.
 *
 * @example monthLabel('2026-01', 'en') // 'Jan 2026'
 */
export function monthLabel(month: string, lng: string): string {
  const [year, index] = month.split('-').map(Number);
  return new Intl.DateTimeFormat(lng.startsWith('ar') ? 'ar-EG-u-ca-gregory' : 'en-GB', {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year ?? 1970, (index ?? 1) - 1, 1)));
}
