import {
  BACKUP_DEFAULTS,
  COUNTRY_CODES,
  DEFAULT_TIME_ZONE,
  FILE_TEXT_DEFAULTS,
  CURRENCY_CODES,
  VAT_ROUNDINGS,
  PROCURATION_CHECK_DEFAULT,
  PROCURATION_CHECK_MODES,
  REMINDER_DEFAULTS,
  UPLOAD_DEFAULTS,
  WORKING_DAY_DEFAULTS,
} from '@mizan/contracts';
import { toBoolean, type Db } from '../db';
import { versionsBefore } from '../db/counts';
import type { Trx } from '../engine/context';
import {
  defaultSettings,
  PUBLIC_IMAGE_PATHS,
  toPublic,
  type GeneralSettings,
  type PublicSystemSettings,
  type SecurityPolicy,
  type SystemSettings,
} from './model';

type Executor = Db | Trx;

/** The `system_settings` row (snake_case). */
interface SettingsRow {
  id: number;
  office_name: string;
  phone: string | null;
  email: string | null;
  address: string | null;
  default_language: string;
  default_theme: string;
  calendar: string;
  time_zone: string;
  session_lifetime_hours: number;
  password_min_length: number;
  password_require_digits: boolean | number;
  password_require_symbols: boolean | number;
  reminder_evening_time: string;
  reminder_morning_time: string;
  /** A JSON list of numbers (`[30,7]`). */
  procuration_reminder_days: string;
  office_country: string;
  /** JSON lists of numbers, like `procuration_reminder_days`. */
  weekend_days: string;
  deadline_reminder_days: string;
  procuration_check: string;
  backup_time: string;
  backup_keep: number;
  /** Added by the file text module's migration (`filetext_002_limits`). */
  text_max_pages?: number | null;
  text_seconds_per_page?: number | null;
  text_concurrency?: number | null;
  /** Added by `system_007_upload_limit`. */
  max_upload_mb?: number | null;
  /** Added by the finance module's migration (`finance_003_invoices`). */
  currency?: string | null;
  vat_number?: string | null;
  vat_rate?: number | null;
  vat_rounding?: string | null;
  logo_file_id: number | null;
  favicon_file_id: number | null;
  primary_color: string;
  updated_by: number | null;
  updated_at: string | Date;
}

const SETTINGS_ID = 1;

/** The image URL carries the file id, so a new logo is never served from a stale browser cache. */
const imageUrl = (path: string, fileId: number | null) => (fileId === null ? null : `${path}?v=${fileId}`);

/** A stored list of numbers (`min` and above); `fallback` when the column holds something else. */
function parseDays(stored: string, fallback: readonly number[], min = 1): number[] {
  try {
    const days: unknown = JSON.parse(stored);
    if (Array.isArray(days) && days.every((d) => Number.isInteger(d) && d >= min)) return days as number[];
  } catch {
    // Falls through to the defaults.
  }
  return [...fallback];
}

const oneOf = <T extends string>(values: readonly T[], stored: string, fallback: T): T =>
  (values as readonly string[]).includes(stored) ? (stored as T) : fallback;

