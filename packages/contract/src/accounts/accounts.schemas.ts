import { z } from 'zod';

/** The longest account name (Cloudflare's own account names are at most 100 characters too). */
export const ACCOUNT_NAME_MAX = 100;

const accountNameSchema = z
  .string({ error: 'Account name is required.' })
  .trim()
  .min(1, 'Account name is required.')
  .max(ACCOUNT_NAME_MAX, `Account name must be at most ${ACCOUNT_NAME_MAX} characters.`);

const tokenSchema = z
  .string({ error: 'API token is required.' })
  .trim()
  .min(1, 'API token is required.')
  .max(512, 'API token is too long.')
  .regex(/^[\x21-\x7e]+$/, 'API token must not contain spaces or special characters.');

/** POST /api/cloudflare/accounts: the person's label for the account and its API token. */
export const addAccountRequestSchema = z.object({
  account_name: accountNameSchema,
  token: tokenSchema,
});
export type AddAccountRequest = z.infer<typeof addAccountRequestSchema>;

/**
 * PUT /api/cloudflare/accounts/:id: a new name, a new API token (verified at Cloudflare for the same
 * account before it replaces the old one), or both. The edit dialog sends an empty token to keep it.
 */
export const updateAccountRequestSchema = z
  .object({
    account_name: accountNameSchema.optional(),
    /** Left empty: the token is kept. */
    token: z
      .string({ error: 'API token must be text.' })
      .trim()
      .transform((token) => token || undefined)
      .pipe(tokenSchema.optional())
      .optional(),
  })
  .refine((request) => request.account_name !== undefined || request.token !== undefined, {
    message: 'Give a new account name or a new API token.',
  });
export type UpdateAccountRequest = z.input<typeof updateAccountRequestSchema>;

/** The account of /api/cloudflare/accounts/:id: Guardian's id of it (the list's `id`). */
export const accountIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'The account id must be a number.' })
    .int('The account id must be a whole number.')
    .positive('The account id must be positive.')
    .max(Number.MAX_SAFE_INTEGER),
});

/**
 * What Guardian last learned of the token at Cloudflare: `active`, `disabled` or `expired` as
 * Cloudflare's verify answers, `revoked` when Cloudflare no longer knows it (deleted, rolled or
 * compromised).
 */
export const ACCOUNT_TOKEN_STATUSES = ['active', 'disabled', 'expired', 'revoked'] as const;
export type AccountTokenStatus = (typeof ACCOUNT_TOKEN_STATUSES)[number];

/** A Cloudflare account as the console shows it: the token only ever masked. */
export const cloudflareAccountSchema = z.object({
  id: z.number().int(),
  account_name: z.string(),
  /** Cloudflare's account id. */
  account_id: z.string(),
  /** Four stars and the token's last four characters. */
  token: z.string(),
  /** The token's state when last checked (on add, on replace, then every few hours); null: not checked yet. */
  token_status: z.enum(ACCOUNT_TOKEN_STATUSES).nullable(),
  /** When Cloudflare stops accepting the token (ISO 8601); null: it does not expire. */
  token_expires_on: z.string().nullable(),
  /** When Guardian last asked Cloudflare about the token (ISO 8601); null: never yet. */
  token_checked_at: z.string().nullable(),
});
export type CloudflareAccount = z.infer<typeof cloudflareAccountSchema>;
