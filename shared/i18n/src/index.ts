import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { NAMESPACES, resources, type Language } from '../resources';
import { i18n, setLanguage } from './client';
import { addNumberFormat, applyDocumentLanguage, baseOptions, DEFAULT_LANGUAGE } from './options';

/**
 * The full entry of `@mizan/i18n`, for tests and tools (jest maps `@mizan/i18n` here): every
 * namespace of both languages bundled, so `initI18n` is ready synchronously and `createI18n` can
 * give a second language side by side. The page gets `client.ts` instead (package.json `browser`).
 */
export * from './client';
export { NAMESPACES, resources };

const fullOptions = { ...baseOptions, resources, ns: NAMESPACES };

/**
 * Initialises the shared instance with every namespace of `resources.js` (bundled, so no loading
 * step; the page entry's `app` option has nothing to hold back here). Safe to call again: a second
 * call only switches the language.
 *
 * @example await initI18n('ar'); i18n.t('common:actions.save') // 'حفظ'
 */
export async function initI18n(
  lng: Language = DEFAULT_LANGUAGE,
  _options: { app?: boolean } = {},
): Promise<typeof i18n> {
  if (i18n.isInitialized) {
    await setLanguage(lng);
    return i18n;
  }
  await i18n.use(initReactI18next).init({ ...fullOptions, lng, react: { useSuspense: false } });
  addNumberFormat(i18n);
  applyDocumentLanguage(lng);
  return i18n;
}

/**
 * A separate, initialised instance (tests, tools, a second language side by side). The page uses
 * the shared `i18n`; this one is not wired to React and does not touch `<html>`.
 */
export function createI18n(lng: Language = DEFAULT_LANGUAGE): typeof i18n {
  const instance = i18next.createInstance();
  void instance.init({ ...fullOptions, lng });
  addNumberFormat(instance);
  return instance;
}
