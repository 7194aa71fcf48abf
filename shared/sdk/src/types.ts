import type { EntityRecord, employees } from '@mizan/contracts';

/** A permission as the login response nests it inside a role. */
export interface AuthPermission {
  id: number;
  key: string;
}

/** A role as the login response nests it inside the user. */
export interface AuthRole {
  id: number;
  name: string;
  Permissions: AuthPermission[];
}

/** The signed-in employee of `POST /api/auth/login` and `/check`. */
export type AuthUser = EntityRecord<typeof employees> & {
  Roles: AuthRole[];
  /** Every permission key of every role, flattened by the server. */
  permissions: string[];
  passwordChangeRequired: boolean;
};

/** `POST /api/auth/login` result. */
export interface LoginResult {
  user: AuthUser;
  token: string;
  passwordChangeRequired: boolean;
}

/** `POST /api/auth/check` result. */
export interface CheckResult {
  user: AuthUser;
  token: string;
}

/** `GET /api/auth/systemSettings` result (public). */
export interface SystemSettings {
  officeName: string;
  logoUrl: string | null;
  faviconUrl: string | null;
  primaryColor: string;
  defaultLanguage: 'ar' | 'en';
  defaultTheme: 'light' | 'dark';
  calendar: string;
}
