import { OFFICE_TIME_ZONES } from '@mizan/contracts';

/** The office-wide settings of `/admin/settings/system/general` (GET then PUT). */
export interface GeneralSettings {
  id?: number;
  officeName: string;
  phone: string | null;
  email: string | null;
  address: string | null;
  defaultLanguage: 'ar' | 'en';
  defaultTheme: 'light' | 'dark';
  calendar: 'hijri' | 'gregorian';
  /** The office's IANA time zone: which calendar day "today" is (expiry, hearings). */
  timeZone: string;
  sessionLifetimeHours: number;
  passwordMinLength: number;
  passwordRequireDigits: boolean;
  passwordRequireSymbols: boolean;
  /** The version read (GET) and sent back on save, so a stale save is refused (409). */
  updatedAt?: string | null;
}

export const LANGUAGES = ['ar', 'en'] as const;
export const THEMES = ['light', 'dark'] as const;
export const CALENDARS = ['hijri', 'gregorian'] as const;

/**
 * The time zones the form offers (the office's region first), with the stored one when it is
 * another: the server accepts any IANA name.
 */
export function timeZoneChoices(current: string | null | undefined): string[] {
  const zones: string[] = [...OFFICE_TIME_ZONES];
  return current && !zones.includes(current) ? [current, ...zones] : zones;
}

/** Bounds the form enforces before the server does (the server checks them again). */
export const LIMITS = {
  officeName: { max: 150 },
  address: { max: 255 },
  email: { max: 150 },
  phone: { max: 20 },
  // A day's worth of minutes is too short to be useful; a month is the longest a token should live.
  sessionLifetimeHours: { min: 1, max: 720 },
  // Employee passwords are at least 8 characters in the contracts; policy may only tighten it.
  passwordMinLength: { min: 8, max: 64 },
} as const;

export const PHONE_PATTERN = /^\+?[0-9 ()-]{5,20}$/;

/**
 * The body of `PUT /general`: only the editable fields (the GET answer also carries images and
 * bookkeeping). Empty optional text goes as null, so "cleared" and "never set" look the same.
 */
export function toPayload(values: GeneralSettings): Omit<GeneralSettings, 'id'> {
  const blank = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);
  return {
    officeName: values.officeName.trim(),
    phone: blank(values.phone),
    email: blank(values.email),
    address: blank(values.address),
    defaultLanguage: values.defaultLanguage,
    defaultTheme: values.defaultTheme,
    calendar: values.calendar,
    timeZone: values.timeZone,
    sessionLifetimeHours: values.sessionLifetimeHours,
    passwordMinLength: values.passwordMinLength,
    passwordRequireDigits: values.passwordRequireDigits,
    passwordRequireSymbols: values.passwordRequireSymbols,
  };
}
