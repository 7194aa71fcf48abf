/**
 * Dates as the office reads them, for the screens (`@mizan/ui`) and the documents the server
 * writes alike: the Hijri (Umm al-Qura) date by the runtime's own calendar data (`Intl`), and
 * digits in the script of the language.
 */

const ARABIC_INDIC = '٠١٢٣٤٥٦٧٨٩';

/** ASCII digits as Arabic-Indic in Arabic, so every date and figure of a page reads alike. */
export function localizeDigits(text: string, lng: string): string {
  return lng.startsWith('ar') ? text.replace(/[0-9]/g, (d) => ARABIC_INDIC[Number(d)]!) : text;
}

const hijriFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The Hijri (Umm al-Qura) date of an instant in a language: Arabic month names and Arabic-Indic
 * digits as Saudi courts and offices write them, or "13 Jumada II 1448 AH" in English. The day is
 * the one of `timeZone` (default: the runtime's own zone, a browser's local day).
 *
 * @example formatHijri(new Date(2024, 4, 1), 'ar') // '٢٢ شوال ١٤٤٥ هـ'
 * @example formatHijri(new Date(2024, 4, 1), 'en') // '22 Shawwal 1445 AH'
 */
export function formatHijri(date: Date, lng = 'ar', timeZone?: string): string {
  const ar = lng.startsWith('ar');
  const key = `${ar ? 'ar' : 'en'}|${timeZone ?? ''}`;
  let formatter = hijriFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(
      ar ? 'ar-SA-u-ca-islamic-umalqura-nu-arab' : 'en-GB-u-ca-islamic-umalqura',
      { day: 'numeric', month: 'long', year: 'numeric', ...(timeZone ? { timeZone } : {}) },
    );
    hijriFormatters.set(key, formatter);
  }
  return formatter.format(date);
}
