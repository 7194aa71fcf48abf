import type { Db } from '../db';

/** What `GET /api/auth/systemSettings` answers before sign-in (team brief). */
export interface PublicSettings {
  officeName: string;
  logoUrl: string | null;
  faviconUrl: string | null;
  primaryColor: string;
  defaultLanguage: 'ar' | 'en';
  defaultTheme: 'light' | 'dark';
  calendar: 'hijri' | 'gregorian';
}

/** Used until an administrator saves the system settings (seed §9: Arabic, Hijri calendar). */
export const DEFAULT_PUBLIC_SETTINGS: PublicSettings = {
  officeName: 'ميزان',
  logoUrl: null,
  faviconUrl: null,
  primaryColor: '#1d4ed8',
  defaultLanguage: 'ar',
  defaultTheme: 'light',
  calendar: 'hijri',
};

export type PublicSettingsSource = (db: Db) => Promise<PublicSettings>;

let source: PublicSettingsSource = async () => DEFAULT_PUBLIC_SETTINGS;

/**
 * The system module (S3) plugs in its reader of the `system_settings` table here.
 *
 * @example
 * setPublicSettingsSource(async (db) => ({ ...DEFAULT_PUBLIC_SETTINGS, ...(await readGeneral(db)) }));
 */
export function setPublicSettingsSource(next: PublicSettingsSource): void {
  source = next;
}

export async function getPublicSettings(db: Db): Promise<PublicSettings> {
  try {
    return { ...DEFAULT_PUBLIC_SETTINGS, ...(await source(db)) };
  } catch {
    // A broken settings row must not lock everyone out of the login page.
    return DEFAULT_PUBLIC_SETTINGS;
  }
}
