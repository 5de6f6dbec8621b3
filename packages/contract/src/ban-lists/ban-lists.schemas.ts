import { z } from 'zod';
import { ACCOUNT_NAME_MAX } from '../accounts/accounts.schemas';
import { banListItemProvenanceSchema, itemExpirySchema } from '../ban-list-items/ban-list-items.schemas';
import {
  BAN_LIST_KINDS,
  BAN_LIST_NAME_MAX,
  BAN_LIST_NAME_PATTERN,
  PAGE_SIZE,
  type BanListKind,
} from '../shared/constants';
import { isIpAddress } from '../dns-records/dns-records.schemas';
import { LOOKUP_ID_MAX } from '../shared/ids';

/** What a list is for: 'block' (a blocklist) or 'allow' (an allowlist: its items are let through). */
export const BAN_LIST_PURPOSES = ['block', 'allow'] as const;
export type BanListPurpose = (typeof BAN_LIST_PURPOSES)[number];
/** Where a list's purpose came from: set by its person, or inferred from its name. */
export const BAN_LIST_PURPOSE_SOURCES = ['person', 'name'] as const;
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

/** Every route under /api/cloudflare/banlists/{list_id}. */
export const banListParamsSchema = z.object({
  list_id: z
    .string()
    .trim()
    .min(1, 'The list id is required.')
    .max(LOOKUP_ID_MAX, 'The list id is too long.'),
});

/** DELETE /api/cloudflare/banlists/{list_id}/items/{item_id}. */
export const banListItemParamsSchema = banListParamsSchema.extend({
  item_id: z.coerce
    .number({ error: 'The item id must be a number.' })
    .int('The item id must be a whole number.')
    .positive('The item id must be positive.')
    .max(Number.MAX_SAFE_INTEGER),
});

/** An item of a list's local mirror. */
export const banListItemSchema = z.object({
  /** Guardian's id of the item: ascending in the order the items reached the mirror. */
  id: z.number().int(),
  /**
   * The item's value: an IP address or CIDR for ip lists; the hostname, the AS number, or
   * `source -> target` for hostname, asn and redirect lists.
   */
  ip: z.string(),
  comment: z.string(),
  /** When Cloudflare created the item (ISO 8601). */
  created_on: z.string(),
  ...banListItemProvenanceSchema.shape,
});
export type BanListItem = z.infer<typeof banListItemSchema>;

