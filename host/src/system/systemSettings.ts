import {
  DEFAULT_TIME_ZONE,
  isTimeZone,
  STORAGE_KEYS,
  SYSTEM_SETTINGS_CHANNEL,
  UPLOAD_DEFAULTS,
  UPLOAD_LIMIT_BOUNDS,
} from '@mizan/contracts/light';
import { loadSystemSettings, secureStorage, wsClient, type SystemSettings } from '@mizan/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';

export const SYSTEM_SETTINGS_KEY = ['systemSettings'] as const;

/** Shown until the office's own settings arrive (and when they cannot be read). */
export const FALLBACK_SETTINGS: SystemSettings = {
  officeName: 'ميزان',
  logoUrl: null,
  faviconUrl: null,
  primaryColor: '#1d4ed8',
  defaultLanguage: 'ar',
  defaultTheme: 'light',
  // The server's default (Hijri first); it sends 'hijri' or 'gregorian'.
  calendar: 'hijri',
  timeZone: DEFAULT_TIME_ZONE,
  maxUploadMb: UPLOAD_DEFAULTS.maxUploadMb,
};

const CALENDARS = ['hijri', 'gregorian'];

const COLOR = /^#[0-9a-f]{6}$/i;

/** Keeps only values the UI can use safely (a colour antd accepts, http(s) or same-site URLs). */
export function sanitizeSettings(value: Partial<SystemSettings> | null | undefined): SystemSettings {
  const v = value ?? {};
  const url = (u: unknown) => (typeof u === 'string' && /^(https?:\/\/|\/)/.test(u) ? u : null);
  return {
    officeName:
      typeof v.officeName === 'string' && v.officeName.trim()
        ? v.officeName.trim()
        : FALLBACK_SETTINGS.officeName,
    logoUrl: url(v.logoUrl),
    faviconUrl: url(v.faviconUrl),
    primaryColor:
      typeof v.primaryColor === 'string' && COLOR.test(v.primaryColor)
        ? v.primaryColor
        : FALLBACK_SETTINGS.primaryColor,
    defaultLanguage: v.defaultLanguage === 'en' ? 'en' : 'ar',
    defaultTheme: v.defaultTheme === 'dark' ? 'dark' : 'light',
    calendar:
      typeof v.calendar === 'string' && CALENDARS.includes(v.calendar)
        ? v.calendar
        : FALLBACK_SETTINGS.calendar,
    timeZone:
      typeof v.timeZone === 'string' && isTimeZone(v.timeZone) ? v.timeZone : FALLBACK_SETTINGS.timeZone,
    maxUploadMb:
      Number.isInteger(v.maxUploadMb) &&
      v.maxUploadMb! >= UPLOAD_LIMIT_BOUNDS.min &&
      v.maxUploadMb! <= UPLOAD_LIMIT_BOUNDS.max
        ? v.maxUploadMb!
        : FALLBACK_SETTINGS.maxUploadMb,
  };
}

/** The SDK clears token and user when the load fails and falls back to the stored copy. */
async function fetchSystemSettings(): Promise<SystemSettings> {
  return sanitizeSettings(await loadSystemSettings());
}

/**
 * The office's public settings (`GET /api/auth/systemSettings`): name, logo, colours, defaults.
 * The last copy from encrypted storage shows at once; the server's answer replaces it.
 */
export function useSystemSettings(): SystemSettings {
  // One object per stored copy: consumers use it in effect dependencies.
  const stored = useMemo(() => {
    const copy = secureStorage.peek<SystemSettings>(STORAGE_KEYS.systemSettings);
    return copy ? sanitizeSettings(copy) : null;
  }, []);
  const query = useQuery({
    queryKey: SYSTEM_SETTINGS_KEY,
    queryFn: fetchSystemSettings,
    staleTime: 5 * 60_000,
    gcTime: Infinity,
    retry: false,
  });
  return query.data ?? stored ?? FALLBACK_SETTINGS;
}

/**
 * Refetches the settings when an administrator changes them (real-time channel): on the change's
 * event only, not on the hub's answer to each subscription. The socket subscribes again after
 * every reconnection, often while the API is still partly unreachable (a rolling restart), and a
 * failed load of the settings ends the session (the SDK's `loadSystemSettings`).
 */
export function useSystemSettingsChannel(enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return undefined;
    return wsClient.subscribe(SYSTEM_SETTINGS_CHANNEL, (message) => {
      if (message.type === 'event') void client.invalidateQueries({ queryKey: SYSTEM_SETTINGS_KEY });
    });
  }, [client, enabled]);
}

/** Title and favicon of the tab follow the office. */
export function useDocumentBranding(settings: SystemSettings): void {
  useEffect(() => {
    document.title = settings.officeName;
    if (!settings.faviconUrl) return;
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.appendChild(link);
    }
    link.href = settings.faviconUrl;
  }, [settings.officeName, settings.faviconUrl]);
}
