import type { i18n as I18n, InitOptions } from 'i18next';
import type { Language } from '../resources';

// What both entries of the package (the page's `client.ts`, the full `index.ts`) set up alike.

export const LANGUAGES: Language[] = ['ar', 'en'];

export const DEFAULT_LANGUAGE: Language = 'ar';

/** Text direction of a language: Arabic is right-to-left. */
export function dirOf(lng: Language): 'rtl' | 'ltr' {
  return lng === 'ar' ? 'rtl' : 'ltr';
}

export const baseOptions = {
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: LANGUAGES,
  defaultNS: 'common',
  // Resources are in memory before `init`: initialise synchronously, the first render has texts.
  initAsync: false,
  returnNull: false,
  // React escapes output; escaping here would double-escape Arabic punctuation and quotes.
  interpolation: { escapeValue: false },
} satisfies InitOptions;

/**
 * `{{count, number}}` in a text: the number in the language's digits, Arabic-Indic in Arabic
 * (`ar-EG`, as the screens write figures and dates), not in the Latin digits `Intl` gives `ar`.
 * Call once an instance is initialised.
 */
export function addNumberFormat(instance: I18n): void {
  // A value that is not a number (antd's `${min}` placeholders) is left for antd to fill in.
  instance.services.formatter?.add('number', (value: unknown, lng: string | undefined) =>
    typeof value === 'number' ||
    (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)))
      ? new Intl.NumberFormat(lng?.startsWith('ar') ? 'ar-EG' : 'en').format(Number(value))
      : String(value),
  );
}

export function applyDocumentLanguage(lng: Language): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lng;
  document.documentElement.dir = dirOf(lng);
}
