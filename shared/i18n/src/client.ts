import i18next, { type TFunction } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language, Namespace } from '../resources';
import { applyDocumentLanguage, baseOptions, DEFAULT_LANGUAGE, LANGUAGES } from './options';

export type { Language, Namespace };

/**
 * The page's build of `@mizan/i18n` (the `browser` export of package.json). Unlike the full entry
 * (`index.ts`, for tests and tools) it bundles no texts: each language's client namespaces are a
 * chunk of their own, loaded when the page first shows that language, so the login page downloads
 * one language and never the server's namespaces (issue 14).
 */

/** The client's namespaces of a language, each language its own chunk. */
const LANGUAGE_BUNDLES: Record<Language, () => Promise<{ default: Record<string, object> }>> = {
  ar: () => import(/* webpackChunkName: "i18n-ar" */ './bundles/ar'),
  en: () => import(/* webpackChunkName: "i18n-en" */ './bundles/en'),
};

/**
 * The one i18next instance of the page. It is i18next's default instance on purpose: i18next and
 * react-i18next are federation singletons, so host and remotes that import either get this same
 * object (and `useTranslation()` in a remote reads the host's language).
 */
export const i18n = i18next;

export { DEFAULT_LANGUAGE, dirOf, LANGUAGES } from './options';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as string[]).includes(value);
}

/** The current language, narrowed to the two we ship (Arabic until initialised). */
export function currentLanguage(): Language {
  const lng = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(lng) ? lng : DEFAULT_LANGUAGE;
}

/** Adds a language's client namespaces the page does not have yet (a remote's newer texts win). */
async function loadLanguage(lng: Language): Promise<void> {
  if (i18n.hasResourceBundle(lng, 'common')) return;
  const { default: bundles } = await LANGUAGE_BUNDLES[lng]();
  for (const [ns, bundle] of Object.entries(bundles)) i18n.addResourceBundle(lng, ns, bundle, true, false);
}

/**
 * Initialises the shared instance with the client namespaces of `lng` (one chunk; the other
 * language loads when the page switches to it). Safe to call again: a second call only switches
 * the language.
 *
 * @example await initI18n('ar'); i18n.t('common:actions.save') // 'حفظ'
 */
export async function initI18n(lng: Language = DEFAULT_LANGUAGE): Promise<typeof i18n> {
  if (i18n.isInitialized) {
    await setLanguage(lng);
    return i18n;
  }
  const { default: bundles } = await LANGUAGE_BUNDLES[lng]();
  await i18n.use(initReactI18next).init({
    ...baseOptions,
    resources: { [lng]: bundles },
    partialBundledLanguages: true,
    ns: Object.keys(bundles),
    lng,
    react: { useSuspense: false },
  });
  applyDocumentLanguage(lng);
  return i18n;
}

/** Switches the language of the whole page (loading its texts first) and sets `<html lang dir>`. */
export async function setLanguage(lng: Language): Promise<void> {
  if (!isLanguage(lng)) throw new Error(`Unsupported language "${String(lng)}"`);
  await loadLanguage(lng);
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
