import { z } from 'zod';
import { ACCOUNT_NAME_MAX } from '../accounts/accounts.schemas';
import { BAN_LIST_KINDS, BAN_LIST_NAME_MAX, BAN_LIST_NAME_PATTERN } from '../shared/constants';

/** What a list is for: 'block' (a blocklist) or 'allow' (an allowlist: its items are let through). */
export const BAN_LIST_PURPOSES = ['block', 'allow'] as const;
export type BanListPurpose = (typeof BAN_LIST_PURPOSES)[number];
/** Where a list's purpose came from: set by its person, or inferred from its name. */
export const BAN_LIST_PURPOSE_SOURCES = ['person', 'rules', 'name'] as const;
export type BanListPurposeSource = (typeof BAN_LIST_PURPOSE_SOURCES)[number];

/** A row of GET /api/cloudflare/banlists: a Cloudflare list of one of the person's accounts. */
export const banListSchema = z.object({
  /** Guardian's id of the list (DELETE /api/cloudflare/banlists/{id}). */
  id: z.number().int(),
  account_name: z.string(),
  /** Cloudflare's account id. */
  account_id: z.string(),
  list_name: z.string(),
  /** Cloudflare's list id: the {list_id} of the items screen and its calls. */
  list_id: z.string(),
  kind: z.enum(BAN_LIST_KINDS),
  /** How many items the local mirror holds (what the items screen pages through). */
  items: z.number().int(),
  /**
   * What the list is for: as its person set it, else inferred from its name (allow, white, trusted,
   * office, pass: allow; block, ban, deny, bad, threat: block); null when neither says.
   */
  purpose: z.enum(BAN_LIST_PURPOSES).nullable(),
  /** Where `purpose` came from; null with it. */
  purpose_source: z.enum(BAN_LIST_PURPOSE_SOURCES).nullable(),
});
export type BanList = z.infer<typeof banListSchema>;

/**
 * PUT /api/cloudflare/banlists/{id}/purpose: the person says what the list is for; null takes the
 * choice back (the purpose is then inferred from the name again).
 */
export const setBanListPurposeRequestSchema = z.object({
  purpose: z.enum(BAN_LIST_PURPOSES, { error: 'Purpose must be block, allow or null.' }).nullable(),
});
export type SetBanListPurposeRequest = z.infer<typeof setBanListPurposeRequestSchema>;

export const BAN_LIST_NAME_RULE = `Use only lowercase letters, numbers and underscores, at most ${BAN_LIST_NAME_MAX} characters.`;

/** POST /api/cloudflare/banlists: create a list at Cloudflare in the named account. */
export const addBanListRequestSchema = z.object({
  /** The person's own name of the account (unique per person). */
  account_name: z
    .string({ error: 'Account is required.' })
    .trim()
    .min(1, 'Account is required.')
    .max(ACCOUNT_NAME_MAX, `Account name must be at most ${ACCOUNT_NAME_MAX} characters.`),
  list_name: z
    .string({ error: 'List name is required.' })
    .trim()
    .min(1, 'List name is required.')
    .max(BAN_LIST_NAME_MAX, `List name must be at most ${BAN_LIST_NAME_MAX} characters.`)
    .regex(BAN_LIST_NAME_PATTERN, `List name is not valid. ${BAN_LIST_NAME_RULE}`),
  kind: z.enum(BAN_LIST_KINDS, { error: `Kind must be one of ${BAN_LIST_KINDS.join(', ')}.` }),
});
export type AddBanListRequest = z.infer<typeof addBanListRequestSchema>;

/** DELETE /api/cloudflare/banlists/{id}. */
export const banListIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'The ban list id must be a number.' })
    .int('The ban list id must be a whole number.')
    .positive('The ban list id must be positive.')
    .max(Number.MAX_SAFE_INTEGER),
});
