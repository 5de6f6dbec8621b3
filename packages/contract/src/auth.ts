import { z } from 'zod';

/** Spec section 5: non-space text, @, text, dot, text. */
export const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;

export const loginRequestSchema = z.object({
  email: z.string().trim().min(1, 'E-mail is required.').max(254, 'E-mail is too long.'),
  password: z.string().min(1, 'Password is required.').max(1024, 'Password is too long.'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({ token: z.string() });
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

export const ADMIN_LEVEL = 0;
export const DEFAULT_USER_LEVEL = 1;
