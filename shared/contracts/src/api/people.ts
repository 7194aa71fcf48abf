import { z } from 'zod';
import { PEOPLE } from '../endpoints';
import { employees } from '../entities/people';
import { permissionKey } from '../permissions';
import { answer, route } from '../route';
import { createSchema } from '../schema';
import type { AuthUser, EmployeeSecurity, MessageResult, SessionsEnded } from './auth';

/** The signed-in employee's own routes (`PEOPLE.*`) and the administrator's password reset. */

/** `PUT /api/employees/employees/changePassword`. */
export const changePasswordBody = z.object({
  currentPassword: z.string().min(1).max(1024),
  newPassword: z.string().min(1).max(1024),
});

/** `PUT /api/employees/employees/resetPassword/:id`: a temporary password the employee must change. */
export const adminResetPasswordBody = z.object({ password: z.string().min(1).max(1024) });

/** The fields an employee changes on their own profile. */
export const PROFILE_FIELDS = ['name', 'email', 'username', 'phone', 'jobTitle'] as const;

/** The profile form: the employee definition's own rules for these fields, each optional. */
export const profileBody = createSchema(employees)
  .pick(
    Object.fromEntries(PROFILE_FIELDS.map((key) => [key, true])) as Record<
      (typeof PROFILE_FIELDS)[number],
      true
    >,
  )
  .partial();

const employeeAdmin = permissionKey(employees, 'update');

/** The signed-in employee's profile and password, and what an administrator does to an account. */
export const PEOPLE_ROUTES = {
  profile: route({
    method: 'GET',
    path: PEOPLE.profile,
    permission: null,
    summary: 'The signed-in employee',
    answer: answer<AuthUser>(),
  }),
  updateProfile: route({
    method: 'PUT',
    path: PEOPLE.profile,
    permission: null,
    summary: 'Update the own profile',
    body: profileBody,
    answer: answer<AuthUser>(),
  }),
  changePassword: route({
    method: 'PUT',
    path: PEOPLE.changePassword,
    permission: null,
    summary: 'Change the own password',
    body: changePasswordBody,
    answer: answer<MessageResult>(),
  }),
  adminResetPassword: route({
    method: 'PUT',
    path: `${employees.path}/resetPassword/:id`,
    permission: employeeAdmin,
    summary: 'Set a temporary password (forces a change)',
    body: adminResetPasswordBody,
    answer: answer<MessageResult>(),
  }),
  security: route({
    method: 'GET',
    path: `${PEOPLE.sessions}/:id`,
    permission: employeeAdmin,
    summary: "An employee's open sessions, last sign-in attempts and two-factor state",
    answer: answer<EmployeeSecurity>(),
  }),
  signOutEverywhere: route({
    method: 'POST',
    path: `${PEOPLE.signOutEverywhere}/:id`,
    permission: employeeAdmin,
    summary: 'Sign an employee out everywhere (every session, on every instance at once)',
    answer: answer<SessionsEnded>(),
  }),
  resetTwoFactor: route({
    method: 'DELETE',
    path: `${PEOPLE.resetTwoFactor}/:id`,
    permission: employeeAdmin,
    summary: "Reset an employee's two-factor sign-in (they set it up again)",
    answer: answer<MessageResult>(),
  }),
};
