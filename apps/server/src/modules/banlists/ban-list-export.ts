import { Readable } from 'node:stream';
import type { BanListExportFormat } from '@guardian/contract';
import { BAN_LIST_EXPORT_CSV_COLUMNS } from '@guardian/contract';
import type { FastifyReply } from 'fastify';
import { BanListItemsRepository, type BanListItemRecord, type ItemFilter } from './ban-list-items.repository';
import type { BanListItemsService } from './ban-list-items.service';

/** Items read per query: the export streams in batches, never holding the list (500,000 items). */
export const EXPORT_BATCH = 5_000;

/**
 * A spreadsheet runs a cell that starts with one of these as a formula (CSV injection): such a cell is
 * written with a leading single quote, which makes it text. Tab and carriage return too (OWASP).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: formula-safe, quoted when it holds a quote, a comma or a line break (RFC 4180). */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const csvLine = (item: BanListItemRecord) =>
  `${csvCell(item.ip)},${csvCell(item.comment)},${item.createdOn.toISOString()}\r\n`;
const txtLine = (item: BanListItemRecord) => `${item.ip}\n`;

/** A file name from the list's name (list names are [a-z0-9_], but a mirror keeps what Cloudflare says). */
const fileNameOf = (listName: string, format: BanListExportFormat) =>
  `${listName.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 100) || 'list'}.${format}`;

/**
 * GET .../items/export: the list's items (or the matches of the items screen's search) as CSV or TXT,
 * read from the mirror in batches of EXPORT_BATCH by id (keyset, each batch from the last id on) and
 * streamed as they come, with backpressure: the reply pulls the next batch when the socket has taken
 * the last. The list is looked up (ownership: another person's is "not found") and the first batch
 * read before anything is sent, so those failures answer as errors rather than a cut file.
 */
export async function sendBanListExport(
  reply: FastifyReply,
  items: BanListItemsService,
  userId: number,
  listId: string,
  query: { format: BanListExportFormat; search: string },
) {
  const list = await items.access.requireList(userId, listId);
  const repository = new BanListItemsRepository(items.access.deps.db);
  const filter: ItemFilter = query.search ? await items.filterFor(list, query.search) : { kind: 'all' };
  const batchFrom = (fromId: number) =>
    repository.page(list.ref, {
      filter,
      sort: 'id',
      order: 'asc',
      limit: EXPORT_BATCH,
      start: { fromId },
    });
  const line = query.format === 'csv' ? csvLine : txtLine;
  const first = await batchFrom(0);

  async function* chunks() {
    if (query.format === 'csv') yield `${BAN_LIST_EXPORT_CSV_COLUMNS.join(',')}\r\n`;
    let batch = first;
    while (batch.length > 0) {
      let text = '';
      for (const item of batch) text += line(item);
      yield text;
      if (batch.length < EXPORT_BATCH) return;
      batch = await batchFrom(batch[batch.length - 1]!.id + 1);
    }
  }

  return reply
    .type(query.format === 'csv' ? 'text/csv; charset=utf-8' : 'text/plain; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileNameOf(list.listName, query.format)}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(chunks(), { objectMode: false }));
}
