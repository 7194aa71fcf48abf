import { z } from 'zod';
import { AREA_PERMISSIONS } from '../areaPermissions';
import { UPLOAD_LIMIT_BOUNDS } from '../constants';
import { answer, PUBLIC, route } from '../route';
import { LIGHT_AUTH_ROUTES } from '../lightRoutes';
import { COUNTRY_CODES, type CountryCode } from '../entities/deadlines';
import { VAT_ROUNDINGS, type VatRounding } from '../invoicing';
import { CURRENCIES, currencyOfCountry, type Currency, type CurrencyCode } from '../tafqit';
import { normalizeDigits } from '../text';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../timeZone';

export { DEFAULT_TIME_ZONE, isTimeZone };

/**
 * `/api/admin/settings/system/general` (and its appearance form) and the public
 * `/api/auth/systemSettings`: the request and answer shapes both sides use.
 */

/** Languages, themes and calendars the office may choose as defaults. */
export const LANGUAGES = ['ar', 'en'] as const;
export const THEMES = ['light', 'dark'] as const;
export const CALENDARS = ['hijri', 'gregorian'] as const;
export type Calendar = (typeof CALENDARS)[number];

/** Zones the settings screen offers first (any IANA name the runtime knows is accepted). */
export const OFFICE_TIME_ZONES = [
  'Africa/Cairo',
  'Asia/Riyadh',
  'Asia/Dubai',
  'Asia/Kuwait',
  'Asia/Qatar',
  'Asia/Bahrain',
  'Asia/Muscat',
  'Asia/Amman',
  'Asia/Beirut',
  'Asia/Damascus',
  'Asia/Baghdad',
  'Asia/Gaza',
  'Africa/Khartoum',
  'Africa/Tripoli',
  'Africa/Tunis',
  'Africa/Algiers',
  'Africa/Casablanca',
  'Europe/London',
  'UTC',
] as const;

/**
 * One formatter per time zone: making one costs about a tenth of a millisecond (a lawsuit's create
 * asks for the day once), using it a few microseconds.
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The calendar day of instant `now` in `timeZone`, `YYYY-MM-DD` (Intl does the zone's rules,
 * summer time included).
 *
 * @example dayInZone('Asia/Riyadh', new Date('2026-11-22T22:30:00Z')) // '2026-11-23'
 */
export function dayInZone(timeZone: string, now: Date = new Date()): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}

/** The system settings as `GET /api/admin/settings/system/general` answers them. */
export interface SystemSettings {
  id: 1;
  officeName: string;
  phone: string | null;
  email: string | null;
  address: string | null;
  defaultLanguage: (typeof LANGUAGES)[number];
  defaultTheme: (typeof THEMES)[number];
  /** Which calendar date fields show first. */
  calendar: Calendar;
  /** IANA time zone of the office (`Africa/Cairo`): which calendar day "today" is. */
  timeZone: string;
  sessionLifetimeHours: number;
  passwordMinLength: number;
  passwordRequireDigits: boolean;
  passwordRequireSymbols: boolean;
  /** When the day-before hearing reminder goes out, `HH:mm` on the office's clock. */
  reminderEveningTime: string;
  /** When the morning reminders go out (today's hearings, hearings left without a decision, expiring powers of attorney). */
  reminderMorningTime: string;
  /** How many days before its expiry a power of attorney is reminded of, once per number (`[30, 7]`). */
  procurationReminderDays: number[];
  /** The office's country: whose official holidays periods skip unless another is named. */
  officeCountry: CountryCode;
  /** The office's weekly days off, 0 = Sunday … 6 = Saturday (`[5, 6]`: Friday and Saturday). */
  weekendDays: number[];
  /** How many days before its due date an open deadline is reminded of, once per number (`[7, 3, 1]`). */
  deadlineReminderDays: number[];
  /**
   * What happens when a client of a new lawsuit, a hearing or a filing has no power of attorney
   * covering litigation on that day: `warn` (the form says so, the write goes through) or `refuse`
   * (422 on the field naming the client and why).
   */
  procurationCheck: ProcurationCheckMode;
  /** When the daily backup is taken, `HH:mm` on the office's clock. */
  backupTime: string;
  /** How many scheduled backups are kept (the oldest go first); 0: no scheduled backups. */
  backupKeep: number;
  /** Pages of one file whose text is read (a longer file is read up to there). */
  textMaxPages: number;
  /** Time limit of reading one page (a PDF page's text, rasterising it, its OCR), in seconds. */
  textSecondsPerPage: number;
  /** Files read at once, across every server instance (OCR takes a processor core each). */
  textConcurrency: number;
  /** The largest file any upload may carry, in megabytes (MiB): one limit for every kind of file. */
  maxUploadMb: number;
  /** The office's currency (`CURRENCIES`); null: that of `officeCountry` (`officeCurrency`). */
  currency: CurrencyCode | null;
  /** The office's VAT registration number, printed on invoices and in the Saudi QR code; null: none. */
  vatNumber: string | null;
  /** The VAT rate in basis points (1500 = 15 %); null: the country's standard rate (`officeVatRate`). */
  vatRate: number | null;
  /** Where invoice VAT is rounded to the minor unit: per line or once per invoice. */
  vatRounding: VatRounding;
  logoFileId: number | null;
  faviconFileId: number | null;
  /** Public URLs of the images (no sign-in needed: the login page shows them), null when unset. */
  logoUrl: string | null;
  faviconUrl: string | null;
  primaryColor: string;
  updatedAt: string | null;
  updatedBy: number | null;
}

