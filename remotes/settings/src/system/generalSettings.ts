import {
  COUNTRY_CODES,
  normalizeDigits,
  OFFICE_TIME_ZONES,
  SETTINGS_LIMITS,
  TIME_OF_DAY_PATTERN,
  PROCURATION_CHECK_MODES,
  CURRENCY_CODES,
  VAT_ROUNDINGS,
  type CountryCode,
  type CurrencyCode,
  type ProcurationCheckMode,
  type VatRounding,
} from '@mizan/contracts';

export { COUNTRY_CODES, CURRENCY_CODES, PROCURATION_CHECK_MODES, VAT_ROUNDINGS };

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
  /** When the day-before hearing reminder goes out, `HH:mm` on the office's clock. */
  reminderEveningTime: string;
  /** When the morning reminders go out, `HH:mm`. */
  reminderMorningTime: string;
  /** Days before a power of attorney's expiry its lawyers are reminded (the tags input may hold typed text). */
  procurationReminderDays: (number | string)[];
  /** Whose official holidays legal periods skip. */
  officeCountry: CountryCode;
  /** The weekly days off, 0 = Sunday … 6 = Saturday. */
  weekendDays: number[];
  /** Days before a deadline's due date its lawyers are reminded (like `procurationReminderDays`). */
  deadlineReminderDays: (number | string)[];
  /** A client without a power of attorney for litigation: the forms warn, or the write is refused. */
  procurationCheck: ProcurationCheckMode;
  /** When the daily backup is taken, `HH:mm` on the office's clock. */
  backupTime: string;
  /** How many scheduled backups are kept; 0 turns them off. */
  backupKeep: number;
  /** Reading files' text: pages per file, seconds per page, files read at once. */
  textMaxPages: number;
  textSecondsPerPage: number;
  textConcurrency: number;
  /** The largest file any upload may carry, in megabytes. */
  maxUploadMb: number;
  /** Invoicing: the currency (null: the country's), VAT number, VAT rate in basis points (null: the country's), VAT rounding. */
  currency?: CurrencyCode | null;
  vatNumber?: string | null;
  vatRate?: number | null;
  vatRounding?: VatRounding;
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
  procurationReminderDays: SETTINGS_LIMITS.procurationReminderDays,
  deadlineReminderDays: SETTINGS_LIMITS.deadlineReminderDays,
  backupKeep: SETTINGS_LIMITS.backupKeep,
  textMaxPages: SETTINGS_LIMITS.textMaxPages,
  textSecondsPerPage: SETTINGS_LIMITS.textSecondsPerPage,
  textConcurrency: SETTINGS_LIMITS.textConcurrency,
  maxUploadMb: SETTINGS_LIMITS.maxUploadMb,
  vatRate: SETTINGS_LIMITS.vatRate,
  vatNumber: { max: 20 },
} as const;

export const PHONE_PATTERN = /^\+?[0-9 ()-]{5,20}$/;
export { TIME_OF_DAY_PATTERN };

/** A typed time with Arabic-Indic digits read as ASCII (`١٨:٣٠` → `18:30`). */
export const normalizeTime = (value: unknown) =>
  typeof value === 'string' ? normalizeDigits(value.trim()) : value;

/** Typed tags read as numbers where they are digits (Arabic-Indic too); other text stays, for the check to name. */
export function normalizeDays(values: readonly (number | string)[] | undefined): (number | string)[] {
  return (values ?? []).map((v) => {
    const text = typeof v === 'string' ? normalizeDigits(v.trim()) : v;
    return typeof text === 'string' && /^\d+$/.test(text) ? Number(text) : text;
  });
}

/** The thresholds as numbers (typed tags are text, Arabic-Indic digits allowed), each once, largest first. */
export function reminderDays(values: readonly (number | string)[]): number[] {
  const days = values.map((v) => Number(typeof v === 'string' ? normalizeDigits(v.trim()) : v));
  return [...new Set(days)].sort((a, b) => b - a);
}

/** Whether the thresholds are whole numbers within the limits, at most `count` of them. */
export function validReminderDays(
  values: readonly (number | string)[],
  limits: { min: number; max: number; count: number } = SETTINGS_LIMITS.procurationReminderDays,
): boolean {
  const { min, max, count } = limits;
  const days = reminderDays(values);
  return days.length <= count && days.every((d) => Number.isInteger(d) && d >= min && d <= max);
}

/** What `PUT /general` is sent: the reminder days as numbers (the tags input may hold typed text). */
export type GeneralSettingsPayload = Omit<
  GeneralSettings,
  'id' | 'procurationReminderDays' | 'deadlineReminderDays'
> & {
  procurationReminderDays: number[];
  deadlineReminderDays: number[];
};

/**
 * The body of `PUT /general`: only the editable fields (the GET answer also carries images and
 * bookkeeping). Empty optional text goes as null, so "cleared" and "never set" look the same.
 */
export function toPayload(values: GeneralSettings): GeneralSettingsPayload {
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
    reminderEveningTime: values.reminderEveningTime,
    reminderMorningTime: values.reminderMorningTime,
    procurationReminderDays: reminderDays(values.procurationReminderDays ?? []),
    officeCountry: values.officeCountry,
    weekendDays: [...new Set(values.weekendDays ?? [])].sort((a, b) => a - b),
    deadlineReminderDays: reminderDays(values.deadlineReminderDays ?? []),
    procurationCheck: values.procurationCheck,
    backupTime: values.backupTime,
    backupKeep: values.backupKeep,
    textMaxPages: values.textMaxPages,
    textSecondsPerPage: values.textSecondsPerPage,
    textConcurrency: values.textConcurrency,
    maxUploadMb: values.maxUploadMb,
    currency: values.currency ?? null,
    vatNumber: blank(values.vatNumber),
    vatRate: values.vatRate ?? null,
    vatRounding: values.vatRounding ?? 'line',
  };
}
