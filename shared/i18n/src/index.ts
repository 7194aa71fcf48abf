import i18next, { type InitOptions, type TFunction } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, NAMESPACES, resources, type Language, type Namespace } from '../resources';

export { LANGUAGES, NAMESPACES, resources };
export type { Language, Namespace };

/**
 * The one i18next instance of the page. It is i18next's default instance on purpose: i18next and
 * react-i18next are federation singletons, so host and remotes that import either get this same
 * object (and `useTranslation()` in a remote reads the host's language).
 */
export const i18n = i18next;

export const DEFAULT_LANGUAGE: Language = 'ar';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as string[]).includes(value);
}

/** Text direction of a language: Arabic is right-to-left. */
export function dirOf(lng: Language): 'rtl' | 'ltr' {
  return lng === 'ar' ? 'rtl' : 'ltr';
}

/** The current language, narrowed to the two we ship (Arabic until initialised). */
export function currentLanguage(): Language {
  const lng = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(lng) ? lng : DEFAULT_LANGUAGE;
}

const baseOptions = {
  resources,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: LANGUAGES,
  ns: NAMESPACES,
  defaultNS: 'common',
  // Bundled resources: initialise synchronously so the first render already has texts.
  initAsync: false,
  returnNull: false,
  // React escapes output; escaping here would double-escape Arabic punctuation and quotes.
  interpolation: { escapeValue: false },
} satisfies InitOptions;

function applyDocumentLanguage(lng: Language): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lng;
  document.documentElement.dir = dirOf(lng);
}

/**
 * Initialises the shared instance with every namespace of `resources.js` (bundled, so no loading
 * step). Safe to call again: a second call only switches the language.
 *
 * @example await initI18n('ar'); i18n.t('common:actions.save') // 'حفظ'
 */
export async function initI18n(lng: Language = DEFAULT_LANGUAGE): Promise<typeof i18n> {
  if (i18n.isInitialized) {
    await setLanguage(lng);
    return i18n;
  }
  await i18n.use(initReactI18next).init({ ...baseOptions, lng, react: { useSuspense: false } });
  applyDocumentLanguage(lng);
  return i18n;
}

/**
 * A separate, initialised instance (tests, tools, a second language side by side). The page uses
 * the shared `i18n`; this one is not wired to React and does not touch `<html>`.
 */
export function createI18n(lng: Language = DEFAULT_LANGUAGE): typeof i18n {
  const instance = i18next.createInstance();
  void instance.init({ ...baseOptions, lng });
  return instance;
}

/** Switches the language of the whole page and sets `<html lang dir>`. */
export async function setLanguage(lng: Language): Promise<void> {
  if (!isLanguage(lng)) throw new Error(`Unsupported language "${String(lng)}"`);
  await i18n.changeLanguage(lng);
  applyDocumentLanguage(lng);
}

export type ValidationParams = { label?: string; min?: number; max?: number; values?: string };

/**
 * Translates a `validation.*` key produced by `issueMessage` (contracts) with the field's label.
 *
 * @example validationMessage(t, 'validation.string.max', { label: 'الاسم', max: 100 })
 */
export function validationMessage(t: TFunction, key: string, params: ValidationParams = {}): string {
  const path = key.startsWith('validation.') ? key.slice('validation.'.length) : key;
  return t(`validation:${path}`, { ...params, defaultValue: t('validation:default', params) });
}

/** antd's `${placeholder}` names; i18next fills our `{{...}}` with them so antd substitutes last. */
const A = {
  label: '${label}',
  min: '${min}',
  max: '${max}',
  len: '${len}',
  values: '${enum}',
  type: '${type}',
  pattern: '${pattern}',
} as const;

type Messages = { [key: string]: string | Messages };

/**
 * antd Form `validateMessages` built from the `validation` namespace, in the current language.
 * Pass it to `<ConfigProvider form={{ validateMessages }}>`; rebuild it when the language changes.
 */
export function antdValidateMessages(t: TFunction): Messages {
  const m = (key: string) => t(`validation:${key}`, A);
  const group = (prefix: string, keys: readonly string[]) =>
    Object.fromEntries(keys.map((k) => [k, m(`${prefix}.${k}`)]));
  const sizes = ['len', 'min', 'max', 'range'] as const;
  return {
    default: m('default'),
    required: m('required'),
    enum: m('enum'),
    whitespace: m('whitespace'),
    date: group('date', ['format', 'parse', 'invalid']),
    types: group('types', [
      'string',
      'method',
      'array',
      'object',
      'number',
      'date',
      'boolean',
      'integer',
      'float',
      'regexp',
      'email',
      'url',
      'hex',
    ]),
    string: group('string', sizes),
    number: group('number', sizes),
    array: group('array', sizes),
    pattern: group('pattern', ['mismatch']),
  };
}
