import { z } from 'zod';
import { lineText } from '../schema';
import type { EntityRecord } from '../entity';
import type { employees } from '../entities/people';
import { AREA_PERMISSIONS } from '../areaPermissions';
import { answer, route, fullRoute } from '../route';
import { LIGHT_AUTH_ROUTES } from '../lightRoutes';

/** `/api/auth/*`: sign-in, session check, sign-out and the password reset. */

export const loginBody = z.object({
  /** Email or username. */
  email: lineText().pipe(z.string().min(1).max(150)),
  password: z.string().min(1).max(1024),
});
export const forgotPasswordBody = z.object({ email: z.email().max(150) });
export const verifyResetTokenQuery = z.object({
  token: lineText().pipe(z.string().min(1).max(200)),
  email: lineText().pipe(z.string().min(1).max(150)),
});
export const verifyResetCodeBody = z.object({
  email: lineText().pipe(z.string().min(1).max(150)),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});
export const resetPasswordBody = z.object({
  token: lineText().pipe(z.string().min(1).max(200)),
  email: lineText().pipe(z.string().min(1).max(150)),
  password: z.string().max(1024),
});

/** A permission as the login answer nests it inside a role. */
export interface AuthPermission {
  id: number;
  key: string;
}

/** A role as the login answer nests it inside the user. */
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

/** `POST /api/auth/login` (and `/2fa/verify`): signed in. */
export interface LoginResult {
  user: AuthUser;
  token: string;
  passwordChangeRequired: boolean;
}

/**
 * `POST /api/auth/login` when the password is right but a second step remains: no token yet.
 * `twoFactorRequired`: send a code from the authenticator (or a recovery code) to `/2fa/verify`
 * with `challenge`. `twoFactorEnrolmentRequired`: a role of the employee requires two-factor
 * sign-in and it is not set up: `/2fa/setup` and `/2fa/enable` with `challenge`, which signs in.
 * A challenge is single-use and lives 5 minutes.
 */
export interface TwoFactorChallenge {
  twoFactorRequired?: true;
  twoFactorEnrolmentRequired?: true;
  challenge: string;
  /** When the challenge ends (ISO). */
  expiresAt: string;
}

/** What `POST /api/auth/login` answers. */
export type LoginAnswer = LoginResult | TwoFactorChallenge;

/** Whether a login answer still asks for a second step. */
export const needsSecondStep = (answer: LoginAnswer): answer is TwoFactorChallenge =>
  'challenge' in answer && typeof answer.challenge === 'string';

/** A TOTP code: six digits (Arabic-Indic digits and spaces are accepted and normalised). */
const totpCode = z
  .string()
  .trim()
  .transform((v) => v.replace(/[\s-]/g, '').replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660)))
  .pipe(z.string().regex(/^\d{6}$/, { error: 'validation.types.totp' }));

/** A recovery code as shown at enrolment (`abcd-efgh-ijkl`); case and dashes do not matter. */
const recoveryCode = z
  .string()
  .trim()
  .max(64)
  .transform((v) => v.replace(/[\s-]/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]{12}$/, { error: 'validation.types.recoveryCode' }));

const challengeToken = z.string().trim().min(1).max(200);

/** `POST /api/auth/2fa/setup`: signed in, or with an enrolment challenge from the login answer. */
export const twoFactorSetupBody = z.object({ challenge: challengeToken.optional() }).optional();

/** `POST /api/auth/2fa/setup`: the secret to add to an authenticator app. */
export interface TwoFactorSetupResult {
  /** `otpauth://totp/...` with the secret, the office as issuer and the employee as label. */
  uri: string;
  /** The same URI as a QR code, a PNG `data:` URL. */
  qr: string;
  /** The secret in base32, for typing it in by hand. */
  secret: string;
}

/** `POST /api/auth/2fa/enable`: the first code proves the authenticator holds the secret. */
export const twoFactorEnableBody = z.object({ code: totpCode, challenge: challengeToken.optional() });

/** `POST /api/auth/2fa/enable`: ten one-time recovery codes, shown once (stored hashed). */
export interface TwoFactorEnableResult {
  recoveryCodes: string[];
  /** With an enrolment challenge: the sign-in it completes. */
  login?: LoginResult;
}

/** `DELETE /api/auth/2fa`: a current code or the password. */
export const twoFactorDisableBody = z
  .object({ code: totpCode.optional(), password: z.string().min(1).max(1024).optional() })
  .refine((v) => v.code !== undefined || v.password !== undefined, {
    error: 'validation.types.twoFactorProof',
    path: ['code'],
  });

/** `POST /api/auth/2fa/verify`: the second step of a sign-in; answers like `/login`. */
export const twoFactorVerifyBody = z
  .object({ challenge: challengeToken, code: totpCode.optional(), recoveryCode: recoveryCode.optional() })
  .refine((v) => v.code !== undefined || v.recoveryCode !== undefined, {
    error: 'validation.types.twoFactorProof',
    path: ['code'],
  });

/** The two-factor state on the profile (`GET /api/auth/2fa`). */
export interface TwoFactorStatus {
  enabled: boolean;
  /** A role of the employee requires it. */
  required: boolean;
  recoveryCodesLeft: number;
}

/** One open session of an employee (`GET /api/auth/sessions`). */
export interface SessionInfo {
  id: number;
  /** `desktop`, `mobile`, `tablet` or null when the user agent does not say. */
  device: string | null;
  /** `Chrome 130 on Windows`, from the user agent. */
  browser: string | null;
  ip: string | null;
  signedInAt: string;
  lastSeenAt: string;
  /** The session of this request. */
  current: boolean;
}

