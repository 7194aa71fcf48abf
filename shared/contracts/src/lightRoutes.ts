import { AREA_PERMISSIONS } from './areaPermissions';
import { lightRoute, PUBLIC } from './route';
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
} from './api/auth';
import type { Dashboard, dashboardQuery } from './api/dashboard';
import type { fileDownloadQuery } from './api/files';
import type { changePasswordBody, profileBody } from './api/people';
import type { PublicSystemSettings } from './api/system';

/**
 * `@mizan/contracts/lightRoutes`: the routes called before the full contracts have loaded, without
 * their schemas and summaries (`lightRoute`): the sign-in page, the session check, the password reset and the own
 * account (the SDK's `authApi`), a stored file's download (`fetchFile`) and the dashboard's first
 * call (`prefetchDashboardOnSignIn`). It imports values from `route.ts` and `areaPermissions.ts`
 * only, types from the rest; apart from `@mizan/contracts/light` so that a build bundles it where
 * it is called only. The full routes (`AUTH_ROUTES`, `PEOPLE_ROUTES`, `FILE_ROUTES`,
 * `DASHBOARD_ROUTES`, which `@mizan/contracts` exports with these) are these with their schemas and summaries
 * (`fullRoute`): a path, method or answer is written here only.
 */

/** `/api/auth/*`: sign-in, two-factor sign-in, the session, the own sessions and the password reset. */
export const LIGHT_AUTH_ROUTES = {
  login: lightRoute<LoginAnswer, typeof loginBody>()({
    method: 'POST',
    path: '/auth/login',
    permission: PUBLIC,
  }),
  twoFactorVerify: lightRoute<LoginResult, typeof twoFactorVerifyBody>()({
    method: 'POST',
    path: '/auth/2fa/verify',
    permission: PUBLIC,
  }),
  /** Signed in (profile), or with an enrolment challenge from the login answer (no token yet). */
  twoFactorSetup: lightRoute<TwoFactorSetupResult, typeof twoFactorSetupBody>()({
    method: 'POST',
    path: '/auth/2fa/setup',
    permission: PUBLIC,
  }),
  twoFactorEnable: lightRoute<TwoFactorEnableResult, typeof twoFactorEnableBody>()({
    method: 'POST',
    path: '/auth/2fa/enable',
    permission: PUBLIC,
  }),
  twoFactorStatus: lightRoute<TwoFactorStatus>()({
    method: 'GET',
    path: '/auth/2fa',
    permission: null,
  }),
  twoFactorDisable: lightRoute<MessageResult, typeof twoFactorDisableBody>()({
    method: 'DELETE',
    path: '/auth/2fa',
    permission: null,
  }),
  sessions: lightRoute<SessionInfo[]>()({
    method: 'GET',
    path: '/auth/sessions',
    permission: null,
  }),
  endSession: lightRoute<MessageResult>()({
    method: 'DELETE',
    path: '/auth/sessions/:id',
    permission: null,
  }),
  endOtherSessions: lightRoute<SessionsEnded>()({
    method: 'DELETE',
    path: '/auth/sessions',
    permission: null,
  }),
  /** The session is checked by the handler itself (401/403 with the auth module's reasons). */
  check: lightRoute<CheckResult>()({
    method: 'POST',
    path: '/auth/check',
    permission: PUBLIC,
  }),
  logout: lightRoute<MessageResult>()({
    method: 'POST',
    path: '/auth/logout',
    permission: PUBLIC,
  }),
  systemSettings: lightRoute<PublicSystemSettings>()({
    method: 'GET',
    path: '/auth/systemSettings',
    permission: PUBLIC,
  }),
  forgotPassword: lightRoute<MessageResult, typeof forgotPasswordBody>()({
    method: 'POST',
    path: '/auth/forgotPassword',
    permission: PUBLIC,
  }),
  verifyResetToken: lightRoute<VerifyResetTokenResult, undefined, typeof verifyResetTokenQuery>()({
    method: 'GET',
    path: '/auth/verifyResetToken',
    permission: PUBLIC,
  }),
  verifyResetCode: lightRoute<VerifyResetCodeResult, typeof verifyResetCodeBody>()({
    method: 'POST',
    path: '/auth/verifyResetCode',
    permission: PUBLIC,
  }),
  resetPassword: lightRoute<MessageResult, typeof resetPasswordBody>()({
    method: 'PUT',
    path: '/auth/resetPassword',
    permission: PUBLIC,
  }),
};

/** Employees' permission to manage an account (`permissionKey(employees, 'update')`, without the definition). */
const employeeAdmin = 'employees.update';

/** The signed-in employee's profile and password, and an administrator's view of an account's sign-ins. */
export const LIGHT_PEOPLE_ROUTES = {
  profile: lightRoute<AuthUser>()({
    method: 'GET',
    path: '/employees/employees/profile',
    permission: null,
  }),
  updateProfile: lightRoute<AuthUser, typeof profileBody>()({
    method: 'PUT',
    path: '/employees/employees/profile',
    permission: null,
  }),
  changePassword: lightRoute<MessageResult, typeof changePasswordBody>()({
    method: 'PUT',
    path: '/employees/employees/changePassword',
    permission: null,
  }),
  security: lightRoute<EmployeeSecurity>()({
    method: 'GET',
    path: '/employees/employees/sessions/:id',
    permission: employeeAdmin,
  }),
  signOutEverywhere: lightRoute<SessionsEnded>()({
    method: 'POST',
    path: '/employees/employees/signOutEverywhere/:id',
    permission: employeeAdmin,
  }),
  resetTwoFactor: lightRoute<MessageResult>()({
    method: 'DELETE',
    path: '/employees/employees/twoFactor/:id',
    permission: employeeAdmin,
  }),
};

/** `GET /api/admin/dashboard`: see `DASHBOARD_ROUTES` and `DASHBOARD` (its sizes and channels). */
export const LIGHT_DASHBOARD_ROUTES = {
  get: lightRoute<Dashboard, undefined, typeof dashboardQuery>()({
    method: 'GET',
    path: '/admin/dashboard',
    permission: AREA_PERMISSIONS.dashboardView,
  }),
};

/** `GET /api/files/:id`: a stored file (its row's `StoredFile` carries the id). */
export const LIGHT_FILE_ROUTES = {
  download: lightRoute<unknown, undefined, typeof fileDownloadQuery>()({
    method: 'GET',
    path: '/files/:id',
    // Any signed-in employee; whether this one may read this file is decided per owner.
    permission: null,
  }),
};