function fromRow(row: SettingsRow): SystemSettings {
  const logoFileId = row.logo_file_id === null ? null : Number(row.logo_file_id);
  const faviconFileId = row.favicon_file_id === null ? null : Number(row.favicon_file_id);
  return {
    id: SETTINGS_ID,
    officeName: row.office_name,
    phone: row.phone,
    email: row.email,
    address: row.address,
    defaultLanguage: row.default_language as SystemSettings['defaultLanguage'],
    defaultTheme: row.default_theme as SystemSettings['defaultTheme'],
    calendar: row.calendar as SystemSettings['calendar'],
    timeZone: row.time_zone,
    sessionLifetimeHours: Number(row.session_lifetime_hours),
    passwordMinLength: Number(row.password_min_length),
    passwordRequireDigits: toBoolean(row.password_require_digits),
    passwordRequireSymbols: toBoolean(row.password_require_symbols),
    reminderEveningTime: row.reminder_evening_time,
    reminderMorningTime: row.reminder_morning_time,
    procurationReminderDays: parseDays(
      row.procuration_reminder_days,
      REMINDER_DEFAULTS.procurationReminderDays,
    ),
    officeCountry: oneOf(COUNTRY_CODES, row.office_country, WORKING_DAY_DEFAULTS.officeCountry),
    weekendDays: parseDays(row.weekend_days, WORKING_DAY_DEFAULTS.weekendDays, 0),
    deadlineReminderDays: parseDays(row.deadline_reminder_days, WORKING_DAY_DEFAULTS.deadlineReminderDays),
    procurationCheck: oneOf(PROCURATION_CHECK_MODES, row.procuration_check, PROCURATION_CHECK_DEFAULT),
    backupTime: row.backup_time ?? BACKUP_DEFAULTS.backupTime,
    backupKeep:
      row.backup_keep === undefined || row.backup_keep === null
        ? BACKUP_DEFAULTS.backupKeep
        : Number(row.backup_keep),
    textMaxPages: Number(row.text_max_pages ?? FILE_TEXT_DEFAULTS.textMaxPages),
    textSecondsPerPage: Number(row.text_seconds_per_page ?? FILE_TEXT_DEFAULTS.textSecondsPerPage),
    textConcurrency: Number(row.text_concurrency ?? FILE_TEXT_DEFAULTS.textConcurrency),
    maxUploadMb: Number(row.max_upload_mb ?? UPLOAD_DEFAULTS.maxUploadMb),
    currency: row.currency ? oneOf(CURRENCY_CODES, row.currency, CURRENCY_CODES[0]) : null,
    vatNumber: row.vat_number ?? null,
    vatRate: row.vat_rate === null || row.vat_rate === undefined ? null : Number(row.vat_rate),
    vatRounding: oneOf(VAT_ROUNDINGS, row.vat_rounding ?? '', 'line'),
    logoFileId,
    faviconFileId,
    logoUrl: imageUrl(PUBLIC_IMAGE_PATHS.logo, logoFileId),
    faviconUrl: imageUrl(PUBLIC_IMAGE_PATHS.favicon, faviconFileId),
    primaryColor: row.primary_color,
    updatedAt: row.updated_at instanceof Date ? row.updated_at.toISOString() : String(row.updated_at),
    updatedBy: row.updated_by === null ? null : Number(row.updated_by),
  };
}

/** Now, or 1 ms after the previous save when the clock has not moved on: two saves, two versions. */
function nextStamp(previous: string | null): string {
  const now = Date.now();
  const last = previous === null ? Number.NaN : Date.parse(previous);
  return new Date(Number.isFinite(last) && now <= last ? last + 1 : now).toISOString();
}

function toRow(settings: SystemSettings, employeeId: number | null): SettingsRow {
  return {
    id: SETTINGS_ID,
    office_name: settings.officeName,
    phone: settings.phone,
    email: settings.email,
    address: settings.address,
    default_language: settings.defaultLanguage,
    default_theme: settings.defaultTheme,
    calendar: settings.calendar,
    time_zone: settings.timeZone,
    session_lifetime_hours: settings.sessionLifetimeHours,
    password_min_length: settings.passwordMinLength,
    password_require_digits: settings.passwordRequireDigits,
    password_require_symbols: settings.passwordRequireSymbols,
    reminder_evening_time: settings.reminderEveningTime,
    reminder_morning_time: settings.reminderMorningTime,
    procuration_reminder_days: JSON.stringify(settings.procurationReminderDays),
    office_country: settings.officeCountry,
    weekend_days: JSON.stringify(settings.weekendDays),
    deadline_reminder_days: JSON.stringify(settings.deadlineReminderDays),
    procuration_check: settings.procurationCheck,
    backup_time: settings.backupTime,
    backup_keep: settings.backupKeep,
    text_max_pages: settings.textMaxPages,
    text_seconds_per_page: settings.textSecondsPerPage,
    text_concurrency: settings.textConcurrency,
    max_upload_mb: settings.maxUploadMb,
    currency: settings.currency,
    vat_number: settings.vatNumber,
    vat_rate: settings.vatRate,
    vat_rounding: settings.vatRounding,
    logo_file_id: settings.logoFileId,
    favicon_file_id: settings.faviconFileId,
    primary_color: settings.primaryColor,
    updated_by: employeeId,
    updated_at: nextStamp(settings.updatedAt),
  };
}

