import { renderHook } from '@testing-library/react';
import { ConfigProvider, theme } from 'antd';
import type { ReactNode } from 'react';
import { ALL_PERMISSIONS, SEEDED_ROLES } from '@mizan/contracts';
import type { AuthUser } from '@mizan/sdk';
import { useCalendarTheme } from './theme';
import { defaultsToMyHearings } from './useCalendarState';

/** A user holding exactly what a seeded role grants. */
const holding = (role: string) =>
  ({
    id: 3,
    permissions: ALL_PERMISSIONS.map((p) => p.key).filter(
      SEEDED_ROLES.find((r) => r.key === role)!.permissions,
    ),
  }) as unknown as AuthUser;

describe('"my hearings" by default', () => {
  it('is on for a lawyer and off for the administrator and the secretary', () => {
    expect(defaultsToMyHearings(holding('lawyer'))).toBe(true);
    expect(defaultsToMyHearings(holding('administrator'))).toBe(false);
    expect(defaultsToMyHearings(holding('secretary'))).toBe(false);
    expect(defaultsToMyHearings(null)).toBe(false);
  });
});

describe('calendar colours', () => {
  const inTheme = (algorithm: typeof theme.darkAlgorithm) =>
    renderHook(() => useCalendarTheme(), {
      wrapper: ({ children }: { children: ReactNode }) => (
        <ConfigProvider theme={{ algorithm }}>{children}</ConfigProvider>
      ),
    }).result.current;

  it("follow the page's antd theme, light or dark", () => {
    for (const algorithm of [theme.defaultAlgorithm, theme.darkAlgorithm]) {
      const token = theme.getDesignToken({ algorithm });
      const { palette, style } = inTheme(algorithm);
      expect(style).toMatchObject({
        '--fc-page-bg-color': token.colorBgContainer,
        '--fc-border-color': token.colorBorderSecondary,
        color: token.colorText,
      });
      expect(palette.primary.background).toBe(token.colorPrimary);
      expect(palette.danger.background).toBe(token.colorError);
      expect(palette.muted.text).toBe(token.colorTextSecondary);
    }
    expect(inTheme(theme.darkAlgorithm).style).not.toEqual(inTheme(theme.defaultAlgorithm).style);
  });

  it("draw a postponed hearing's edge and legend dot at 3:1 against the page, light and dark", () => {
    // WCAG's relative luminance of an 8-bit channel triple, and the ratio of two luminances.
    const rgb = (css: string) => {
      const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)|#(\w{2})(\w{2})(\w{2})/.exec(
        css,
      )!;
      return m[5]
        ? { c: [m[5], m[6], m[7]].map((h) => parseInt(h!, 16)), a: 1 }
        : { c: [m[1], m[2], m[3]].map(Number), a: m[4] === undefined ? 1 : Number(m[4]) };
    };
    const luminance = (c: number[]) =>
      c
        .map((v) => v / 255)
        .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
        .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
    for (const algorithm of [theme.defaultAlgorithm, theme.darkAlgorithm]) {
      const page = rgb(theme.getDesignToken({ algorithm }).colorBgContainer).c;
      const edge = rgb(inTheme(algorithm).palette.muted.border);
      const seen = edge.c.map((v, i) => v * edge.a + page[i]! * (1 - edge.a));
      const [hi, lo] = [luminance(seen), luminance(page)].sort((a, b) => b - a);
      expect((hi! + 0.05) / (lo! + 0.05)).toBeGreaterThanOrEqual(3);
    }
  });
});
