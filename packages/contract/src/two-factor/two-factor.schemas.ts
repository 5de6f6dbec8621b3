import { z } from 'zod';

const CODE_REQUIRED = 'Enter the 6-digit code from your authenticator app, or a recovery code.';

/** A 6-digit code or a recovery code (`xxxxx-xxxxx`); which one it is, the server tells by its form. */
const codeSchema = z
  .string({ error: CODE_REQUIRED })
  .trim()
  .min(1, CODE_REQUIRED)
  .max(64, 'The code is too long.');

/** Turning two-factor on: the first code the app shows for the new secret. */
export const twoFactorEnableRequestSchema = z.object({ code: codeSchema });
export type TwoFactorEnableRequest = z.infer<typeof twoFactorEnableRequestSchema>;

/** Turning it off or making new recovery codes: the password, or a current code (or a recovery code). */
export const twoFactorConfirmRequestSchema = z
  .object({
    password: z.string().max(1024, 'Password is too long.').optional(),
    code: codeSchema.optional(),
  })
  .refine((body) => (body.password ? 1 : 0) + (body.code ? 1 : 0) === 1, {
    message: 'Confirm with your password or with a code, one of the two.',
  });
export type TwoFactorConfirmRequest = z.infer<typeof twoFactorConfirmRequestSchema>;

/** The second step of signing in: the challenge the password step answered, and a code. */
export const loginTwoFactorRequestSchema = z.object({
  /** Named `..._token` so the audit trail redacts it like every token. */
  challenge_token: z
    .string({ error: 'The sign-in challenge is missing: sign in again.' })
    .min(1, 'The sign-in challenge is missing: sign in again.')
    .max(2048, 'The sign-in challenge is not valid: sign in again.'),
  code: codeSchema,
});
export type LoginTwoFactorRequest = z.infer<typeof loginTwoFactorRequestSchema>;

/** What the password step answers, instead of a session, to a person with two-factor on. */
export const twoFactorChallengeSchema = z.object({
  two_factor_required: z.literal(true),
  /** Signed, for this person and this purpose only, valid until `expires_at`. */
  challenge_token: z.string(),
  /** ISO 8601 date-time. */
  expires_at: z.string(),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;

/** `GET /api/me/two-factor`. */
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  /** ISO 8601 date-time, null while off. */
  enabled_at: z.string().nullable(),
  /** Unused recovery codes. */
  recovery_codes_left: z.number().int(),
  /** An administrator requires two-factor sign-in of everyone. */
  required: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** A new secret to scan or type into an authenticator app (shown until the first code confirms it). */
export const twoFactorSetupSchema = z.object({
  /** Base32, as apps take it typed. */
  secret: z.string(),
  /** The `otpauth://totp/...` URI the QR code carries. */
  otpauth_url: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/** New recovery codes: the only time they are shown. */
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** Whether an administrator requires two-factor sign-in of everyone. */
export const twoFactorPolicySchema = z.object({ required: z.boolean() });
export type TwoFactorPolicy = z.infer<typeof twoFactorPolicySchema>;

export const twoFactorUserParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'The user id must be a number.' })
    .int('The user id must be a number.')
    .positive('The user id must be a number.')
    .max(Number.MAX_SAFE_INTEGER, 'The user id must be a number.'),
});
