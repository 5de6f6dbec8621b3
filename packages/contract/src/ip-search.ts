import { z } from 'zod';
import { BAN_LIST_KINDS } from './constants';

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

export const ipSearchMatchSchema = z.object({
  account_name: z.string(),
  /** Cloudflare's account id. */
  account_id: z.string(),
  /** Cloudflare's list id: the list's items screen is /cloudflare/banlists/{list_id}/items. */
  list_id: z.string(),
  list_name: z.string(),
  kind: z.enum(BAN_LIST_KINDS),
  /** Guardian's id of the item within its list (the items screen's No). */
  item_id: z.number().int(),
  /** The item's value, as the items screen shows it. */
  ip: z.string(),
  comment: z.string(),
  /** When Cloudflare created the item (ISO 8601). */
  created_on: z.string(),
  relation: z.enum(IP_SEARCH_RELATIONS),
});
export type IpSearchMatch = z.infer<typeof ipSearchMatchSchema>;

export const ipSearchAnswerSchema = z.object({
  query: z.object({
    kind: z.enum(IP_SEARCH_KINDS),
    /** The search as the lists store values: IPv6 compressed, host bits of a CIDR cleared, lower case. */
    value: z.string(),
  }),
  /** How many of the person's lists the search looked in (those of the kind it applies to). */
  lists_searched: z.number().int(),
  /** Addresses first, in address order; at most IP_SEARCH_MATCHES_MAX. */
  matches: z.array(ipSearchMatchSchema),
  /** More items match than `matches` holds: narrow the search down. */
  truncated: z.boolean(),
});
export type IpSearchAnswer = z.infer<typeof ipSearchAnswerSchema>;
