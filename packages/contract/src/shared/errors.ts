import { z } from 'zod';

/** Every error the API answers, and the HTTP status each one maps to. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** Cloudflare failed (5xx, timeout, dropped connection) after the client's retries. */
  UPSTREAM: 502,
  /** The database is unreachable; try again shortly. */
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * The body of every non-2xx answer. `errors[0].message` repeats `message` because the spec's zone
 * dialog reads that form (Cloudflare's own envelope), while every other screen reads `message`.
 */
export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  errors: z.array(
    z.object({
      code: z.union([z.string(), z.number()]).optional(),
      message: z.string(),
      /** For a refused request field: its path in the request (`name`, `filter.expression`), so a form can mark it. */
      field: z.string().optional(),
    }),
  ),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
