import { z } from 'zod';
import { twoFactorChallengeSchema } from '../two-factor/two-factor.schemas';

export const loginRequestSchema = z.object({
  email: z.string().trim().min(1, 'E-mail is required.').max(254, 'E-mail is too long.'),
  password: z.string().min(1, 'Password is required.').max(1024, 'Password is too long.'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** A session; `two_factor_setup_required`: an administrator requires two-factor and it is not on yet. */
export const sessionTokenSchema = z.object({
  token: z.string(),
  two_factor_setup_required: z.literal(true).optional(),
});
export type SessionToken = z.infer<typeof sessionTokenSchema>;

/** A session, or (two-factor on) a challenge for the second step, `POST /api/login/two-factor`. */
export const loginResponseSchema = z.union([sessionTokenSchema, twoFactorChallengeSchema]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/**
 * Claims of the session token (times in seconds). Level 0 is an administrator. `sid` names the session
 * on the server: `POST /api/auth/logout` (no body, answers 204) ends it, and the token is refused from
 * then on.
 */
export const tokenClaimsSchema = z.object({
  sub: z.string(),
  sid: z.uuid(),
  email: z.string(),
  level: z.number().int(),
  iat: z.number(),
  exp: z.number(),
});
export type TokenClaims = z.infer<typeof tokenClaimsSchema>;
