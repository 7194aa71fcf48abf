/** Umm al-Qura calendar, Arabic digits and month names, as Saudi courts and offices write Hijri dates. */
const hijriFormatter = new Intl.DateTimeFormat('ar-SA-u-ca-islamic-umalqura', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** The Hijri (Umm al-Qura) date of a day, in Arabic, e.g. `٢٢ شوال ١٤٤٥ هـ`. */
export function formatHijri(date: Date): string {
  return hijriFormatter.format(date);
}
