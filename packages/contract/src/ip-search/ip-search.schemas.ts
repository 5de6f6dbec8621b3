import { z } from 'zod';
import { BAN_LIST_KINDS } from '../shared/constants';
import { itemAddedViaSchema, itemExpirySchema } from '../ban-list-items/ban-list-items.schemas';
import { jobSchema } from '../jobs/jobs.schemas';

/** The longest search: a hostname is at most 253 characters. */
export const IP_SEARCH_QUERY_MAX = 255;
/** At most this many matches are answered; `truncated` says when there are more. */
export const IP_SEARCH_MATCHES_MAX = 500;

export const IP_SEARCH_EMPTY = 'Enter an IP address, CIDR, hostname or AS number.';

/**
 * GET /api/cloudflare/ip-search?q=: where an address, a CIDR, a hostname or an AS number is listed,
 * across every list of the person's Cloudflare accounts (the local mirror).
 */
export const ipSearchQuerySchema = z.object({
  q: z
    .string({ error: IP_SEARCH_EMPTY })
    .trim()
    .min(1, IP_SEARCH_EMPTY)
    .max(IP_SEARCH_QUERY_MAX, `The search must be at most ${IP_SEARCH_QUERY_MAX} characters.`),
});
export type IpSearchQuery = z.input<typeof ipSearchQuerySchema>;

/** What the search was read as: the lists of which kind it looks in. */
export const IP_SEARCH_KINDS = ['address', 'cidr', 'hostname', 'asn'] as const;
export type IpSearchKind = (typeof IP_SEARCH_KINDS)[number];

/**
 * How an item matches: it is the searched value (`exact`), it is a CIDR holding the searched address
 * or CIDR (`contains`), or it lies inside the searched CIDR (`within`).
 */
export const IP_SEARCH_RELATIONS = ['exact', 'contains', 'within'] as const;
export type IpSearchRelation = (typeof IP_SEARCH_RELATIONS)[number];

/** One item a search found, within its list (`IpSearchFoundList.matches`). */
export const ipSearchMatchSchema = z.object({
  /** Guardian's id of the item within its list (the items screen's No). */
  item_id: z.number().int(),
  /** The item's value, as the items screen shows it. */
  ip: z.string(),
  comment: z.string(),
  /** When Cloudflare created the item (ISO 8601). */
  created_on: z.string(),
  relation: z.enum(IP_SEARCH_RELATIONS),
  /** How the item reached the list: the console, an import, the API, or at Cloudflare (found by a sync). */
  added_via: itemAddedViaSchema,
  /** Who added it through Guardian (their e-mail; an API key's name too); empty for Cloudflare's. */
  added_by: z.string(),
  /** When Guardian removes it (ISO 8601); null: never. */
  expires_at: z.string().nullable(),
});
export type IpSearchMatch = z.infer<typeof ipSearchMatchSchema>;

/** A list holding matches, named once for all of them (a /16 can find 500 items of one list). */
export const ipSearchFoundListSchema = z.object({
  account_name: z.string(),
  /** Cloudflare's account id. */
  account_id: z.string(),
  /** Cloudflare's list id: the list's items screen is /cloudflare/banlists/{list_id}/items. */
  list_id: z.string(),
  list_name: z.string(),
  kind: z.enum(BAN_LIST_KINDS),
  /** The list's matches, in the answer's order; at least one. */
  matches: z.array(ipSearchMatchSchema),
});
export type IpSearchFoundList = z.infer<typeof ipSearchFoundListSchema>;

export const ipSearchAnswerSchema = z.object({
  query: z.object({
    kind: z.enum(IP_SEARCH_KINDS),
    /** The search as the lists store values: IPv6 compressed, host bits of a CIDR cleared, lower case. */
    value: z.string(),
  }),
  /** How many of the person's lists the search looked in (those of the kind it applies to). */
  lists_searched: z.number().int(),
  /**
   * The lists holding matches, each with its own. The matches are taken in one order (exact first,
   * then the CIDRs holding the search, narrowest first, then the items inside it, in address order) and
   * a list comes where its first match falls; at most IP_SEARCH_MATCHES_MAX matches in all.
   */
  lists: z.array(ipSearchFoundListSchema),
  /** More items match than `lists` holds: narrow the search down. */
  truncated: z.boolean(),
});
export type IpSearchAnswer = z.infer<typeof ipSearchAnswerSchema>;

