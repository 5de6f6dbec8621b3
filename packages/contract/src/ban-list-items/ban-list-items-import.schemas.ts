import { z } from 'zod';
import { banListParamsSchema, itemExpirySchema } from './ban-list-items.schemas';
import { banListSchema } from '../ban-lists/ban-lists.schemas';

/**
 * Import into a ban list (issue 15): the text is previewed first (nothing is sent to Cloudflare), then
 * the person confirms the preview by its id and the new items are added as a job.
 */

/** The most lines one import takes: past it the text is refused (400) before it is read. */
export const BAN_LIST_IMPORT_LINES_MAX = 100_000;
/** The most characters of an import's text (100,000 lines of CSV with comments); the body limit follows it. */
export const BAN_LIST_IMPORT_TEXT_MAX = 8_000_000;
/** How long a preview can be confirmed. */
export const BAN_LIST_IMPORT_PREVIEW_MINUTES = 30;
/**
 * The previews a person keeps to confirm, at most (the newest: a preview drops the oldest past either
 * bound): this many, of this many bytes in all (two previews of the longest text fit).
 */
export const BAN_LIST_IMPORT_PREVIEWS_KEPT_MAX = 3;
export const BAN_LIST_IMPORT_PREVIEW_BYTES_KEPT_MAX = 32_000_000;
/** The most invalid lines a preview lists one by one (all of them are counted). */
export const BAN_LIST_IMPORT_INVALID_LISTED_MAX = 10_000;

export const BAN_LIST_IMPORT_FORMATS = ['auto', 'text', 'csv'] as const;
export type BanListImportFormat = (typeof BAN_LIST_IMPORT_FORMATS)[number];

/** POST /api/cloudflare/banlists/{list_id}/items/import/preview. */
export const banListImportPreviewRequestSchema = z.object({
  /** One value a line (`#` comments), or CSV `value,comment[,expires]` with an optional header. */
  text: z
    .string({ error: 'The text to import is required.' })
    .min(1, 'The text to import is empty.')
    .max(
      BAN_LIST_IMPORT_TEXT_MAX,
      `The text to import is longer than ${BAN_LIST_IMPORT_TEXT_MAX.toLocaleString('en-US')} characters: split it.`,
    ),
  /** `auto`: CSV when one of the first lines holds a comma. */
  format: z
    .enum(BAN_LIST_IMPORT_FORMATS, {
      error: `The format must be one of ${BAN_LIST_IMPORT_FORMATS.join(', ')}.`,
    })
    .default('auto'),
});
export type BanListImportPreviewRequest = z.input<typeof banListImportPreviewRequestSchema>;

export const banListImportInvalidLineSchema = z.object({
  /** The line's number in the text, from 1. */
  line: z.number().int().positive(),
  /** The line as written (cut to 120 characters). */
  text: z.string(),
  /** Why it is not an item; a value it quotes is cut to 120 characters too. */
  reason: z.string(),
});
export type BanListImportInvalidLine = z.infer<typeof banListImportInvalidLineSchema>;

export const banListImportPreviewSchema = z.object({
  /** Confirm with POST .../items/import/{id}; null when there is nothing to confirm (nothing new, or refused). */
  id: z.string().nullable(),
  /** Until when it can be confirmed (ISO 8601). */
  expires_at: z.string(),
  format: z.enum(['text', 'csv']),
  /** Lines that are neither blank nor comments (nor the CSV header). */
  lines: z.number().int().nonnegative(),
  /** New items: what the import would add. */
  to_add: z.number().int().nonnegative(),
  /** Items the list already has (in the mirror). */
  already_listed: z.number().int().nonnegative(),
  /** Lines whose item an earlier line of the text already has. */
  repeated: z.number().int().nonnegative(),
  invalid_count: z.number().int().nonnegative(),
  /** Every invalid line, by number (at most BAN_LIST_IMPORT_INVALID_LISTED_MAX). */
  invalid: z.array(banListImportInvalidLineSchema),
  /** The account's items used and its plan's limit, before the import. */
  capacity: z.object({ used: z.number().int(), limit: z.number().int(), plan: z.string() }),
  /** Why the import cannot be applied (it would pass the account's quota), or null. */
  refused: z.string().nullable(),
});
export type BanListImportPreview = z.infer<typeof banListImportPreviewSchema>;

export const banListImportParamsSchema = banListParamsSchema.extend({
  import_id: z
    .string()
    .max(36, 'The import id is not valid.')
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'The import id is not valid.'),
});

/**
 * POST /api/cloudflare/banlists/{list_id}/items/import/{import_id}: apply the preview. `expires` is the
 * expiry of the items whose CSV line gives none: never, 1h, 1d, 7d, 30d, or a date and time (ISO 8601).
 */
export const banListImportApplyRequestSchema = z.object({
  /** The Add dialog's choice (itemExpirySchema): a date in the future, at most 5 years ahead. */
  expires: itemExpirySchema.default('never'),
});
export type BanListImportApplyRequest = z.input<typeof banListImportApplyRequestSchema>;

/** What an applied import answers (or its job's result). */
export const banListImportResultSchema = z.object({
  /** Items sent to Cloudflare and now in the list. */
  added: z.number().int().nonnegative(),
  /** Items of the preview the list had by the time it was applied (added meanwhile). */
  already_listed: z.number().int().nonnegative(),
  /** Cloudflare write calls made. */
  write_calls: z.number().int().nonnegative(),
  list: banListSchema,
  /** What happened when Cloudflare's answer to the write was lost, and what Guardian found out. */
  outcome: z.string().optional(),
});
export type BanListImportResult = z.infer<typeof banListImportResultSchema>;
