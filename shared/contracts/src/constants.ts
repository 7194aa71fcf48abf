/** Business constants of the product (cache lifetimes, time-outs, breakpoints). */
export const HTTP_TIMEOUT_MS = 30_000;

export const WS = {
  connectTimeoutMs: 10_000,
  pingIntervalMs: 30_000,
  maxReconnectAttempts: 5,
  reconnectDelayStepMs: 5_000,
  normalCloseCode: 1000,
  autoConnectDelayMs: 1_000,
} as const;

export const CACHE = {
  defaultRetentionMs: 60_000,
  dashboardMs: 300_000,
} as const;

export const FINGERPRINT = {
  timeoutMs: 5_000,
  /** The spec writes "5*60*100" (30 000 ms); five minutes may have been meant. Both readings apply. */
  cacheMsAsWritten: 5 * 60 * 100,
  cacheMsIntended: 5 * 60 * 1000,
  sessionSuffix: 'mizan-session',
} as const;

export const TOAST = { durationSeconds: 3, maxCount: 3, top: 24 } as const;

export const BREAKPOINTS = { mobileMax: 768, desktop: 1400, largeLaptop: 1600 } as const;

export const LAYOUT = {
  headerHeight: 60,
  sideNavWidth: 230,
  sideNavCollapsedWidth: 80,
  topNavHeight: 55,
  contentMaxWidth: 1400,
} as const;

export const DATE_FORMAT = 'M/D/YYYY';

export const ROUTES = {
  adminBase: '/admin',
  dashboard: '/admin/dashboard',
  authPrefix: '/auth',
  login: '/login',
  changePassword: '/auth/change-password',
  forgotPassword: '/auth/forgot-password',
  resetPassword: '/auth/reset-password',
  profile: '/admin/profile',
  forbidden: '/403',
  home: '/',
  redirectParam: 'redirect',
} as const;

/** Client-side stored items (encrypted). */
export const STORAGE_KEYS = {
  token: 'auth_token',
  user: 'auth_user',
  systemSettings: 'system_settings',
  theme: 'theme',
  themeConfig: 'themeConfig',
  /** The chat messages each employee of this browser wrote that the server has not stored yet. */
  chatOutbox: 'chat_outbox',
} as const;

export interface ThemeConfig {
  locale: 'ar' | 'en';
  direction: 'rtl' | 'ltr';
  currentTheme: 'light' | 'dark';
  navType: 'side' | 'top';
  sideNavTheme: 'light' | 'dark';
  topNavColor: string;
  headerNavColor: string;
  navCollapsed: boolean;
  hideHeader: boolean;
  mobileNav: boolean;
  blankLayout: boolean;
}

const BLUE_GRADIENT = 'linear-gradient(90deg, #1d4ed8 0%, #3b82f6 100%)';

export const DEFAULT_THEME_CONFIG: ThemeConfig = {
  locale: 'ar',
  direction: 'rtl',
  currentTheme: 'light',
  navType: 'side',
  sideNavTheme: 'light',
  topNavColor: BLUE_GRADIENT,
  headerNavColor: BLUE_GRADIENT,
  navCollapsed: false,
  hideHeader: false,
  mobileNav: false,
  blankLayout: false,
};

/**
 * The upload limit (`maxUploadMb`, megabytes) until an administrator sets another (a multi-page
 * scan fits), and the bounds of the setting.
 */
export const UPLOAD_DEFAULTS = { maxUploadMb: 25 } as const;
export const UPLOAD_LIMIT_BOUNDS = { min: 1, max: 200 } as const;
