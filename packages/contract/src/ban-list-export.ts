import { z } from 'zod';
import { BAN_LIST_ITEM_SEARCH_MAX } from './banlists';

export const BAN_LIST_EXPORT_FORMATS = ['csv', 'txt'] as const;
export type BanListExportFormat = (typeof BAN_LIST_EXPORT_FORMATS)[number];

/** The header of a CSV export; a TXT export is one value per line. */
export const BAN_LIST_EXPORT_CSV_COLUMNS = ['ip', 'comment', 'created_on'] as const;

/**
 * GET /api/cloudflare/banlists/{list_id}/items/export: the whole list, or the matches of `search`
 * (the items screen's search), as CSV or TXT, in the list's order (No ascending).
 */
export const banListExportQuerySchema = z.object({
  format: z
    .enum(BAN_LIST_EXPORT_FORMATS, { error: `format must be one of ${BAN_LIST_EXPORT_FORMATS.join(', ')}.` })
    .default('csv'),
  search: z
    .string()
    .trim()
    .max(BAN_LIST_ITEM_SEARCH_MAX, `The search must be at most ${BAN_LIST_ITEM_SEARCH_MAX} characters.`)
    .default(''),
});
export type BanListExportQuery = z.input<typeof banListExportQuerySchema>;
