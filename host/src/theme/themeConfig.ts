import { DEFAULT_THEME_CONFIG, STORAGE_KEYS } from '@mizan/contracts/light';
import type { ThemeConfig } from '@mizan/contracts';
import { secureStorage } from '@mizan/sdk';
import { atom, type createStore } from 'jotai';

type Store = ReturnType<typeof createStore>;

const LOCALES = ['ar', 'en'] as const;
const THEMES = ['light', 'dark'] as const;

function oneOf<T extends string>(values: readonly T[], value: unknown, fallback: T): T {
  return values.includes(value as T) ? (value as T) : fallback;
}

/**
 * A complete, valid config from anything stored (an older or tampered copy loses only its bad
 * fields). Direction always follows the locale: Arabic is right-to-left.
 */
export function normalizeThemeConfig(value: unknown): ThemeConfig {
  const raw = (typeof value === 'object' && value !== null ? value : {}) as Partial<
    Record<keyof ThemeConfig, unknown>
  >;
  const d = DEFAULT_THEME_CONFIG;
  const bool = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback);
  const text = (v: unknown, fallback: string) =>
    typeof v === 'string' && v.trim() !== '' && v.length <= 200 ? v : fallback;
  const locale = oneOf(LOCALES, raw.locale, d.locale);
  return {
    locale,
    direction: locale === 'ar' ? 'rtl' : 'ltr',
    currentTheme: oneOf(THEMES, raw.currentTheme, d.currentTheme),
    navType: oneOf(['side', 'top'] as const, raw.navType, d.navType),
    sideNavTheme: oneOf(THEMES, raw.sideNavTheme, d.sideNavTheme),
    topNavColor: text(raw.topNavColor, d.topNavColor),
    headerNavColor: text(raw.headerNavColor, d.headerNavColor),
    navCollapsed: bool(raw.navCollapsed, d.navCollapsed),
    hideHeader: bool(raw.hideHeader, d.hideHeader),
    mobileNav: bool(raw.mobileNav, d.mobileNav),
    blankLayout: bool(raw.blankLayout, d.blankLayout),
  };
}

const baseAtom = atom<ThemeConfig>(DEFAULT_THEME_CONFIG);

/** Whether the user ever saved a preference; without one the office's defaults apply. */
export const themeStoredAtom = atom(false);

/**
 * The theme configuration. Writing a patch saves the whole config at once to encrypted
 * storage (`themeConfig`) and the light/dark choice to `theme`.
 */
export const themeConfigAtom = atom(
  (get) => get(baseAtom),
  (get, set, patch: Partial<ThemeConfig>) => {
    const next = normalizeThemeConfig({ ...get(baseAtom), ...patch });
    set(baseAtom, next);
    set(themeStoredAtom, true);
    void secureStorage.set(STORAGE_KEYS.themeConfig, next);
    void secureStorage.set(STORAGE_KEYS.theme, next.currentTheme);
  },
);

/** Reads the stored config into the store; call once at start, before the first render. */
export async function restoreThemeConfig(store: Store): Promise<ThemeConfig> {
  await secureStorage.ready();
  const stored = secureStorage.peek<unknown>(STORAGE_KEYS.themeConfig);
  const storedTheme = secureStorage.peek<unknown>(STORAGE_KEYS.theme);
  const config = normalizeThemeConfig({
    ...(stored && typeof stored === 'object' ? stored : {}),
    ...(storedTheme === 'light' || storedTheme === 'dark' ? { currentTheme: storedTheme } : {}),
  });
  store.set(baseAtom, config);
  store.set(themeStoredAtom, stored !== null || storedTheme !== null);
  return config;
}

/**
 * Applies the office's default language and theme when the user has no saved preference. Not
 * saved: a later change of the office defaults still reaches this browser.
 */
export function applyOfficeDefaults(
  store: Store,
  defaults: { defaultLanguage?: string; defaultTheme?: string },
): void {
  if (store.get(themeStoredAtom)) return;
  const current = store.get(baseAtom);
  const next = normalizeThemeConfig({
    ...current,
    locale: defaults.defaultLanguage ?? current.locale,
    currentTheme: defaults.defaultTheme ?? current.currentTheme,
  });
  // Setting an equal copy would still re-render every reader.
  if (next.locale !== current.locale || next.currentTheme !== current.currentTheme) store.set(baseAtom, next);
}
