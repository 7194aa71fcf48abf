/**
 * A number as the language writes it: Arabic-Indic digits in Arabic; codes and identifiers
 * (`code: true`: a circuit number, an ID) never grouped, so 1804 does not read as "1,804".
 */
export function formatNumber(value: number, lng: string, code = false): string {
  // ar-EG: Arabic-Indic digits with the Arabic separators, as the dates of the same screen.
  return new Intl.NumberFormat(lng.startsWith('ar') ? 'ar-EG' : 'en', {
    useGrouping: !code,
    maximumFractionDigits: 20,
  }).format(value);
}