/** The editable part (the body of `PUT /`). */
export type GeneralSettings = Pick<
  SystemSettings,
  | 'officeName'
  | 'phone'
  | 'email'
  | 'address'
  | 'defaultLanguage'
  | 'defaultTheme'
  | 'calendar'
  | 'timeZone'
  | 'sessionLifetimeHours'
  | 'passwordMinLength'
  | 'passwordRequireDigits'
  | 'passwordRequireSymbols'
  | 'reminderEveningTime'
  | 'reminderMorningTime'
  | 'procurationReminderDays'
  | 'officeCountry'
  | 'weekendDays'
  | 'deadlineReminderDays'
  | 'procurationCheck'
  | 'backupTime'
  | 'backupKeep'
  | 'textMaxPages'
  | 'textSecondsPerPage'
  | 'textConcurrency'
  | 'maxUploadMb'
  | 'currency'
  | 'vatNumber'
  | 'vatRate'
  | 'vatRounding'
>;

/** The settings every visitor may read (the login page): `PublicSystemSettings` and what the server picks. */
export const PUBLIC_SETTING_KEYS = [
  'officeName',
  'logoUrl',
  'faviconUrl',
  'primaryColor',
  'defaultLanguage',
  'defaultTheme',
  'calendar',
  'timeZone',
  'maxUploadMb',
] as const satisfies readonly (keyof SystemSettings)[];

/** Settings every visitor may read (the login page), as `GET /api/auth/systemSettings` answers. */
export type PublicSystemSettings = Pick<SystemSettings, (typeof PUBLIC_SETTING_KEYS)[number]>;

/**
 * Days off until an administrator sets others: Friday and Saturday, the weekend of the courts and
 * government of Saudi Arabia and of Egypt alike (0 = Sunday).
 */
export const WORKING_DAY_DEFAULTS = {
  officeCountry: 'EG' as CountryCode,
  weekendDays: [5, 6],
  deadlineReminderDays: [7, 3, 1],
} as const;

/** How a missing power of attorney is met: a warning in the form, or the write refused. */
export const PROCURATION_CHECK_MODES = ['warn', 'refuse'] as const;
export type ProcurationCheckMode = (typeof PROCURATION_CHECK_MODES)[number];
/** Until an administrator chooses: warn, so that no office finds its writes refused by an update. */
export const PROCURATION_CHECK_DEFAULT: ProcurationCheckMode = 'warn';

/** Bounds of the numeric settings. */
export const SETTINGS_LIMITS = {
  sessionLifetimeHours: { min: 1, max: 720 },
  passwordMinLength: { min: 8, max: 64 },
  /** Each "days before expiry" of `procurationReminderDays`, and how many there may be. */
  procurationReminderDays: { min: 1, max: 365, count: 5 },
  /** Each "days before due" of `deadlineReminderDays`, and how many there may be. */
  deadlineReminderDays: { min: 1, max: 90, count: 5 },
  /** At most six days off a week: one day at least is a working day. */
  weekendDays: { min: 0, max: 6, count: 6 },
  /** Scheduled backups kept: 0 turns them off; a quarter of daily copies at most. */
  backupKeep: { min: 0, max: 90 },
  textMaxPages: { min: 1, max: 2000 },
  textSecondsPerPage: { min: 5, max: 600 },
  textConcurrency: { min: 1, max: 8 },
  /** Megabytes of one uploaded file. */
  maxUploadMb: UPLOAD_LIMIT_BOUNDS,
  /** Basis points: 0 to 100 %. */
  vatRate: { min: 0, max: 10_000 },
} as const;

/** Invoicing settings until an administrator sets others: currency and VAT rate by the country. */
export const INVOICING_DEFAULTS = {
  currency: null,
  vatNumber: null,
  vatRate: null,
  vatRounding: 'line',
} as const;

/** The codes of `CURRENCIES`, for the currency setting. */
export const CURRENCY_CODES = Object.keys(CURRENCIES) as [CurrencyCode, ...CurrencyCode[]];

