import {
  API_BASE,
  BACKUP_DEFAULTS,
  DEFAULT_TIME_ZONE,
  FILE_TEXT_DEFAULTS,
  INVOICING_DEFAULTS,
  PROCURATION_CHECK_DEFAULT,
  PUBLIC_SETTING_KEYS,
  REMINDER_DEFAULTS,
  WORKING_DAY_DEFAULTS,
  SETTINGS_LIMITS as LIMITS,
  SYSTEM_IMAGE_ROUTES,
  UPLOAD_DEFAULTS,
  type PublicSystemSettings,
  type SystemSettings,
} from '@mizan/contracts';

// The shapes and the body schema live in the contracts (`api/system.ts`), shared with the client.
export {
  CALENDARS,
  LANGUAGES,
  THEMES,
  SETTINGS_LIMITS as LIMITS,
  generalSettingsBody as generalSchema,
  primaryColorSchema,
  type GeneralSettings,
  type PublicSystemSettings,
  type SystemSettings,
} from '@mizan/contracts';

/** Where the office's logo and favicon are served (`SYSTEM_IMAGE_ROUTES`), under `API_BASE`. */
export const PUBLIC_IMAGE_PATHS = {
  logo: `${API_BASE}${SYSTEM_IMAGE_ROUTES.logo.path}`,
  favicon: `${API_BASE}${SYSTEM_IMAGE_ROUTES.favicon.path}`,
} as const;

/** Defaults until an administrator saves the settings (and after a reset). */
export function defaultSettings(env: NodeJS.ProcessEnv = process.env): SystemSettings {
  const hours = Number(env.MIZAN_SESSION_HOURS);
  return {
    id: 1,
    officeName: env.MIZAN_OFFICE_NAME?.trim() || 'ميزان للمحاماة',
    phone: null,
    email: null,
    address: null,
    defaultLanguage: 'ar',
    defaultTheme: 'light',
    calendar: 'hijri',
    timeZone: DEFAULT_TIME_ZONE,
    sessionLifetimeHours:
      Number.isInteger(hours) &&
      hours >= LIMITS.sessionLifetimeHours.min &&
      hours <= LIMITS.sessionLifetimeHours.max
        ? hours
        : 12,
    passwordMinLength: 8,
    passwordRequireDigits: false,
    passwordRequireSymbols: false,
    reminderEveningTime: REMINDER_DEFAULTS.reminderEveningTime,
    reminderMorningTime: REMINDER_DEFAULTS.reminderMorningTime,
    procurationReminderDays: [...REMINDER_DEFAULTS.procurationReminderDays],
    officeCountry: WORKING_DAY_DEFAULTS.officeCountry,
    weekendDays: [...WORKING_DAY_DEFAULTS.weekendDays],
    deadlineReminderDays: [...WORKING_DAY_DEFAULTS.deadlineReminderDays],
    procurationCheck: PROCURATION_CHECK_DEFAULT,
    ...BACKUP_DEFAULTS,
    ...FILE_TEXT_DEFAULTS,
    ...UPLOAD_DEFAULTS,
    ...INVOICING_DEFAULTS,
    logoFileId: null,
    faviconFileId: null,
    logoUrl: null,
    faviconUrl: null,
    primaryColor: '#1d4ed8',
    updatedAt: null,
    updatedBy: null,
  };
}

/** The security rules auth applies to sessions and new passwords. */
export interface SecurityPolicy {
  sessionLifetimeHours: number;
  passwordMinLength: number;
  passwordRequireDigits: boolean;
  passwordRequireSymbols: boolean;
}

/** The settings every visitor may read (`PUBLIC_SETTING_KEYS`), picked from the stored ones. */
export function toPublic(settings: SystemSettings): PublicSystemSettings {
  return Object.fromEntries(PUBLIC_SETTING_KEYS.map((key) => [key, settings[key]])) as PublicSystemSettings;
}
