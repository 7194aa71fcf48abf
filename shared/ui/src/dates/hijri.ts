import { formatHijri } from '@mizan/contracts';
import { gregorianToHijri, hijriToGregorian } from '@tabby_ai/hijri-converter';

/** A day of the Umm al-Qura calendar; `month` is 1-based. */
export interface HijriDay {
  year: number;
  month: number;
  day: number;
}

/** The years the converter knows (1 Aug 1924 – 16 Nov 2077): every date an office files. */
export const HIJRI_YEARS = { min: 1343, max: 1500 } as const;

const langOf = (lng: string) => (lng.startsWith('ar') ? 'ar' : 'en');

/** The Hijri date of a local day in the interface language (shared with the documents the server writes). */
export { formatHijri };

/** The Hijri day of a local calendar day. */
export function toHijri(date: Date): HijriDay {
  return gregorianToHijri({ year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() });
}

/** The local calendar day of a Hijri date, or null when no such day exists (30 in a 29-day month). */
export function fromHijri(day: HijriDay): Date | null {
  try {
    const g = hijriToGregorian(day);
    return new Date(g.year, g.month - 1, g.day);
  } catch {
    return null;
  }
}

/** 29 or 30: Umm al-Qura months follow the moon, so the length comes from the table. */
export function hijriMonthLength(year: number, month: number): number {
  return fromHijri({ year, month, day: 30 }) ? 30 : 29;
}

const monthNameFormatters = {
  ar: new Intl.DateTimeFormat('ar-SA-u-ca-islamic-umalqura', { month: 'long' }),
  en: new Intl.DateTimeFormat('en-GB-u-ca-islamic-umalqura', { month: 'long' }),
};

/** The twelve Hijri month names in the interface language, named by the same calendar that formats dates. */
export function hijriMonthNames(lng: string): string[] {
  const formatter = monthNameFormatters[langOf(lng)];
  return Array.from({ length: 12 }, (_, i) =>
    formatter.format(fromHijri({ year: 1446, month: i + 1, day: 15 })!),
  );
}
