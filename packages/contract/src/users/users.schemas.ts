import { z } from 'zod';
import { EMAIL_PATTERN } from '../auth/auth.constants';
import { pagingQueryFields, searchQueryField } from '../shared/paging';

/** The signed-in user, as `GET /api/me` answers. Level 0 is an administrator. */
export const currentUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  level: z.number().int(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** A user as administrators see it (`GET /api/admin/users`). Times are ISO 8601. */
export const userSchema = currentUserSchema.extend({
  disabled: z.boolean(),
  /** Two-factor sign-in is on. */
  two_factor: z.boolean(),
  /** The last successful sign-in; null: never signed in. */
  last_sign_in_at: z.string().nullable(),
  created_at: z.string(),
  /** Their plan (`GET /api/admin/plans`): what they may add. */
  plan_id: z.number().int(),
});
export type User = z.infer<typeof userSchema>;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;
/** The highest level a user can have (0 is an administrator, any other level a user). */
export const USER_LEVEL_MAX = 1000;
export const EMAIL_MAX_LENGTH = 254;

const emailSchema = z
  .string({ error: 'E-mail is required.' })
  .trim()
  .max(EMAIL_MAX_LENGTH, 'E-mail is too long.')
  .regex(EMAIL_PATTERN, 'E-mail must look like name@example.com.');

/** A new password: what the CLI, the admin screen, a set-password link and a password change accept. */
export const newPasswordSchema = z
  .string({ error: 'Password is required.' })
  .max(PASSWORD_MAX_LENGTH, 'Password is too long.')
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`);

export const userLevelSchema = z
  .number({ error: 'Level must be a whole number.' })
  .int('Level must be a whole number.')
  .min(0, 'Level must be 0 (administrator) or more.')
  .max(USER_LEVEL_MAX, `Level must be at most ${USER_LEVEL_MAX}.`);

/** Rules for a new e-mail, password and level (the users CLI). */
export const newUserSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  level: userLevelSchema,
});
export type NewUser = z.infer<typeof newUserSchema>;

// ---- Administrators: the users table (/admin/users) ----

export const USERS_PAGE_SIZE = 20;
export const USERS_MAX_PER_PAGE = 100;

/** `GET /api/admin/users`: a page of users, oldest first, searched by e-mail (contains, any case). */
export const usersQuerySchema = z.object({
  search: searchQueryField(EMAIL_MAX_LENGTH),
  ...pagingQueryFields(USERS_PAGE_SIZE, USERS_MAX_PER_PAGE),
});
export type UsersQuery = z.input<typeof usersQuerySchema>;
/** The query as the server has it, defaults filled in. */
export type UsersPageQuery = z.output<typeof usersQuerySchema>;

export const usersPageSchema = z.object({
  users: z.array(userSchema),
  /** Users (or matches of the search) in all pages. */
  totalItems: z.number().int(),
});
export type UsersPage = z.infer<typeof usersPageSchema>;

export const userParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'The user id must be a number.' })
    .int('The user id must be a number.')
    .positive('The user id must be a number.')
    .max(Number.MAX_SAFE_INTEGER, 'The user id must be a number.'),
});

/** How long a set-password link works. */
export const PASSWORD_LINK_TTL_HOURS = 72;

/**
 * How a person gets a password: an administrator types a first one (and passes it on), or Guardian
 * makes a one-time set-password link (shown once; the person chooses their own password with it).
 */
export const passwordSetupSchema = z.discriminatedUnion(
  'method',
  [
    z.object({ method: z.literal('password'), password: newPasswordSchema }),
    z.object({ method: z.literal('link') }),
  ],
  { error: 'method must be password or link.' },
);
export type PasswordSetup = z.infer<typeof passwordSetupSchema>;

/** `POST /api/admin/users`. */
export const createUserRequestSchema = z.object({
  email: emailSchema,
  level: userLevelSchema,
  password_setup: passwordSetupSchema,
});
export type CreateUserRequest = z.infer<typeof createUserRequestSchema>;

/** `POST /api/admin/users/:id/password`: a new first password or a new link. */
export const resetPasswordRequestSchema = passwordSetupSchema;

/** A one-time set-password link: the web shows `/set-password#<token>` once (in the fragment, so the token never reaches a server log); only its hash is kept. */
export const passwordLinkSchema = z.object({
  token: z.string(),
  expires_at: z.string(),
});
export type PasswordLink = z.infer<typeof passwordLinkSchema>;

/** The answer of creating a user or resetting a password: the link when one was asked for. */
export const passwordSetupResultSchema = z.object({
  user: userSchema,
  password_link: passwordLinkSchema.nullable(),
});
export type PasswordSetupResult = z.infer<typeof passwordSetupResultSchema>;

/** `PUT /api/admin/users/{id}/level`. */
export const setUserLevelRequestSchema = z.object({ level: userLevelSchema });
export type SetUserLevelRequest = z.infer<typeof setUserLevelRequestSchema>;

/** `PUT /api/admin/users/{id}/plan`: the plan's id (`GET /api/admin/plans`). */
export const setUserPlanRequestSchema = z.object({
  plan_id: z
    .number({ error: 'Choose a plan.' })
    .int('Choose a plan.')
    .positive('Choose a plan.')
    .max(Number.MAX_SAFE_INTEGER, 'Choose a plan.'),
});
export type SetUserPlanRequest = z.infer<typeof setUserPlanRequestSchema>;

// ---- Anyone with a set-password link (/set-password#<token>) ----

const linkTokenSchema = z
  .string({ error: 'The link is missing its token.' })
  .trim()
  .min(1, 'The link is missing its token.')
  .max(128, 'This link is not valid.');

/** `POST /api/password-links/check`: is the link still good, and whose is it. */
export const passwordLinkCheckRequestSchema = z.object({ token: linkTokenSchema });
export type PasswordLinkCheckRequest = z.infer<typeof passwordLinkCheckRequestSchema>;

export const passwordLinkStatusSchema = z.object({ email: z.string(), expires_at: z.string() });
export type PasswordLinkStatus = z.infer<typeof passwordLinkStatusSchema>;

/** `POST /api/password-links/use`: sets the password; the link is used up. */
export const passwordLinkUseRequestSchema = z.object({ token: linkTokenSchema, password: newPasswordSchema });
export type PasswordLinkUseRequest = z.infer<typeof passwordLinkUseRequestSchema>;

// ---- Every signed-in person: their password and sessions (the profile page) ----

/** `POST /api/me/password`: the current password and the new one. */
export const changePasswordRequestSchema = z.object({
  current_password: z
    .string({ error: 'Current password is required.' })
    .max(PASSWORD_MAX_LENGTH, 'Password is too long.')
    .min(1, 'Current password is required.'),
  new_password: newPasswordSchema,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** The longest user agent a session keeps (the rest is cut). */
export const SESSION_USER_AGENT_MAX = 256;

/** One of the person's open sessions (a sign-in on some browser). */
export const ownSessionSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  /** When a request last used it (kept to the minute); null before its first request after sign-in. */
  last_seen_at: z.string().nullable(),
  /** The browser's User-Agent at sign-in (at most SESSION_USER_AGENT_MAX characters); null if none was sent. */
  user_agent: z.string().nullable(),
  /** The address the sign-in came from; null for sessions opened before Guardian kept it. */
  address: z.string().nullable(),
  /** The session this request was made with. */
  current: z.boolean(),
});
export type OwnSession = z.infer<typeof ownSessionSchema>;

/** `DELETE /api/me/sessions`: how many other sessions were signed out. */
export const otherSessionsEndedSchema = z.object({ ended: z.number().int() });
export type OtherSessionsEnded = z.infer<typeof otherSessionsEndedSchema>;

export const ownSessionParamsSchema = z.object({
  // Capped before its form is checked, as every string a caller sends is (bounds.test.ts).
  id: z
    .string()
    .max(36, 'Not a session id.')
    .pipe(z.uuid({ error: 'Not a session id.' })),
});