/** Standard VAT rates (basis points) by office country; 0 where none is known. */
const STANDARD_VAT: Partial<Record<string, number>> = { SA: 1500, EG: 1400, AE: 500, BH: 1000, OM: 500 };

/** The office's currency: the chosen one, else its country's (SAR for Saudi Arabia, EGP for Egypt). */
export function officeCurrency(settings: Pick<SystemSettings, 'currency' | 'officeCountry'>): Currency {
  return settings.currency ? CURRENCIES[settings.currency] : currencyOfCountry(settings.officeCountry);
}

/** The office's VAT rate in basis points: the chosen one, else its country's standard rate. */
export function officeVatRate(settings: Pick<SystemSettings, 'vatRate' | 'officeCountry'>): number {
  return settings.vatRate ?? STANDARD_VAT[settings.officeCountry] ?? 0;
}

/** A daily backup in the small hours, a week of them kept, until an administrator sets others. */
export const BACKUP_DEFAULTS = { backupTime: '02:00', backupKeep: 7 } as const;

/** Limits of reading files' text until an administrator sets others. */
export const FILE_TEXT_DEFAULTS = { textMaxPages: 300, textSecondsPerPage: 120, textConcurrency: 1 } as const;

/**
 * The largest file an upload may carry, in bytes: the office's limit (`maxUploadMb`), or a kind's
 * own bound when it has a smaller one for a reason of its own (a files field's `maxSize`). The
 * server checks it as the bytes arrive and the client before it sends.
 *
 * @example uploadLimitBytes(25) // 26214400
 */
export function uploadLimitBytes(maxUploadMb: number, ownBound?: number): number {
  const office = maxUploadMb * 1024 * 1024;
  return ownBound === undefined ? office : Math.min(office, ownBound);
}

/** A time of day on the 24-hour clock, `HH:mm` (`07:00`, `18:30`). */
export const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Reminder times and thresholds until an administrator sets others. */
export const REMINDER_DEFAULTS = {
  reminderEveningTime: '18:00',
  reminderMorningTime: '07:00',
  procurationReminderDays: [30, 7],
} as const;

const typeError = (kind: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? 'validation.required' : `validation.types.${kind}`;

const optionalText = (max: number) =>
  z
    .string({ error: typeError('string') })
    .trim()
    .max(max, { error: 'validation.string.max' })
    .nullable()
    .transform((v) => (v ? v : null));

const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, {
    error: (issue) => (issue.input === undefined ? 'validation.required' : 'validation.enum'),
  });

const bounded = (limits: { min: number; max: number }) =>
  z
    .int({ error: typeError('integer') })
    .min(limits.min, { error: 'validation.number.min' })
    .max(limits.max, { error: 'validation.number.max' });

const timeOfDay = z
  .string({ error: typeError('string') })
  .trim()
  .transform(normalizeDigits)
  .pipe(z.string().regex(TIME_OF_DAY_PATTERN, { error: 'validation.types.time' }));

/**
 * The body of `PUT /`. Every field may be left out (it keeps its stored value); a given field must
 * be valid. Messages are `validation.*` keys translated with the field's label.
 */
