import { Readable } from 'node:stream';
import type { BanListExportFormat } from '@guardian/contract';
import { BAN_LIST_EXPORT_CSV_COLUMNS } from '@guardian/contract';
import type { FastifyReply } from 'fastify';
import type { BanListItemsRepository, ItemFilter } from '../ban-list-mirror';
import type { OwnedLists } from '../ban-list-mirror';
import type { BanListItemsService } from '../ban-list-items';

/** Where an export reads from: the person's lists, the mirror's items, and the items screen's search. */
export interface ExportSource {
  owned: Pick<OwnedLists, 'requireList'>;
  items: BanListItemsRepository;
  search: Pick<BanListItemsService, 'filterFor'>;
}

/**
 * Items read per query at most: the export streams in batches, never holding the list (500,000
 * items). Fewer, bigger answers are what make it fast (PGlite answers over IPC).
 */
export const EXPORT_BATCH = 50_000;
/**
 * The text a batch aims at (characters): after the first batch, the next ones hold as many items as
 * fit in it at the size of the lines so far (at most EXPORT_BATCH), so long comments keep the
 * batches (here and in the database's memory) to a few MB.
 */
export const EXPORT_BATCH_CHARS = 2_000_000;
/** The first batch, read before the reply starts (its size unknown yet). */
export const EXPORT_FIRST_BATCH = 5_000;

/** A file name from the list's name (list names are [a-z0-9_], but a mirror keeps what Cloudflare says). */
const fileNameOf = (listName: string, format: BanListExportFormat) =>
  `${listName.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 100) || 'list'}.${format}`;

/**
 * The export's text after its header: the items passing the filter, read in batches by id (keyset,
 * each batch from the last id on), each batch's lines built by the database in a few pieces. The
 * first batch is read before this answers, so a failure there is an error rather than a cut file.
 * The next batch is asked for as a batch is handed on, so the database builds it while the last one
 * goes out; the one after waits until the consumer pulls (backpressure: two batches at most).
 */
export async function exportText(
  repository: BanListItemsRepository,
  ref: number,
  filter: ItemFilter,
  format: BanListExportFormat,
  { items = EXPORT_BATCH, chars = EXPORT_BATCH_CHARS }: { items?: number; chars?: number } = {},
): Promise<AsyncGenerator<string, void>> {
  const read = (fromId: number, limit: number) =>
    repository.exportBatch(ref, filter, format, fromId, limit).then((batch) => ({ ...batch, limit }));
  const first = await read(0, Math.min(EXPORT_FIRST_BATCH, items));
  return (async function* () {
    let batch = first;
    while (batch.count > 0) {
      let next: ReturnType<typeof read> | undefined;
      if (batch.count === batch.limit) {
        const batchChars = batch.pieces.reduce((sum, piece) => sum + piece.length, 0);
        const perItem = Math.max(1, batchChars / batch.count);
        next = read(batch.lastId + 1, Math.max(1, Math.min(items, Math.floor(chars / perItem))));
        // Awaited below; until then (or if the consumer stops first) its failure is no unhandled rejection.
        next.catch(() => undefined);
      }
      yield* batch.pieces;
      if (!next) return;
      batch = await next;
    }
  })();
}

/**
 * GET .../items/export: the list's items (or the matches of the items screen's search) as CSV or TXT,
 * read from the mirror in batches (see exportText) and streamed as they come, with backpressure: the
 * reply pulls the next batch when the socket has taken the last. The list is looked up (ownership:
 * another person's is "not found") and the first batch read before anything is sent, so those
 * failures answer as errors rather than a cut file.
 */
export async function sendBanListExport(
  reply: FastifyReply,
  { owned, items, search }: ExportSource,
  userId: number,
  listId: string,
  query: { format: BanListExportFormat; search: string },
) {
  const list = await owned.requireList(userId, listId);
  const filter: ItemFilter = query.search ? await search.filterFor(list, query.search) : { kind: 'all' };
  const body = await exportText(items, list.ref, filter, query.format);

  async function* chunks() {
    if (query.format === 'csv') yield `${BAN_LIST_EXPORT_CSV_COLUMNS.join(',')}\r\n`;
    yield* body;
  }

  return reply
    .type(query.format === 'csv' ? 'text/csv; charset=utf-8' : 'text/plain; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileNameOf(list.listName, query.format)}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(chunks(), { objectMode: false }));
}