export const BAN_LIST_ITEM_SORTS = ['id', 'ip', 'comment', 'created_on', 'expires_at', 'added_by'] as const;
export type BanListItemSort = (typeof BAN_LIST_ITEM_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const BAN_LIST_ITEMS_MAX_PER_PAGE = 500;
/**
 * A search counts its matches only up to this many pages past the page asked for (the pages the
 * pagination shows around it): past that `totalItemsCapped` is true. Counting 100,000 matches of a
 * 500,000-item list on every keystroke would be slow; the count grows as the person pages on.
 */
export const BAN_LIST_ITEM_SEARCH_PAGES_AHEAD = 2;
export const BAN_LIST_ITEM_SEARCH_MAX = 200;
/**
 * A search pages through its first this many matches (past them a page is a 400): skipping matches
 * costs time in proportion. Its exact count (GET .../items/count) may be larger.
 */
export const BAN_LIST_ITEM_SEARCH_MATCHES_MAX = 10_000;

/**
 * GET /api/cloudflare/banlists/{list_id}/items. The search matches, case-insensitively, comments that
 * contain it and values (IP addresses...) that start with it. Defaults: page 1, 100 per page, newest
 * first (id descending); `order` defaults to descending for id and ascending for the other columns.
 */
export const banListItemsQuerySchema = z.object({
  search: z
    .string()
    .trim()
    .max(BAN_LIST_ITEM_SEARCH_MAX, `The search must be at most ${BAN_LIST_ITEM_SEARCH_MAX} characters.`)
    .default(''),
  page: z.coerce
    .number({ error: 'page must be a number.' })
    .int('page must be a whole number.')
    .min(1, 'page must be 1 or more.')
    .max(1_000_000, 'page is too large.')
    .default(1),
  per_page: z.coerce
    .number({ error: 'per_page must be a number.' })
    .int('per_page must be a whole number.')
    .min(1, 'per_page must be 1 or more.')
    .max(BAN_LIST_ITEMS_MAX_PER_PAGE, `per_page must be at most ${BAN_LIST_ITEMS_MAX_PER_PAGE}.`)
    .default(PAGE_SIZE.banListItems),
  sort: z
    .enum(BAN_LIST_ITEM_SORTS, { error: `sort must be one of ${BAN_LIST_ITEM_SORTS.join(', ')}.` })
    .default('id'),
  order: z.enum(SORT_ORDERS, { error: 'order must be asc or desc.' }).optional(),
});
export type BanListItemsQuery = z.input<typeof banListItemsQuerySchema>;

/** The answer of GET .../items: one page and the number of items (or matches) in all pages. */
export const banListItemsPageSchema = z.object({
  items: z.array(banListItemSchema),
  totalItems: z.number().int(),
  /**
   * True when a search matches more items than it counted (BAN_LIST_ITEM_SEARCH_PAGES_AHEAD pages past
   * this one): more pages follow the last one totalItems gives. GET .../items/count answers the exact
   * number; once it is known, pages carry it too and this is false.
   */
  totalItemsCapped: z.boolean(),
});
export type BanListItemsPage = z.infer<typeof banListItemsPageSchema>;

/** GET /api/cloudflare/banlists/{list_id}/items/count: the search of the page it completes. */
export const banListItemsCountQuerySchema = banListItemsQuerySchema.pick({ search: true });
export type BanListItemsCountQuery = z.input<typeof banListItemsCountQuerySchema>;

/**
 * The exact number of items a search matches (every item without one), counted once per version of
 * the list: asked for after a page whose count stopped short (`totalItemsCapped`).
 */
export const banListItemsCountSchema = z.object({ totalItems: z.number().int() });
export type BanListItemsCount = z.infer<typeof banListItemsCountSchema>;

export const BAN_LIST_ITEM_COMMENT_MAX = 500;

/** POST /api/cloudflare/banlists/{list_id}/items. The value is checked against the list's kind by the server. */
export const addBanListItemRequestSchema = z.object({
  ip: z
    .string({ error: 'IP Address / CIDR is required.' })
    .trim()
    .min(1, 'IP Address / CIDR is required.')
    .max(2_048, 'IP Address / CIDR is too long.'),
  comment: z
    .string({ error: 'Comment is required.' })
    .trim()
    .min(1, 'Comment is required.')
    .max(BAN_LIST_ITEM_COMMENT_MAX, `Comment must be at most ${BAN_LIST_ITEM_COMMENT_MAX} characters.`),
  /** How long the item stays (Guardian removes it then): Never when left out. */
  expires: itemExpirySchema.optional(),
});
export type AddBanListItemRequest = z.infer<typeof addBanListItemRequestSchema>;

/**
 * The item value's label by list kind: the spec's 'IP Address / CIDR' for ip lists, the kind's own
 * word for the others (a hostname list takes no IP address).
 */
export const BAN_LIST_VALUE_LABELS: Record<BanListKind, string> = {
  ip: 'IP Address / CIDR',
  hostname: 'Hostname',
  asn: 'AS Number',
  redirect: 'Redirect',
};

export const HOSTNAME_NOT_AN_ADDRESS =
  'A hostname list takes host names such as host.example.com, not IP addresses: add addresses to an IP list.';

/**
 * The add-item dialog's check for a list of `kind`: the request's bounds, worded with the kind's label,
 * and for a hostname list no IP address. The server checks the value for the kind in full.
 */
export function addBanListItemFormSchema(kind: BanListKind) {
  const label = BAN_LIST_VALUE_LABELS[kind];
  return addBanListItemRequestSchema.extend({
    ip: z
      .string({ error: `${label} is required.` })
      .trim()
      .min(1, `${label} is required.`)
      .max(2_048, `${label} is too long.`)
      .refine((value) => kind !== 'hostname' || !isIpAddress(value), HOSTNAME_NOT_AN_ADDRESS),
  });
}