export const generalSettingsBody = z
  .object({
    officeName: z
      .string({ error: typeError('string') })
      .trim()
      .min(1, { error: 'validation.whitespace' })
      .max(150, { error: 'validation.string.max' }),
    phone: optionalText(20).refine((v) => v === null || /^\+?[0-9 ()-]{5,20}$/.test(v), {
      error: 'validation.pattern.mismatch',
    }),
    email: optionalText(150).refine((v) => v === null || z.email().safeParse(v).success, {
      error: 'validation.types.email',
    }),
    address: optionalText(255),
    defaultLanguage: choice(LANGUAGES),
    defaultTheme: choice(THEMES),
    calendar: choice(CALENDARS),
    timeZone: z
      .string({ error: typeError('string') })
      .trim()
      .refine(isTimeZone, { error: 'validation.types.timeZone' }),
    sessionLifetimeHours: bounded(SETTINGS_LIMITS.sessionLifetimeHours),
    passwordMinLength: bounded(SETTINGS_LIMITS.passwordMinLength),
    passwordRequireDigits: z.boolean({ error: typeError('boolean') }),
    passwordRequireSymbols: z.boolean({ error: typeError('boolean') }),
    reminderEveningTime: timeOfDay,
    reminderMorningTime: timeOfDay,
    // Each number once, largest first: the order reminders go out in.
    procurationReminderDays: z
      .array(bounded(SETTINGS_LIMITS.procurationReminderDays), { error: typeError('array') })
      .max(SETTINGS_LIMITS.procurationReminderDays.count, { error: 'validation.array.max' })
      .transform((days) => [...new Set(days)].sort((a, b) => b - a)),
    officeCountry: choice(COUNTRY_CODES),
    // Each day once, in week order.
    weekendDays: z
      .array(bounded(SETTINGS_LIMITS.weekendDays), { error: typeError('array') })
      .max(SETTINGS_LIMITS.weekendDays.count, { error: 'validation.array.max' })
      .transform((days) => [...new Set(days)].sort((a, b) => a - b)),
    deadlineReminderDays: z
      .array(bounded(SETTINGS_LIMITS.deadlineReminderDays), { error: typeError('array') })
      .max(SETTINGS_LIMITS.deadlineReminderDays.count, { error: 'validation.array.max' })
      .transform((days) => [...new Set(days)].sort((a, b) => b - a)),
    procurationCheck: choice(PROCURATION_CHECK_MODES),
    backupTime: timeOfDay,
    backupKeep: bounded(SETTINGS_LIMITS.backupKeep),
    textMaxPages: bounded(SETTINGS_LIMITS.textMaxPages),
    textSecondsPerPage: bounded(SETTINGS_LIMITS.textSecondsPerPage),
    textConcurrency: bounded(SETTINGS_LIMITS.textConcurrency),
    maxUploadMb: bounded(SETTINGS_LIMITS.maxUploadMb),
    currency: choice(CURRENCY_CODES).nullable(),
    vatNumber: optionalText(20)
      .transform((v) => (v === null ? null : normalizeDigits(v)))
      .refine((v) => v === null || /^[0-9A-Za-z-]{5,20}$/.test(v), { error: 'validation.pattern.mismatch' }),
    vatRate: bounded(SETTINGS_LIMITS.vatRate).nullable(),
    vatRounding: choice(VAT_ROUNDINGS),
    /**
     * The `updatedAt` the form was read at (null: read before the first save): a stale one is
     * refused with 409 `StaleWriteError`, as entity writes are. Left out: no check.
     */
    updatedAt: z.iso.datetime({ offset: true, error: 'validation.date.format' }).nullable(),
  })
  .partial()
  .strip();

export const primaryColorSchema = z
  .string({ error: typeError('string') })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, { error: 'validation.types.hex' })
  .transform((v) => v.toLowerCase());

/** Documentation of the settings routes' answer (the shape is `SystemSettings`). */
const systemSettingsDoc = z.looseObject({
  id: z.literal(1),
  officeName: z.string(),
  calendar: z.enum(CALENDARS),
});

/** The office's settings: read, update, reset (`:id` is always 1, one row), and the appearance form. */
export const SYSTEM_SETTINGS_ROUTES = {
  get: route({
    method: 'GET',
    path: '/admin/settings/system/general',
    permission: AREA_PERMISSIONS.systemSettingsView,
    summary: 'System settings',
    response: systemSettingsDoc,
    answer: answer<SystemSettings>(),
  }),
  update: route({
    method: 'PUT',
    path: '/admin/settings/system/general',
    permission: AREA_PERMISSIONS.systemSettingsUpdate,
    summary: 'Update the system settings (fields left out keep their value)',
    body: generalSettingsBody,
    response: systemSettingsDoc,
    answer: answer<SystemSettings>(),
  }),
  reset: route({
    method: 'DELETE',
    path: '/admin/settings/system/general/:id',
    permission: AREA_PERMISSIONS.systemSettingsUpdate,
    summary: 'Reset the system settings (appearance included) to their defaults',
    response: systemSettingsDoc,
    answer: answer<SystemSettings>(),
  }),
  appearance: route({
    method: 'PUT',
    path: '/admin/settings/system/general/appearances',
    permission: AREA_PERMISSIONS.systemSettingsUpdate,
    summary: 'Logo, favicon and primary colour (multipart/form-data)',
    multipart: {
      parts: {
        logo: 'file',
        favicon: 'file',
        primaryColor: 'string',
        removeLogo: 'string',
        removeFavicon: 'string',
      },
    },
    response: systemSettingsDoc,
    answer: answer<SystemSettings>(),
  }),
};

/** The images of the office's appearance form. */
export const SYSTEM_IMAGE_KINDS = ['logo', 'favicon'] as const;
export type SystemImageKind = (typeof SYSTEM_IMAGE_KINDS)[number];

const systemImage = <K extends SystemImageKind>(kind: K) =>
  route({
    method: 'GET',
    path: `${LIGHT_AUTH_ROUTES.systemSettings.path}/${kind}` as const,
    permission: PUBLIC,
    summary: `The office ${kind} (public)`,
  });

/**
 * The office's logo and favicon, public since the login page shows them: the image itself (no
 * `{ data }` envelope), or 404 when none is set. `logoUrl` and `faviconUrl` of the settings are
 * these paths with the file's id (`?v=`).
 */
export const SYSTEM_IMAGE_ROUTES = {
  logo: systemImage('logo'),
  favicon: systemImage('favicon'),
} satisfies Record<SystemImageKind, unknown>;
