import { AREA_PERMISSIONS } from './areaPermissions';
import { answer, lightRoute, PUBLIC } from './route';
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
  login: lightRoute<typeof loginBody>()({
    method: 'POST',
    path: '/auth/login',
    permission: PUBLIC,
    answer: answer<LoginAnswer>(),
  }),
  twoFactorVerify: lightRoute<typeof twoFactorVerifyBody>()({
    method: 'POST',
    path: '/auth/2fa/verify',
    permission: PUBLIC,
    answer: answer<LoginResult>(),
  }),
  /** Signed in (profile), or with an enrolment challenge from the login answer (no token yet). */
  twoFactorSetup: lightRoute<typeof twoFactorSetupBody>()({
    method: 'POST',
    path: '/auth/2fa/setup',
    permission: PUBLIC,
    answer: answer<TwoFactorSetupResult>(),
  }),
  twoFactorEnable: lightRoute<typeof twoFactorEnableBody>()({
    method: 'POST',
    path: '/auth/2fa/enable',
    permission: PUBLIC,
    answer: answer<TwoFactorEnableResult>(),
  }),
  twoFactorStatus: lightRoute()({
    method: 'GET',
    path: '/auth/2fa',
    permission: null,
    answer: answer<TwoFactorStatus>(),
  }),
  twoFactorDisable: lightRoute<typeof twoFactorDisableBody>()({
    method: 'DELETE',
    path: '/auth/2fa',
    permission: null,
    answer: answer<MessageResult>(),
  }),
  sessions: lightRoute()({
    method: 'GET',
    path: '/auth/sessions',
    permission: null,
    answer: answer<SessionInfo[]>(),
  }),
  endSession: lightRoute()({
    method: 'DELETE',
    path: '/auth/sessions/:id',
    permission: null,
    answer: answer<MessageResult>(),
  }),
  endOtherSessions: lightRoute()({
    method: 'DELETE',
    path: '/auth/sessions',
    permission: null,
    answer: answer<SessionsEnded>(),
  }),
  /** The session is checked by the handler itself (401/403 with the auth module's reasons). */
  check: lightRoute()({
    method: 'POST',
    path: '/auth/check',
    permission: PUBLIC,
    answer: answer<CheckResult>(),
  }),
  logout: lightRoute()({
    method: 'POST',
    path: '/auth/logout',
    permission: PUBLIC,
    answer: answer<MessageResult>(),
  }),
  systemSettings: lightRoute()({
    method: 'GET',
    path: '/auth/systemSettings',
    permission: PUBLIC,
    answer: answer<PublicSystemSettings>(),
  }),
  forgotPassword: lightRoute<typeof forgotPasswordBody>()({
    method: 'POST',
    path: '/auth/forgotPassword',
    permission: PUBLIC,
    answer: answer<MessageResult>(),
  }),
  verifyResetToken: lightRoute<undefined, typeof verifyResetTokenQuery>()({
    method: 'GET',
    path: '/auth/verifyResetToken',
    permission: PUBLIC,
    answer: answer<VerifyResetTokenResult>(),
  }),
  verifyResetCode: lightRoute<typeof verifyResetCodeBody>()({
    method: 'POST',
    path: '/auth/verifyResetCode',
    permission: PUBLIC,
    answer: answer<VerifyResetCodeResult>(),
  }),
  resetPassword: lightRoute<typeof resetPasswordBody>()({
    method: 'PUT',
    path: '/auth/resetPassword',
    permission: PUBLIC,
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
    answer: answer<AuthUser>(),
  }),
  updateProfile: lightRoute<typeof profileBody>()({
    method: 'PUT',
    path: '/employees/employees/profile',
    permission: null,
    answer: answer<AuthUser>(),
  }),
  changePassword: lightRoute<typeof changePasswordBody>()({
    method: 'PUT',
    path: '/employees/employees/changePassword',
    permission: null,
    answer: answer<MessageResult>(),
  }),
  security: lightRoute()({
    method: 'GET',
    path: '/employees/employees/sessions/:id',
    permission: employeeAdmin,
    answer: answer<EmployeeSecurity>(),
  }),
  signOutEverywhere: lightRoute()({
    method: 'POST',
    path: '/employees/employees/signOutEverywhere/:id',
    permission: employeeAdmin,
    answer: answer<SessionsEnded>(),
  }),
  resetTwoFactor: lightRoute()({
    method: 'DELETE',
    path: '/employees/employees/twoFactor/:id',
    permission: employeeAdmin,
    answer: answer<MessageResult>(),
  }),
};

/** `GET /api/admin/dashboard`: see `DASHBOARD_ROUTES` and `DASHBOARD` (its sizes and channels). */
export const LIGHT_DASHBOARD_ROUTES = {
  get: lightRoute<undefined, typeof dashboardQuery>()({
    method: 'GET',
    path: '/admin/dashboard',
    permission: AREA_PERMISSIONS.dashboardView,
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
  }),
};