/**
 * Text with a lone UTF-16 surrogate (half of a pair) cannot be stored as JSON by PostgreSQL (a job's
 * data is jsonb): refused as the request's fault. With the `u` flag a well-formed pair is one code
 * point, so only a lone half matches.
 */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** At most this many lists in one "Ban everywhere" or "Remove from lists". */
export const IP_SEARCH_ACTION_LISTS_MAX = 200;

const listIdSchema = z
  .string({ error: 'A list id is required.' })
  .trim()
  .min(1, 'A list id is required.')
  .max(64, 'A list id is too long.');

/**
 * POST /api/cloudflare/ip-search/ban: "Ban everywhere": add one value (an address, CIDR, hostname or
 * AS number, as each list's kind takes it) to the chosen lists of the person's accounts, each account's
 * part a job.
 */
export const banEverywhereRequestSchema = z.object({
  value: z
    .string({ error: 'Enter the IP address or CIDR to ban.' })
    .trim()
    .min(1, 'Enter the IP address or CIDR to ban.')
    .max(IP_SEARCH_QUERY_MAX, `The value must be at most ${IP_SEARCH_QUERY_MAX} characters.`)
    .refine((text) => !LONE_SURROGATE.test(text), 'The value holds a character that is not valid text.'),
  comment: z
    .string({ error: 'Comment is required.' })
    .trim()
    .min(1, 'Comment is required.')
    .max(500, 'Comment must be at most 500 characters.')
    .refine((text) => !LONE_SURROGATE.test(text), 'Comment holds a character that is not valid text.'),
  list_ids: z
    .array(listIdSchema, { error: 'Choose at least one list.' })
    .min(1, 'Choose at least one list.')
    .max(IP_SEARCH_ACTION_LISTS_MAX, `Choose at most ${IP_SEARCH_ACTION_LISTS_MAX} lists.`),
  /** Never by default; a preset counts from when the server receives the request. */
  expires: itemExpirySchema.optional(),
});
export type BanEverywhereRequest = z.infer<typeof banEverywhereRequestSchema>;

/** POST /api/cloudflare/ip-search/remove: remove the chosen matches (list and item) from their lists. */
export const removeMatchesRequestSchema = z.object({
  items: z
    .array(
      z.object({
        list_id: listIdSchema,
        item_id: z
          .number({ error: 'The item id must be a number.' })
          .int('The item id must be a whole number.')
          .positive('The item id must be positive.')
          .max(Number.MAX_SAFE_INTEGER),
      }),
      { error: 'Choose at least one list.' },
    )
    .min(1, 'Choose at least one list.')
    .max(IP_SEARCH_ACTION_LISTS_MAX, `Choose at most ${IP_SEARCH_ACTION_LISTS_MAX} items.`),
});
export type RemoveMatchesRequest = z.infer<typeof removeMatchesRequestSchema>;

/** What one list's part of an account's job came to (the job's result). */
export const IP_SEARCH_LIST_OUTCOMES = ['added', 'already', 'removed', 'gone'] as const;
export type IpSearchListOutcome = (typeof IP_SEARCH_LIST_OUTCOMES)[number];

export const ipSearchJobResultSchema = z.object({
  lists: z.array(
    z.object({
      list_id: z.string(),
      list_name: z.string(),
      outcome: z.enum(IP_SEARCH_LIST_OUTCOMES),
    }),
  ),
});
export type IpSearchJobResult = z.infer<typeof ipSearchJobResultSchema>;

/** The answer of Ban everywhere and Remove: each account's part and its job (poll each until it ends). */
export const ipSearchActionAnswerSchema = z.object({
  parts: z.array(
    z.object({
      account_name: z.string(),
      account_id: z.string(),
      lists: z.array(z.object({ list_id: z.string(), list_name: z.string() })),
      job: jobSchema,
    }),
  ),
});
export type IpSearchActionAnswer = z.infer<typeof ipSearchActionAnswerSchema>;
