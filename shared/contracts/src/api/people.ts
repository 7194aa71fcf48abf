import { z } from 'zod';
import type { EntityInput } from '../entity';
import { employees } from '../entities/people';
import { permissionKey } from '../permissions';
import { answer, route, fullRoute } from '../route';
import { createSchema } from '../schema';
import type { MessageResult } from './auth';
import { LIGHT_PEOPLE_ROUTES } from '../lightRoutes';

/** The signed-in employee's own routes (`LIGHT_PEOPLE_ROUTES`) and the administrator's password reset. */

/** `PUT /api/employees/employees/changePassword`. */
export const changePasswordBody = z.object({
  currentPassword: z.string().min(1).max(1024),
  newPassword: z.string().min(1).max(1024),
});

/** `PUT /api/employees/employees/resetPassword/:id`: a temporary password the employee must change. */
export const adminResetPasswordBody = z.object({ password: z.string().min(1).max(1024) });

/** The fields an employee changes on their own profile. */
export const PROFILE_FIELDS = ['name', 'email', 'username', 'phone', 'jobTitle'] as const;

/** What the profile form sends: some of `PROFILE_FIELDS`, as the employee form takes them. */
export type ProfileBody = Partial<Pick<EntityInput<typeof employees>, (typeof PROFILE_FIELDS)[number]>>;

/** The profile form: the employee definition's own rules for these fields, each optional. */
export const profileBody = createSchema(employees)
  .pick(
    Object.fromEntries(PROFILE_FIELDS.map((key) => [key, true])) as Record<
      (typeof PROFILE_FIELDS)[number],
      true
    >,
  )
  .partial() as unknown as z.ZodType<ProfileBody, ProfileBody>;

/** The signed-in employee's profile and password, and what an administrator does to an account. */
export const PEOPLE_ROUTES = {
  profile: fullRoute(LIGHT_PEOPLE_ROUTES.profile, { summary: 'The signed-in employee' }),
  updateProfile: fullRoute(LIGHT_PEOPLE_ROUTES.updateProfile, {
    summary: 'Update the own profile',
    body: profileBody,
  }),
  changePassword: fullRoute(LIGHT_PEOPLE_ROUTES.changePassword, {
    summary: 'Change the own password',
    body: changePasswordBody,
  }),
  adminResetPassword: route({
    method: 'PUT',
    path: `${employees.path}/resetPassword/:id`,
    permission: permissionKey(employees, 'update'),
    summary: 'Set a temporary password (forces a change)',
    body: adminResetPasswordBody,
    answer: answer<MessageResult>(),
  }),
  security: fullRoute(LIGHT_PEOPLE_ROUTES.security, {
    summary: "An employee's open sessions, last sign-in attempts and two-factor state",
  }),
  signOutEverywhere: fullRoute(LIGHT_PEOPLE_ROUTES.signOutEverywhere, {
    summary: 'Sign an employee out everywhere (every session, on every instance at once)',
  }),
  resetTwoFactor: fullRoute(LIGHT_PEOPLE_ROUTES.resetTwoFactor, {
    summary: "Reset an employee's two-factor sign-in (they set it up again)",
  }),
};
