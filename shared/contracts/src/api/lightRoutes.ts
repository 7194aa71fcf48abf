import { AREA_PERMISSIONS } from '../areaPermissions';
import { answer, lightRoute, PUBLIC } from '../route';
import type {
  CheckResult,
  EmployeeSecurity,
  forgotPasswordBody,
  LoginAnswer,
  LoginResult,
  loginBody,
  MessageResult,
  resetPasswordBody,
  SessionInfo,
  SessionsEnded,
  twoFactorDisableBody,
  twoFactorEnableBody,
  TwoFactorEnableResult,
  twoFactorSetupBody,
  TwoFactorSetupResult,
  TwoFactorStatus,
  twoFactorVerifyBody,
  VerifyResetCodeResult,
  verifyResetCodeBody,
  VerifyResetTokenResult,
  verifyResetTokenQuery,
  AuthUser,
} from './auth';
import type { Dashboard, dashboardQuery } from './dashboard';
import type { fileDownloadQuery } from './files';
import type { changePasswordBody, profileBody } from './people';
import type { PublicSystemSettings } from './system';

/**
 * The routes called before the full contracts have loaded, without their schemas (`lightRoute`):
 * the sign-in page, the session check, the password reset, the own account (the SDK's `authApi`)
 * a stored file's download (the SDK's `downloadFile`) and the dashboard's first call
 * (`prefetchDashboardOnSignIn`). This module imports values from
 * `route.ts` and `areaPermissions.ts` only, types from the rest, and is exported by
 * `@mizan/contracts/light`. The full routes (`AUTH_ROUTES`, `PEOPLE_ROUTES`, `DASHBOARD_ROUTES`)
 * are these with their schemas (`withSchemas`): a path, method or answer is written here only.
 */

/** `/api/auth/*`: sign-in, two-factor sign-in, the session, the own sessions and the password reset. */
export const LIGHT_AUTH_ROUTES = {
  login: lightRoute<typeof loginBody>()({
    method: 'POST',
    path: '/auth/login',
    permission: PUBLIC,
    summary: 'Sign in with email or username',
    answer: answer<LoginAnswer>(),
  }),
  twoFactorVerify: lightRoute<typeof twoFactorVerifyBody>()({
    method: 'POST',
    path: '/auth/2fa/verify',
    permission: PUBLIC,
    summary: 'Second step of a sign-in: a code from the authenticator or a recovery code',
    answer: answer<LoginResult>(),
  }),
  /** Signed in (profile), or with an enrolment challenge from the login answer (no token yet). */
  twoFactorSetup: lightRoute<typeof twoFactorSetupBody>()({
    method: 'POST',
    path: '/auth/2fa/setup',
    permission: PUBLIC,
    summary: 'Start two-factor setup: an otpauth:// URI, its QR code and the secret',
    answer: answer<TwoFactorSetupResult>(),
  }),
  twoFactorEnable: lightRoute<typeof twoFactorEnableBody>()({
    method: 'POST',
    path: '/auth/2fa/enable',
    permission: PUBLIC,
    summary: 'Turn two-factor sign-in on with a first code; answers ten recovery codes',
    answer: answer<TwoFactorEnableResult>(),
  }),
  twoFactorStatus: lightRoute()({
    method: 'GET',
    path: '/auth/2fa',
    permission: null,
    summary: 'Whether two-factor sign-in is on, required, and the recovery codes left',
    answer: answer<TwoFactorStatus>(),
  }),
  twoFactorDisable: lightRoute<typeof twoFactorDisableBody>()({
    method: 'DELETE',
    path: '/auth/2fa',
    permission: null,
    summary: 'Turn two-factor sign-in off (a current code or the password)',
    answer: answer<MessageResult>(),
  }),
  sessions: lightRoute()({
    method: 'GET',
    path: '/auth/sessions',
    permission: null,
    summary: 'My open sessions (device, browser, IP, signed in, last seen, current)',
    answer: answer<SessionInfo[]>(),
  }),
  endSession: lightRoute()({
    method: 'DELETE',
    path: '/auth/sessions/:id',
    permission: null,
    summary: 'Sign one of my sessions out (on every instance at once)',
    answer: answer<MessageResult>(),
  }),
  endOtherSessions: lightRoute()({
    method: 'DELETE',
    path: '/auth/sessions',
    permission: null,
    summary: 'Sign out every session of mine but this one',
    answer: answer<SessionsEnded>(),
  }),
  /** The session is checked by the handler itself (401/403 with the auth module's reasons). */
  check: lightRoute()({
    method: 'POST',
    path: '/auth/check',
    permission: PUBLIC,
    summary: 'Check the session (slides its expiry)',
    answer: answer<CheckResult>(),
  }),
  logout: lightRoute()({
    method: 'POST',
    path: '/auth/logout',
    permission: PUBLIC,
    summary: 'Sign out (revokes the token)',
    answer: answer<MessageResult>(),
  }),
  systemSettings: lightRoute()({
    method: 'GET',
    path: '/auth/systemSettings',
    permission: PUBLIC,
    summary: 'Public system settings for the login page (no auth)',
    answer: answer<PublicSystemSettings>(),
  }),
  forgotPassword: lightRoute<typeof forgotPasswordBody>()({
    method: 'POST',
    path: '/auth/forgotPassword',
    permission: PUBLIC,
    summary: 'Send a reset link and code by mail',
    answer: answer<MessageResult>(),
  }),
  verifyResetToken: lightRoute<undefined, typeof verifyResetTokenQuery>()({
    method: 'GET',
    path: '/auth/verifyResetToken',
    permission: PUBLIC,
    summary: 'Check a reset link',
    answer: answer<VerifyResetTokenResult>(),
  }),
  verifyResetCode: lightRoute<typeof verifyResetCodeBody>()({
    method: 'POST',
    path: '/auth/verifyResetCode',
    permission: PUBLIC,
    summary: 'Trade a reset code for a reset token',
    answer: answer<VerifyResetCodeResult>(),
  }),
  resetPassword: lightRoute<typeof resetPasswordBody>()({
    method: 'PUT',
    path: '/auth/resetPassword',
    permission: PUBLIC,
    summary: 'Set a new password with a reset token',
    answer: answer<MessageResult>(),
  }),
};

