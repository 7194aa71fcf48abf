import { z } from 'zod';
import { lineText } from '../schema';
import type { EntityRecord } from '../entity';
import type { employees } from '../entities/people';

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

/** `POST /api/auth/login`. */
export interface LoginResult {
  user: AuthUser;
  token: string;
  passwordChangeRequired: boolean;
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
