import { z } from 'zod';
import { BAN_LIST_ITEM_SEARCH_MAX } from './ban-list-items.schemas';
import { searchQueryField } from '../shared/paging';

export const BAN_LIST_EXPORT_FORMATS = ['csv', 'txt'] as const;
export type BanListExportFormat = (typeof BAN_LIST_EXPORT_FORMATS)[number];

/**
 * The header of a CSV export, which Import reads back by these names (an export imported into an empty
 * list gives the same items, comments and expiries). `expires` is an ISO date and time, or `never`;
 * `added_by` and `added_at` say who added the item and when (an import records its own). A TXT export
 * is one value per line.
 */
export const BAN_LIST_EXPORT_CSV_COLUMNS = ['value', 'comment', 'expires', 'added_by', 'added_at'] as const;

/** What Import does with a CSV column: the item's value, comment or expiry, or nothing (provenance). */
export type BanListCsvColumn = 'value' | 'comment' | 'expires' | 'ignored';

/**
 * The names a CSV import's header may give its columns, in any order (case, spaces and dashes aside:
 * `Added by` is `added_by`). An older export's `ip,comment,created_on` reads so too (created_on is
 * when the item was added, not when it expires). Another name is refused, saying these.
 */
export const BAN_LIST_CSV_COLUMN_NAMES: Readonly<Record<string, BanListCsvColumn>> = {
  value: 'value',
  ip: 'value',
  ips: 'value',
  item: 'value',
  items: 'value',
  address: 'value',
  cidr: 'value',
  hostname: 'value',
  asn: 'value',
  redirect: 'value',
  comment: 'comment',
  comments: 'comment',
  expires: 'expires',
  expires_at: 'expires',
  expiry: 'expires',
  added_by: 'ignored',
  added_at: 'ignored',
  created_on: 'ignored',
};

/**
 * GET /api/cloudflare/banlists/{list_id}/items/export: the whole list, or the matches of `search`
 * (the items screen's search), as CSV or TXT, in the list's order (No ascending).
 */
export const banListExportQuerySchema = z.object({
  format: z
    .enum(BAN_LIST_EXPORT_FORMATS, { error: `format must be one of ${BAN_LIST_EXPORT_FORMATS.join(', ')}.` })
    .default('csv'),
  search: searchQueryField(BAN_LIST_ITEM_SEARCH_MAX),
});
export type BanListExportQuery = z.input<typeof banListExportQuerySchema>;
