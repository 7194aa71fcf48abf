import { z } from 'zod';

/** The signed-in employee's own routes (`PEOPLE.*`) and the administrator's password reset. */

/** `PUT /api/employees/employees/changePassword`. */
export const changePasswordBody = z.object({
  currentPassword: z.string().min(1).max(1024),
  newPassword: z.string().min(1).max(1024),
});

/** `PUT /api/employees/employees/resetPassword/:id`: a temporary password the employee must change. */
export const adminResetPasswordBody = z.object({ password: z.string().min(1).max(1024) });
