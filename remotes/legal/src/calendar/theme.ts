import { theme } from 'antd';
import { useMemo, type CSSProperties } from 'react';
import type { HearingPalette } from './hearings';

/**
 * The calendar in the page's antd theme, light or dark: the hearing colours by meaning and
 * FullCalendar's CSS variables (borders, backgrounds, today, list hover) from the same tokens.
 */
export function useCalendarTheme(): { palette: HearingPalette; style: CSSProperties } {
  const { token } = theme.useToken();
  return useMemo(() => {
    const palette: HearingPalette = {
      primary: {
        background: token.colorPrimary,
        border: token.colorPrimary,
        text: token.colorTextLightSolid,
      },
      danger: { background: token.colorError, border: token.colorError, text: token.colorTextLightSolid },
      muted: {
        background: token.colorFillSecondary,
        // A postponed hearing's edge and its legend dot stand out from the page in both themes
        // (3:1 for a shape; the dark theme's border colour is too close to its background).
        border: token.colorTextTertiary,
        text: token.colorTextSecondary,
      },
    };
    const style = {
      '--fc-border-color': token.colorBorderSecondary,
      '--fc-page-bg-color': token.colorBgContainer,
      '--fc-neutral-bg-color': token.colorFillQuaternary,
      '--fc-neutral-text-color': token.colorTextSecondary,
      '--fc-list-event-hover-bg-color': token.controlItemBgHover,
      '--fc-today-bg-color': token.controlItemBgActive,
      '--fc-highlight-color': token.controlItemBgActiveHover,
      '--fc-now-indicator-color': token.colorError,
      '--fc-event-bg-color': token.colorPrimary,
      '--fc-event-border-color': token.colorPrimary,
      '--fc-event-text-color': token.colorTextLightSolid,
      '--fc-small-font-size': `${token.fontSizeSM}px`,
      // Ours (calendar.css): the Hijri days and the days of the months around, readable (AA).
      '--mizan-secondary-text': token.colorTextSecondary,
      '--mizan-other-day-bg': token.colorFillTertiary,
      color: token.colorText,
      fontFamily: token.fontFamily,
    } as CSSProperties;
    return { palette, style };
  }, [token]);
}
