import { AREA_PERMISSIONS, DEFAULT_THEME_CONFIG } from '@mizan/contracts';
import { createI18n } from '@mizan/i18n';
import { sdkStore } from '@mizan/sdk';
import { act, screen, waitFor } from '@testing-library/react';
import { SETTINGS_ANSWER, serveApiForFile } from '../test/apiServer';
import { makeUser, renderApp, resetPage, signIn } from '../test/renderApp';
import { contrast, navBackground, parseColor } from '../theme/contrast';
import { themeConfigAtom } from '../theme/themeConfig';

const user = makeUser([AREA_PERMISSIONS.dashboardView]);

/** Both colour stops of a `linear-gradient(...)`. */
const stops = (gradient: string) => [...gradient.matchAll(/#[0-9a-f]{6}/gi)].map((m) => m[0]);

describe('navBackground', () => {
  it.each(['#0f766e', '#1d4ed8', '#facc15', '#ffffff', '#000000'])(
    '%s: a gradient of the colour with white text at AA on both ends',
    (primary) => {
      const gradient = navBackground(primary);
      expect(gradient).toMatch(/^linear-gradient\(90deg, #[0-9a-f]{6} 0%, #[0-9a-f]{6} 100%\)$/);
      for (const stop of stops(gradient)) expect(contrast('#ffffff', stop)).toBeGreaterThanOrEqual(4.5);
    },
  );

  it('keeps a dark enough office colour as it is', () => {
    expect(stops(navBackground('#0f766e'))[1]).toBe('#0f766e');
  });
});

describe('header', () => {
  serveApiForFile({
    'GET /api/auth/systemSettings': SETTINGS_ANSWER,
    'POST /api/auth/check': () => ({ body: { data: { user, token: 'test-token' } } }),
  });
  beforeEach(async () => {
    await resetPage();
    await signIn(user);
  });

  it("takes the office's primary colour, not the default blue", async () => {
    await act(async () => {
      renderApp('/admin/dashboard');
    });
    const header = await screen.findByRole('banner');
    // The settings answer's #0f766e (teal) reaches the bar once loaded.
    await waitFor(() => expect(header.style.background).toContain('#0f766e'));
    expect(header.style.background).not.toContain('#1d4ed8');
  });

  it('keeps a colour the user chose for the header', async () => {
    sdkStore.set(themeConfigAtom, { ...DEFAULT_THEME_CONFIG, locale: 'en', headerNavColor: '#7c2d12' });
    await act(async () => {
      renderApp('/admin/dashboard');
    });
    const header = await screen.findByRole('banner');
    await waitFor(() => expect(parseColor(header.style.background)).toEqual(parseColor('#7c2d12')));
  });

  it.each([
    ['ar', 'rtl', 'true'],
    ['en', 'ltr', null],
  ] as const)('mirrors the collapse icon in %s', async (locale, direction, mirrored) => {
    sdkStore.set(themeConfigAtom, { ...DEFAULT_THEME_CONFIG, locale, direction });
    await act(async () => {
      renderApp('/admin/dashboard');
    });
    const name = createI18n(locale).t('layout:nav.collapse');
    const button = await screen.findByRole('button', { name });
    const icon = button.querySelector('.anticon-menu-fold')?.parentElement;
    expect(icon?.getAttribute('data-mirrored') ?? null).toBe(mirrored);
    expect(icon?.style.transform).toBe(mirrored ? 'scaleX(-1)' : '');
  });
});
