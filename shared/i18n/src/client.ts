import i18next, { type TFunction } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language, Namespace } from '../resources';
import { addNumberFormat, applyDocumentLanguage, baseOptions, DEFAULT_LANGUAGE, LANGUAGES } from './options';

export type { Language, Namespace };

/**
 * The page's build of `@mizan/i18n` (the `browser` export of package.json). Unlike the full entry
 * (`index.ts`, for tests and tools) it bundles no texts: each language's client namespaces come in
 * two chunks, loaded when the page first shows that language: the signed-out pages' few
 * namespaces (`signIn`), and the others (`app`) only once a session needs them. The login page
 * downloads one language's `signIn` chunk and never the server's namespaces.
 */

/** The two groups of client namespaces (./bundles/signIn, ./bundles/app). */
type TextGroup = 'signIn' | 'app';

type Bundles = () => Promise<{ default: Record<string, object> }>;

const BUNDLES: Record<TextGroup, Record<Language, Bundles>> = {
  signIn: {
    ar: () => import(/* webpackChunkName: "i18n-ar" */ './bundles/signIn/ar'),
    en: () => import(/* webpackChunkName: "i18n-en" */ './bundles/signIn/en'),
  },
  app: {
    ar: () => import(/* webpackChunkName: "i18n-ar-app" */ './bundles/app/ar'),
    en: () => import(/* webpackChunkName: "i18n-en-app" */ './bundles/app/en'),
  },
};

/** Groups every language the page switches to must have: `app` joins at the first `loadAppTexts`. */
const wantedGroups = new Set<TextGroup>(['signIn']);

/** One load per language and group (a failed one is tried again at the next call). */
const groupLoads = new Map<string, Promise<void>>();

/** The first `initI18n` while it runs: resources can be added only to an initialised instance. */
let initialising: Promise<unknown> | null = null;

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

/** Adds a group of a language's namespaces the page does not have yet (a remote's newer texts win). */
function loadGroup(lng: Language, group: TextGroup): Promise<void> {
  const key = `${lng}:${group}`;
  let load = groupLoads.get(key);
  if (!load) {
    load = BUNDLES[group][lng]().then(
      ({ default: bundles }) => {
        for (const [ns, bundle] of Object.entries(bundles))
          i18n.addResourceBundle(lng, ns, bundle, true, false);
      },
      (error: unknown) => {
        groupLoads.delete(key);
        throw error;
      },
    );
    groupLoads.set(key, load);
  }
  return load;
}

/** Every group the page wants, in one language. */
async function loadLanguage(lng: Language): Promise<void> {
  await Promise.all([...wantedGroups].map((group) => loadGroup(lng, group)));
}

/**
 * Loads the namespaces beyond the signed-out pages' (`app`: menu, entities, dashboard, screens) in
 * the current language, and in any language switched to afterwards. The host calls it when a
 * session starts and before its signed-in layout renders; it resolves at once when they are there.
 *
 * @example await loadAppTexts(); i18n.t('menu:items.countries')
 */
export async function loadAppTexts(): Promise<void> {
  wantedGroups.add('app');
  await initialising;
  if (i18n.isInitialized) await loadLanguage(currentLanguage());
}

/**
 * Initialises the shared instance with the client namespaces of `lng` (the other language loads
 * when the page switches to it). `app: false` loads only the signed-out pages' namespaces, until
 * `loadAppTexts`. Safe to call again: a second call only switches the language (and adds `app`).
 *
 * @example await initI18n('ar'); i18n.t('common:actions.save') // 'حفظ'
 */
export async function initI18n(
  lng: Language = DEFAULT_LANGUAGE,
  { app = true }: { app?: boolean } = {},
): Promise<typeof i18n> {
  if (app) wantedGroups.add('app');
  if (i18n.isInitialized) {
    await setLanguage(lng);
    return i18n;
  }
  initialising ??= (async () => {
    const groups = [...wantedGroups];
    const loaded = await Promise.all(groups.map((group) => BUNDLES[group][lng]()));
    for (const group of groups) groupLoads.set(`${lng}:${group}`, Promise.resolve());
    const bundles = Object.assign({}, ...loaded.map((m) => m.default)) as Record<string, object>;
    await i18n.use(initReactI18next).init({
      ...baseOptions,
      resources: { [lng]: bundles },
      partialBundledLanguages: true,
      ns: Object.keys(bundles),
      lng,
      // A component shown before its namespace arrived (`app` loading) renders again when it does.
      react: { useSuspense: false, bindI18nStore: 'added' },
    });
    addNumberFormat(i18n);
    applyDocumentLanguage(lng);
  })();
  await initialising;
  // `app` may have been asked for while the first groups loaded.
  await loadLanguage(lng);
  return i18n;
}

/** Switches the language of the whole page (loading its texts first) and sets `<html lang dir>`. */
export async function setLanguage(lng: Language): Promise<void> {
  if (!isLanguage(lng)) throw new Error(`Unsupported language "${String(lng)}"`);
  await loadLanguage(lng);
  await i18n.changeLanguage(lng);
  applyDocumentLanguage(lng);
}

export type ValidationParams = {
  label?: string;
  min?: number;
  max?: number;
  count?: number;
  values?: string;
};

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