/** One sign-in attempt (the employee's page). */
export interface LoginAttempt {
  id: number;
  at: string;
  ip: string | null;
  device: string | null;
  browser: string | null;
  success: boolean;
  /** Why it failed (`wrong_password`, `wrong_code`, `locked`, `banned`, ...), null on success. */
  reason: string | null;
}

/** `GET /api/employees/employees/sessions/:id`: an employee's open sessions and last sign-ins. */
export interface EmployeeSecurity {
  sessions: SessionInfo[];
  history: LoginAttempt[];
  twoFactorEnabled: boolean;
}

/** `DELETE /api/auth/sessions` and the administrator's sign-out everywhere. */
export interface SessionsEnded {
  ended: number;
}

/** `POST /api/auth/check`. */
export interface CheckResult {
  user: AuthUser;
  token: string;
}

/** `GET /api/auth/verifyResetToken`. */
export interface VerifyResetTokenResult {
  valid: true;
  email: string;
  expiresAt: string;
}

/** `POST /api/auth/verifyResetCode`: a reset token for `PUT /resetPassword`. */
export interface VerifyResetCodeResult {
  token: string;
  email: string;
}

/** Answers that only carry a translated sentence (logout, forgot and reset password). */
export interface MessageResult {
  message: string;
}

/** `PUT /api/admin/settings/system/twoFactorRoles`: the roles whose members must use two factors. */
export const twoFactorRolesBody = z.object({ roleIds: z.array(z.int().positive()).max(1000) });

/** `GET /api/admin/settings/system/twoFactorRoles`. */
export interface TwoFactorRoles {
  roleIds: number[];
}

/**
 * Sign-in, the session, two-factor sign-in, the employee's own sessions and the password reset
 * (`/api/auth/*`), and the roles that must use two factors. Paths, methods and answers are the
 * light routes' (`LIGHT_AUTH_ROUTES`, which the login page calls without the schemas).
 */
export const AUTH_ROUTES = {
  login: fullRoute(LIGHT_AUTH_ROUTES.login, { summary: 'Sign in with email or username', body: loginBody }),
  twoFactorVerify: fullRoute(LIGHT_AUTH_ROUTES.twoFactorVerify, {
    summary: 'Second step of a sign-in: a code from the authenticator or a recovery code',
    body: twoFactorVerifyBody,
  }),
  twoFactorSetup: fullRoute(LIGHT_AUTH_ROUTES.twoFactorSetup, {
    summary: 'Start two-factor setup: an otpauth:// URI, its QR code and the secret',
    body: twoFactorSetupBody,
  }),
  twoFactorEnable: fullRoute(LIGHT_AUTH_ROUTES.twoFactorEnable, {
    summary: 'Turn two-factor sign-in on with a first code; answers ten recovery codes',
    body: twoFactorEnableBody,
  }),
  twoFactorStatus: fullRoute(LIGHT_AUTH_ROUTES.twoFactorStatus, {
    summary: 'Whether two-factor sign-in is on, required, and the recovery codes left',
  }),
  twoFactorDisable: fullRoute(LIGHT_AUTH_ROUTES.twoFactorDisable, {
    summary: 'Turn two-factor sign-in off (a current code or the password)',
    body: twoFactorDisableBody,
  }),
  sessions: fullRoute(LIGHT_AUTH_ROUTES.sessions, {
    summary: 'My open sessions (device, browser, IP, signed in, last seen, current)',
  }),
  endSession: fullRoute(LIGHT_AUTH_ROUTES.endSession, {
    summary: 'Sign one of my sessions out (on every instance at once)',
  }),
  endOtherSessions: fullRoute(LIGHT_AUTH_ROUTES.endOtherSessions, {
    summary: 'Sign out every session of mine but this one',
  }),
  twoFactorRoles: route({
    method: 'GET',
    path: '/admin/settings/system/twoFactorRoles',
    permission: AREA_PERMISSIONS.systemSettingsView,
    summary: 'The roles whose members must sign in with two factors',
    answer: answer<TwoFactorRoles>(),
  }),
  setTwoFactorRoles: route({
    method: 'PUT',
    path: '/admin/settings/system/twoFactorRoles',
    permission: AREA_PERMISSIONS.systemSettingsUpdate,
    summary: 'Require two-factor sign-in for these roles (members enrol at their next sign-in)',
    body: twoFactorRolesBody,
    answer: answer<TwoFactorRoles>(),
  }),
  check: fullRoute(LIGHT_AUTH_ROUTES.check, { summary: 'Check the session (slides its expiry)' }),
  logout: fullRoute(LIGHT_AUTH_ROUTES.logout, { summary: 'Sign out (revokes the token)' }),
  systemSettings: fullRoute(LIGHT_AUTH_ROUTES.systemSettings, {
    summary: 'Public system settings for the login page (no auth)',
  }),
  forgotPassword: fullRoute(LIGHT_AUTH_ROUTES.forgotPassword, {
    summary: 'Send a reset link and code by mail',
    body: forgotPasswordBody,
  }),
  verifyResetToken: fullRoute(LIGHT_AUTH_ROUTES.verifyResetToken, {
    summary: 'Check a reset link',
    query: verifyResetTokenQuery,
  }),
  verifyResetCode: fullRoute(LIGHT_AUTH_ROUTES.verifyResetCode, {
    summary: 'Trade a reset code for a reset token',
    body: verifyResetCodeBody,
  }),
  resetPassword: fullRoute(LIGHT_AUTH_ROUTES.resetPassword, {
    summary: 'Set a new password with a reset token',
    body: resetPasswordBody,
  }),
};