/**
 * The settings row's write version in `entity_counts`, raised by a trigger on every write of the
 * row (system migrations) and read with every request's session.
 */
export const SETTINGS_VERSION = 'system_settings';

/**
 * The settings a transaction read, kept for its other reads: a write's hooks ask for them more than
 * once (the power-of-attorney check, the office's day, a file number's year), and within one
 * transaction only `writeSettings` changes them.
 */
const readInTransaction = new WeakMap<Executor, Promise<SystemSettings>>();

/**
 * Per database: the settings as read at their write version. A transaction begun after its
 * request read the version takes them from here instead of reading the row (most writes read
 * them; they change a few times a year).
 */
const keptSettings = new WeakMap<object, { version: string; read: Promise<SystemSettings> }>();

/**
 * The stored settings, or the defaults while none were saved: read once per transaction, and
 * within a write taken from those kept at the version its request read (see `keptSettings`).
 * Shared between requests: never change the object answered (copy it).
 */
export function readSettings(db: Executor): Promise<SystemSettings> {
  if (!db.isTransaction) return readSettingsRow(db);
  return readOnce(db, () => keptOrRead(db));
}

/**
 * The settings row itself, for a transaction about to change it: read in the transaction, never
 * taken from those kept, and what the transaction's other reads get.
 */
export function readSettingsToChange(trx: Executor): Promise<SystemSettings> {
  if (!trx.isTransaction) return readSettingsRow(trx);
  readInTransaction.delete(trx);
  return readOnce(trx, () => readSettingsRow(trx));
}

function readOnce(trx: Executor, read: () => Promise<SystemSettings>): Promise<SystemSettings> {
  let settings = readInTransaction.get(trx);
  if (!settings) {
    settings = read();
    readInTransaction.set(trx, settings);
    settings.catch(() => readInTransaction.delete(trx));
  }
  return settings;
}

function keptOrRead(trx: Executor): Promise<SystemSettings> {
  const before = versionsBefore(trx);
  const version = before?.versions.get(SETTINGS_VERSION)?.version;
  if (!before || version === undefined) return readSettingsRow(trx);
  const kept = keptSettings.get(before.db);
  if (kept?.version === version) return kept.read;
  // Read after the version was: what it holds is that version's or newer, never older.
  const read = readSettingsRow(trx).then((settings) => deepFreeze(settings));
  keptSettings.set(before.db, { version, read });
  read.catch(() => {
    if (keptSettings.get(before.db)?.read === read) keptSettings.delete(before.db);
  });
  return read;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

async function readSettingsRow(db: Executor): Promise<SystemSettings> {
  const row = (await db
    .selectFrom('system_settings')
    .selectAll()
    .where('id', '=', SETTINGS_ID)
    .executeTakeFirst()) as SettingsRow | undefined;
  return row ? fromRow(row) : defaultSettings();
}

/**
 * What `GET /api/auth/systemSettings` answers before sign-in. A row that cannot be read falls back
 * to the defaults: a broken settings row must not lock everyone out of the login page.
 */
export async function getPublicSettings(db: Executor): Promise<PublicSystemSettings> {
  try {
    return toPublic(await readSettings(db));
  } catch {
    return toPublic(defaultSettings());
  }
}

/** Writes the whole row (insert on first save) and returns it as read back. */
export async function writeSettings(
  trx: Executor,
  settings: SystemSettings,
  employeeId: number | null,
): Promise<SystemSettings> {
  const row = toRow(settings, employeeId);
  const { id, ...values } = row;
  const updated = await trx
    .updateTable('system_settings')
    .set(values)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) await trx.insertInto('system_settings').values(row).execute();
  return readSettingsToChange(trx);
}

