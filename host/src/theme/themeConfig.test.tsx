import { DEFAULT_THEME_CONFIG, ROUTES, STORAGE_KEYS } from '@mizan/contracts';
import { i18n } from '@mizan/i18n';
import { sdkStore, secureStorage } from '@mizan/sdk';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { createStore } from 'jotai';
import { SETTINGS_ANSWER, serveApiForFile } from '../test/apiServer';
import { renderApp, resetPage } from '../test/renderApp';
import {
  applyOfficeDefaults,
  normalizeThemeConfig,
  restoreThemeConfig,
  themeConfigAtom,
} from './themeConfig';

serveApiForFile({ 'GET /api/auth/systemSettings': SETTINGS_ANSWER });

beforeEach(() => resetPage());

describe('theme configuration', () => {
  it('is saved to encrypted storage on every change and restored at start', async () => {
    await act(async () => {
      renderApp(ROUTES.login);
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Switch theme' }));
    await waitFor(() =>
      expect(secureStorage.peek(STORAGE_KEYS.themeConfig)).toMatchObject({ currentTheme: 'dark' }),
    );
    expect(secureStorage.peek(STORAGE_KEYS.theme)).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');

    // A new page reads the saved copy back.
    const fresh = createStore();
    const restored = await restoreThemeConfig(fresh);
    expect(restored.currentTheme).toBe('dark');
    expect(fresh.get(themeConfigAtom)).toEqual(restored);
  });

  it('drops invalid stored values field by field and keeps direction with the locale', () => {
    const config = normalizeThemeConfig({
      locale: 'en',
      direction: 'rtl',
      currentTheme: 'purple',
      navType: 'top',
      navCollapsed: 'yes',
    });
    expect(config).toEqual({ ...DEFAULT_THEME_CONFIG, locale: 'en', direction: 'ltr', navType: 'top' });
    expect(normalizeThemeConfig('garbage')).toEqual(DEFAULT_THEME_CONFIG);
  });

  it("applies the office's defaults only while the user has no saved preference", async () => {
    await secureStorage.remove(STORAGE_KEYS.themeConfig);
    await secureStorage.remove(STORAGE_KEYS.theme);
    const store = createStore();
    await restoreThemeConfig(store);
    applyOfficeDefaults(store, { defaultLanguage: 'en', defaultTheme: 'dark' });
    expect(store.get(themeConfigAtom)).toMatchObject({
      locale: 'en',
      direction: 'ltr',
      currentTheme: 'dark',
    });
    store.set(themeConfigAtom, { currentTheme: 'light' });
    applyOfficeDefaults(store, { defaultLanguage: 'ar', defaultTheme: 'dark' });
    expect(store.get(themeConfigAtom)).toMatchObject({ locale: 'en', currentTheme: 'light' });
  });
});

describe('language switch', () => {
  it('flips the language, <html dir/lang> and antd direction live', async () => {
    await act(async () => {
      renderApp(ROUTES.login);
    });
    await waitFor(() => expect(document.documentElement.dir).toBe('ltr'));
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();

    await act(async () => {
      // Named by its visible text, the other language, marked as that language.
      const toArabic = screen.getByRole('button', { name: 'العربية' });
      expect(toArabic).toHaveAttribute('lang', 'ar');
      expect(toArabic).toHaveAccessibleDescription('Language');
      fireEvent.click(toArabic);
    });
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(document.documentElement.lang).toBe('ar');
    expect(i18n.language).toBe('ar');
    expect(await screen.findByRole('button', { name: 'دخول' })).toBeInTheDocument();
    // antd components render right-to-left.
    expect(
      document.querySelector('.ant-form-rtl, .ant-input-affix-wrapper-rtl, .ant-btn-rtl'),
    ).not.toBeNull();
    expect(sdkStore.get(themeConfigAtom)).toMatchObject({ locale: 'ar', direction: 'rtl' });
    expect(secureStorage.peek(STORAGE_KEYS.themeConfig)).toMatchObject({ locale: 'ar' });

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'English' }));
    });
    await waitFor(() => expect(document.documentElement.dir).toBe('ltr'));
  });
});
