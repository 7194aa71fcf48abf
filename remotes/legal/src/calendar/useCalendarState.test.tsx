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
});