/** Employees' permission to manage an account (`permissionKey(employees, 'update')`, without the definition). */
const employeeAdmin = 'employees.update';

/** The signed-in employee's profile and password, and an administrator's view of an account's sign-ins. */
export const LIGHT_PEOPLE_ROUTES = {
  profile: lightRoute()({
    method: 'GET',
    path: '/employees/employees/profile',
    permission: null,
    summary: 'The signed-in employee',
    answer: answer<AuthUser>(),
  }),
  updateProfile: lightRoute<typeof profileBody>()({
    method: 'PUT',
    path: '/employees/employees/profile',
    permission: null,
    summary: 'Update the own profile',
    answer: answer<AuthUser>(),
  }),
  changePassword: lightRoute<typeof changePasswordBody>()({
    method: 'PUT',
    path: '/employees/employees/changePassword',
    permission: null,
    summary: 'Change the own password',
    answer: answer<MessageResult>(),
  }),
  security: lightRoute()({
    method: 'GET',
    path: '/employees/employees/sessions/:id',
    permission: employeeAdmin,
    summary: "An employee's open sessions, last sign-in attempts and two-factor state",
    answer: answer<EmployeeSecurity>(),
  }),
  signOutEverywhere: lightRoute()({
    method: 'POST',
    path: '/employees/employees/signOutEverywhere/:id',
    permission: employeeAdmin,
    summary: 'Sign an employee out everywhere (every session, on every instance at once)',
    answer: answer<SessionsEnded>(),
  }),
  resetTwoFactor: lightRoute()({
    method: 'DELETE',
    path: '/employees/employees/twoFactor/:id',
    permission: employeeAdmin,
    summary: "Reset an employee's two-factor sign-in (they set it up again)",
    answer: answer<MessageResult>(),
  }),
};

/** `GET /api/admin/dashboard`: see `DASHBOARD_ROUTES` and `DASHBOARD` (its sizes and channels). */
export const LIGHT_DASHBOARD_ROUTES = {
  get: lightRoute<undefined, typeof dashboardQuery>()({
    method: 'GET',
    path: '/admin/dashboard',
    permission: AREA_PERMISSIONS.dashboardView,
    summary: "The office's figures: counts, rates, upcoming hearings, recent lawsuits, distributions",
    answer: answer<Dashboard>(),
  }),
};

/** `GET /api/files/:id`: a stored file (its row's `StoredFile` carries the id). */
export const LIGHT_FILE_ROUTES = {
  download: lightRoute<undefined, typeof fileDownloadQuery>()({
    method: 'GET',
    path: '/files/:id',
    // Any signed-in employee; whether this one may read this file is decided per owner.
    permission: null,
    summary: 'Download a stored file (?download=1 for an attachment)',
  }),
};
