import { z } from 'zod';
import { EMAIL_PATTERN } from './auth';

/** The signed-in user, as `GET /api/me` answers. Level 0 is an administrator. */
export const currentUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  level: z.number().int(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** A user as administrators see it (`GET /api/admin/users`). */
export const userSchema = currentUserSchema.extend({
  disabled: z.boolean(),
  /** ISO 8601 date-time. */
  created_at: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const userListSchema = z.array(userSchema);

export const PASSWORD_MIN_LENGTH = 8;

/** Rules for a new e-mail, password and level (users CLI today, an admin screen later). */
export const newUserSchema = z.object({
  email: z
    .string()
    .trim()
    .max(254, 'E-mail is too long.')
    .regex(EMAIL_PATTERN, 'E-mail must look like name@example.com.'),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
    .max(1024, 'Password is too long.'),
  level: z.number().int('Level must be a whole number.').min(0, 'Level must be 0 (administrator) or more.'),
});
export type NewUser = z.infer<typeof newUserSchema>;
