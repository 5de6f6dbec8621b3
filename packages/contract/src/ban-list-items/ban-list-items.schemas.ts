import { z } from 'zod';
import { isIpAddress } from '../dns-records/dns-records.schemas';
import { keysOf } from '../shared/closed-set';
import { PAGE_SIZE, type BanListKind } from '../shared/constants';
import { LOOKUP_ID_MAX } from '../shared/ids';
import { pagingQueryFields, searchQueryField, SORT_ORDERS } from '../shared/paging';
import LABELS from '../shared/labels.en.json';

/**
 * How an item reached its list (issue 15): through the console's Add dialog, an import, an API call
 * (an API key's), or at Cloudflare itself (found by a sync: added there, or before Guardian kept this).
 */
export const ITEM_ADDED_VIA = ['console', 'import', 'api', 'cloudflare'] as const;
export type ItemAddedVia = (typeof ITEM_ADDED_VIA)[number];
export const itemAddedViaSchema = z.enum(ITEM_ADDED_VIA);

/** What the items screen says of an item nobody added through Guardian. */
export const ADDED_AT_CLOUDFLARE = 'Added at Cloudflare';

/** The expiry choices of the Add and Import dialogs, besides a date: how long the item stays. */
export const ITEM_EXPIRY_LABELS = LABELS.banListItemExpiry;
export type ItemExpiryPreset = keyof typeof ITEM_EXPIRY_LABELS;
export const ITEM_EXPIRY_PRESETS = keysOf(ITEM_EXPIRY_LABELS);
const PRESET_MS: Record<Exclude<ItemExpiryPreset, 'never'>, number> = {
  '1h': 3_600_000,
  '1d': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};
/** An expiry date is at most this far ahead. */
export const ITEM_EXPIRY_MAX_DAYS = 5 * 366;

/** An expiry date and time (ISO 8601 with its offset), in the future and at most ITEM_EXPIRY_MAX_DAYS ahead. */
export const itemExpiryDateSchema = z
  .string()
  .max(40, 'The expiry date is too long.')
  .pipe(z.iso.datetime({ offset: true, error: 'The expiry must be a date and time (ISO 8601).' }))
  .refine((text) => Date.parse(text) > Date.now(), 'The expiry date must be in the future.')
  .refine(
    (text) => Date.parse(text) < Date.now() + ITEM_EXPIRY_MAX_DAYS * 86_400_000,
    `The expiry date is more than ${ITEM_EXPIRY_MAX_DAYS / 366} years ahead.`,
  );

/**
 * The expiry choice both dialogs send (Add, Import) and the item detail changes: one of the presets,
 * counted from when the server receives it, or a date. Never by default.
 */
export const itemExpirySchema = z.union([z.enum(ITEM_EXPIRY_PRESETS), itemExpiryDateSchema], {
  error: `The expiry must be one of ${ITEM_EXPIRY_PRESETS.join(', ')}, or a date and time (ISO 8601).`,
});
export type ItemExpiry = z.infer<typeof itemExpirySchema>;

/** When an item with `expiry`, chosen at `now`, expires (null: never). */
export function expiresAtOf(expiry: ItemExpiry, now: Date = new Date()): Date | null {
  if (expiry === 'never') return null;
  if (expiry in PRESET_MS) return new Date(now.getTime() + PRESET_MS[expiry as keyof typeof PRESET_MS]);
  return new Date(expiry);
}

/** An item's provenance and expiry, as every item of a page carries them. */
export const banListItemProvenanceSchema = z.object({
  added_via: itemAddedViaSchema,
  /** Who added it (their e-mail, with the API key's name for an API call); '' when added at Cloudflare. */
  added_by: z.string(),
  /** When Guardian removes it (ISO 8601), or null. */
  expires_at: z.string().nullable(),
});

/** PUT /api/cloudflare/banlists/{list_id}/items/{item_id}/expiry: change the item's expiry. */
export const changeBanListItemExpiryRequestSchema = z.object({ expires: itemExpirySchema });
export type ChangeBanListItemExpiryRequest = z.infer<typeof changeBanListItemExpiryRequestSchema>;

export const ITEM_HISTORY_EVENTS = ['added', 'expiry_changed', 'removed', 'expired', 'restored'] as const;
export type ItemHistoryEventKind = (typeof ITEM_HISTORY_EVENTS)[number];

/** One event of an item's history (newest last). */
export const banListItemHistoryEventSchema = z.object({
  at: z.string(),
  event: z.enum(ITEM_HISTORY_EVENTS),
  /** Who did it: a person (their e-mail, with the API key's name for an API call), or Guardian. */
  actor: z.string(),
  /** How an added item came (added events only). */
  added_via: itemAddedViaSchema.nullable(),
  /** The expiry after the event (added, expiry_changed, restored), or null. */
  expires_at: z.string().nullable(),
});
export type BanListItemHistoryEvent = z.infer<typeof banListItemHistoryEventSchema>;

/** The most events one item's history answers (the oldest first: its addition, then the newest). */
export const ITEM_HISTORY_MAX = 200;

/** GET /api/cloudflare/banlists/{list_id}/items/{item_id}/history. */
export const banListItemHistorySchema = z.object({
  value: z.string(),
  events: z.array(banListItemHistoryEventSchema),
});
export type BanListItemHistory = z.infer<typeof banListItemHistorySchema>;

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
  search: searchQueryField(BAN_LIST_ITEM_SEARCH_MAX),
  ...pagingQueryFields(PAGE_SIZE.banListItems, BAN_LIST_ITEMS_MAX_PER_PAGE),
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
