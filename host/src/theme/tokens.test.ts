import { theme as antdTheme } from 'antd';
import { contrast, flatten, readableOn } from './contrast';
import { themeTokens, type ThemeMode } from './tokens';

const MODES: ThemeMode[] = ['light', 'dark'];
// The default office colour, a light brand colour and a dark one.
const PRIMARIES = ['#1d4ed8', '#fadb14', '#13c2c2', '#0b1f3a'];

function resolved(mode: ThemeMode, primary: string) {
  const config = themeTokens(mode, primary);
  const token = antdTheme.getDesignToken(config);
  const surfaces = [token.colorBgContainer, token.colorBgElevated, token.colorBgLayout];
  return { config, token, surfaces };
}

describe('contrast arithmetic', () => {
  it('matches the WCAG reference values', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    // antd's default description grey, the finding that started this: 3.36:1.
    expect(contrast('rgba(0, 0, 0, 0.45)', '#ffffff')).toBeLessThan(4.5);
    expect(flatten('rgba(0, 0, 0, 0.5)', '#ffffff')).toBe('#808080');
  });

  it('corrects a colour toward the readable side only when needed', () => {
    expect(readableOn('#1d4ed8', ['#ffffff'])).toBe('#1d4ed8');
    const onDark = readableOn('#1d4ed8', ['#141414']);
    expect(contrast(onDark, '#141414')).toBeGreaterThanOrEqual(4.5);
    expect(readableOn('#fadb14', ['#ffffff'])).not.toBe('#fadb14');
  });
});

describe.each(MODES)('%s theme tokens', (mode) => {
  it.each(PRIMARIES)('keep AA text contrast on every surface with primary %s', (primary) => {
    const { config, token, surfaces } = resolved(mode, primary);
    const texts = {
      text: token.colorText,
      secondary: token.colorTextSecondary,
      tertiary: token.colorTextTertiary,
      description: token.colorTextDescription,
      placeholder: token.colorTextPlaceholder,
      error: token.colorError,
      link: token.colorLink,
      primaryText: token.colorPrimaryText,
    };
    for (const [name, color] of Object.entries(texts)) {
      for (const bg of surfaces) {
        expect({ name, bg, ratio: contrast(color, bg) >= 4.5 }).toEqual({ name, bg, ratio: true });
      }
    }
    // Selected menu items and tabs: primary text on the selection background.
    const menu = config.components?.Menu?.itemSelectedColor ?? '';
    const selected = flatten(token.controlItemBgActive, token.colorBgContainer);
    expect(contrast(menu, selected)).toBeGreaterThanOrEqual(4.5);
    expect(config.components?.Tabs?.itemSelectedColor).toBe(menu);
    // Solid danger buttons: their text on the error colour.
    const danger = config.components?.Button?.dangerColor ?? '';
    expect(contrast(danger, token.colorError)).toBeGreaterThanOrEqual(4.5);
  });
});

it('keeps the office colour itself for buttons in the light theme', () => {
  expect(antdTheme.getDesignToken(themeTokens('light', '#1d4ed8')).colorPrimary).toBe('#1d4ed8');
});

it.each(MODES)('writes every preset tag colour readably on its own fill (%s)', (mode) => {
  const config = themeTokens(mode, '#1d4ed8');
  const token = antdTheme.getDesignToken(config) as unknown as Record<string, string>;
  const tag = (config.components?.Tag ?? {}) as Record<string, string>;
  for (const color of ['green', 'gold', 'red', 'orange', 'blue', 'volcano']) {
    const fill = flatten(token[`${color}1`]!, token.colorBgContainer!);
    expect({ color, readable: contrast(tag[`${color}7`]!, fill) >= 4.5 }).toEqual({ color, readable: true });
  }
});
