import { z } from 'zod';

/** The longest account name (Cloudflare's own account names are at most 100 characters too). */
export const ACCOUNT_NAME_MAX = 100;

/** POST /api/cloudflare/accounts: the person's label for the account and its API token. */
export const addAccountRequestSchema = z.object({
  account_name: z
    .string({ error: 'Account name is required.' })
    .trim()
    .min(1, 'Account name is required.')
    .max(ACCOUNT_NAME_MAX, `Account name must be at most ${ACCOUNT_NAME_MAX} characters.`),
  token: z
    .string({ error: 'API token is required.' })
    .trim()
    .min(1, 'API token is required.')
    .max(512, 'API token is too long.')
    .regex(/^[\x21-\x7e]+$/, 'API token must not contain spaces or special characters.'),
});
export type AddAccountRequest = z.infer<typeof addAccountRequestSchema>;

/** A Cloudflare account as the console shows it: the token only ever masked. */
export const cloudflareAccountSchema = z.object({
  id: z.number().int(),
  account_name: z.string(),
  /** Cloudflare's account id. */
  account_id: z.string(),
  /** Four stars and the token's last four characters. */
  token: z.string(),
});
export type CloudflareAccount = z.infer<typeof cloudflareAccountSchema>;
