import { z } from 'zod';

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
export const ITEM_EXPIRY_PRESETS = ['never', '1h', '1d', '7d', '30d'] as const;
export type ItemExpiryPreset = (typeof ITEM_EXPIRY_PRESETS)[number];
export const ITEM_EXPIRY_LABELS: Record<ItemExpiryPreset, string> = {
  never: 'Never',
  '1h': '1 hour',
  '1d': '1 day',
  '7d': '7 days',
  '30d': '30 days',
};
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
