import { theme as antdTheme, type ThemeConfig } from 'antd';
import { AA_TEXT, contrast, flatten, readableOn, toHex, parseColor } from './contrast';
import { FONT_FAMILY } from './fonts';

export type ThemeMode = 'light' | 'dark';

/**
 * Neutral text a little darker (light) or brighter (dark) than antd's defaults: antd's secondary,
 * description and placeholder greys fall below WCAG AA (4.5:1) on its own backgrounds. Disabled
 * text keeps antd's value (WCAG exempts it).
 */
const NEUTRAL: Record<ThemeMode, ThemeConfig['token']> = {
  light: {
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    colorTextDescription: 'rgba(0, 0, 0, 0.6)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
  },
  dark: {
    colorTextTertiary: 'rgba(255, 255, 255, 0.6)',
    colorTextDescription: 'rgba(255, 255, 255, 0.6)',
    colorTextPlaceholder: 'rgba(255, 255, 255, 0.5)',
  },
};

/** Error red that reads as text on the theme's surfaces (antd's #ff4d4f is 3.3:1 on white). */
const ERROR: Record<ThemeMode, string> = { light: '#d32029', dark: '#f06a6a' };

const algorithmOf = (mode: ThemeMode) =>
  mode === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm;

function derive(mode: ThemeMode, token: ThemeConfig['token']) {
  return antdTheme.getDesignToken({ algorithm: algorithmOf(mode), token });
}

/** Mixes `color` toward white (k > 0) or black (k < 0) by |k|. */
function shade(color: string, k: number): string {
  const c = parseColor(color);
  if (!c) return color;
  const target = k > 0 ? 255 : 0;
  const a = Math.abs(k);
  return toHex({
    r: c.r + (target - c.r) * a,
    g: c.g + (target - c.g) * a,
    b: c.b + (target - c.b) * a,
    a: 1,
  });
}

/**
 * The seed to give antd for a colour token whose final value the algorithm derives (the dark
 * algorithm darkens seeds): the first shade of `seed` whose derived value reads on `surfaces`.
 */
function readableSeed(
  mode: ThemeMode,
  base: ThemeConfig['token'],
  key: 'colorError' | 'colorLink',
  seed: string,
  surfaces: string[],
): string {
  const direction = mode === 'dark' ? 1 : -1;
  for (let step = 0; step <= 10; step++) {
    const candidate = step === 0 ? seed : shade(seed, (direction * step) / 10);
    const derived = derive(mode, { ...base, [key]: candidate })[key];
    if (surfaces.every((bg) => contrast(derived, bg) >= AA_TEXT)) return candidate;
  }
  return mode === 'dark' ? '#ffffff' : '#000000';
}

/** antd's preset colours (`<Tag color="green">`, status tags, calendar legends). */
const PRESET_COLORS = [
  'blue',
  'purple',
  'cyan',
  'green',
  'magenta',
  'pink',
  'red',
  'orange',
  'yellow',
  'volcano',
  'geekblue',
  'gold',
  'lime',
] as const;

/**
 * Text shades of the preset colours that read on their own light fill: antd writes a preset tag's
 * text in shade 7 on shade 1 (green 3.4:1, gold 2.9:1 on white-ish fills). Each colour gets the
 * first of its darker (light theme) or brighter (dark theme) shades from 7 on that reaches AA.
 */
function presetTextShades(mode: ThemeMode, final: ReturnType<typeof derive>): Record<string, string> {
  const shades: Record<string, string> = {};
  const palette = final as unknown as Record<string, string>;
  for (const color of PRESET_COLORS) {
    const fill = flatten(palette[`${color}1`] ?? final.colorBgContainer, final.colorBgContainer);
    const order = mode === 'dark' ? [7, 6, 5, 4, 3] : [7, 8, 9, 10];
    const readable = order.map((i) => palette[`${color}${i}`]).find((c) => c && contrast(c, fill) >= AA_TEXT);
    shades[`${color}7`] = readable ?? (mode === 'dark' ? '#ffffff' : '#000000');
  }
  // Status tags (`processing`, `success`, ...) write their text in the status colour on its light
  // fill (info blue on its own fill is 4.2:1): within tags, the status colour is its text shade.
  for (const status of ['Info', 'Success', 'Warning', 'Error']) {
    const fill = flatten(palette[`color${status}Bg`] ?? final.colorBgContainer, final.colorBgContainer);
    const candidates = [`color${status}`, `color${status}Text`, `color${status}TextActive`];
    const readable = candidates.map((k) => palette[k]).find((c) => c && contrast(c, fill) >= AA_TEXT);
    shades[`color${status}`] = readable ?? (mode === 'dark' ? '#ffffff' : '#000000');
  }
  return shades;
}

/**
 * antd theme of one mode with WCAG AA text contrast on every surface: neutral text,
 * errors and danger buttons, links, and text drawn in the office's primary colour (menu and tab
 * selection, pagination). The primary colour is the office's own choice, so its text uses are
 * corrected to a readable shade of it; buttons keep the colour itself.
 */
export function themeTokens(mode: ThemeMode, primaryColor: string): ThemeConfig {
  const base: ThemeConfig['token'] = {
    colorPrimary: primaryColor,
    fontFamily: FONT_FAMILY,
    ...NEUTRAL[mode],
  };
  const probe = derive(mode, base);
  const surfaces = [probe.colorBgContainer, probe.colorBgElevated, probe.colorBgLayout];
  const colorError = readableSeed(mode, base, 'colorError', ERROR[mode], surfaces);
  const selectedBackgrounds = [...surfaces, probe.controlItemBgActive, probe.colorPrimaryBg].map((bg) =>
    flatten(bg, probe.colorBgContainer),
  );
  const primaryText = readableOn(probe.colorPrimary, selectedBackgrounds);
  const colorLink = readableSeed(mode, base, 'colorLink', primaryText, surfaces);
  const final = derive(mode, { ...base, colorError, colorLink });
  // The dark theme's readable red is too light for white text: solid danger buttons then use dark text.
  const dangerColor = contrast('#ffffff', final.colorError) >= AA_TEXT ? '#ffffff' : probe.colorBgContainer;
  return {
    algorithm: algorithmOf(mode),
    token: {
      ...base,
      colorError,
      colorLink,
      colorPrimaryText: primaryText,
      colorPrimaryTextHover: primaryText,
      colorPrimaryTextActive: primaryText,
    },
    components: {
      Menu: {
        itemSelectedColor: primaryText,
        subMenuItemSelectedColor: primaryText,
        horizontalItemSelectedColor: primaryText,
        horizontalItemHoverColor: primaryText,
      },
      Tabs: { itemSelectedColor: primaryText, itemHoverColor: primaryText, itemActiveColor: primaryText },
      Pagination: { itemActiveColor: primaryText, itemActiveColorHover: primaryText },
      Button: { dangerColor },
      Tag: presetTextShades(mode, final),
    },
  };
}