/** The editable fields of `settings`, as audit entries record them. */
export function generalOf(
  settings: SystemSettings,
): GeneralSettings & { primaryColor: string; logoFileId: number | null; faviconFileId: number | null } {
  return {
    officeName: settings.officeName,
    phone: settings.phone,
    email: settings.email,
    address: settings.address,
    defaultLanguage: settings.defaultLanguage,
    defaultTheme: settings.defaultTheme,
    calendar: settings.calendar,
    timeZone: settings.timeZone,
    sessionLifetimeHours: settings.sessionLifetimeHours,
    passwordMinLength: settings.passwordMinLength,
    passwordRequireDigits: settings.passwordRequireDigits,
    passwordRequireSymbols: settings.passwordRequireSymbols,
    reminderEveningTime: settings.reminderEveningTime,
    reminderMorningTime: settings.reminderMorningTime,
    procurationReminderDays: settings.procurationReminderDays,
    officeCountry: settings.officeCountry,
    weekendDays: settings.weekendDays,
    deadlineReminderDays: settings.deadlineReminderDays,
    procurationCheck: settings.procurationCheck,
    backupTime: settings.backupTime,
    backupKeep: settings.backupKeep,
    textMaxPages: settings.textMaxPages,
    textSecondsPerPage: settings.textSecondsPerPage,
    textConcurrency: settings.textConcurrency,
    maxUploadMb: settings.maxUploadMb,
    currency: settings.currency,
    vatNumber: settings.vatNumber,
    vatRate: settings.vatRate,
    vatRounding: settings.vatRounding,
    primaryColor: settings.primaryColor,
    logoFileId: settings.logoFileId,
    faviconFileId: settings.faviconFileId,
  };
}

/**
 * The office's time zone (IANA), which calendar day "today" is for list filters and hooks; the
 * default when the settings cannot be read (no row yet, or a database without the table).
 */
export async function readTimeZone(db: Executor): Promise<string> {
  try {
    if (db.isTransaction) return (await readSettings(db)).timeZone || DEFAULT_TIME_ZONE;
    const row = await db
      .selectFrom('system_settings')
      .select('time_zone')
      .where('id', '=', SETTINGS_ID)
      .executeTakeFirst();
    return row?.time_zone ? String(row.time_zone) : DEFAULT_TIME_ZONE;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

/**
 * The office's upload limit in megabytes (`maxUploadMb`), read on every upload so that a change
 * applies at once on every instance (one column of the one row, by its key: cheaper than a file's
 * first chunk). The default when the settings cannot be read (no row yet, no table).
 */
export async function readUploadLimitMb(db: Executor): Promise<number> {
  try {
    const row = await db
      .selectFrom('system_settings')
      .select('max_upload_mb')
      .where('id', '=', SETTINGS_ID)
      .executeTakeFirst();
    const mb = Number(row?.max_upload_mb);
    return Number.isInteger(mb) && mb > 0 ? mb : UPLOAD_DEFAULTS.maxUploadMb;
  } catch {
    return UPLOAD_DEFAULTS.maxUploadMb;
  }
}

/**
 * Session lifetime and password rules for the auth module: sessions expire after
 * `sessionLifetimeHours` idle; new passwords need `passwordMinLength` characters, and a digit or
 * a symbol when required.
 *
 * @example
 * const { passwordMinLength } = await getSecurityPolicy(app.db);
 */
export async function getSecurityPolicy(db: Db): Promise<SecurityPolicy> {
  const { sessionLifetimeHours, passwordMinLength, passwordRequireDigits, passwordRequireSymbols } =
    await readSettings(db);
  return { sessionLifetimeHours, passwordMinLength, passwordRequireDigits, passwordRequireSymbols };
}
