/**
 * Answers of the auth routes and the public settings, as declared once in `@mizan/contracts`
 * (`api/auth.ts`, `api/system.ts`) for both the server and the client.
 */
export type {
  AuthPermission,
  AuthRole,
  AuthUser,
  CheckResult,
  LoginResult,
  PublicSystemSettings as SystemSettings,
} from '@mizan/contracts';
