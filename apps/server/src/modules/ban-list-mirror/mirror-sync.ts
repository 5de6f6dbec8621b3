import type Cloudflare from 'cloudflare';
import { listAnswer, usableAnswer } from '../../cloudflare/answers';
import type { Db } from '../../db';
import { AppError } from '../../app-error';
import { banListNotFound } from './owned-lists';
import {
  BanListItemsRepository,
  mirrorDigestOf,
  type ItemUpdate,
  type MirrorItem,
} from './ban-list-items.repository';
import { BanListsRepository, type BanListRecord } from './ban-lists.repository';
import { isInetText } from '@guardian/contract';
import { CLOUDFLARE_ITEMS_PER_PAGE, listItemPages, type CloudflareItem } from './list-item-pages';
import { valueOfCloudflareItem } from './list-item-value';

/** Rows per statement while comparing and loading: fewer, larger statements cost the database less. */
const BATCH_ROWS = 2_000;
/** Changed comments kept in memory until the end of the sync; past this many the list is loaded anew. */
const MAX_PENDING_UPDATES = 50_000;
/** Items may be added while the sync reads: a few pages past the list's own count are followed. */
const EXTRA_PAGES = 3;

export function toMirrorItem(item: CloudflareItem): MirrorItem {
  const value = valueOfCloudflareItem(item);
  return {
    itemId: item.id,
    ip: value,
    comment: item.comment ?? '',
    createdOn: item.created_on,
    // Checked, as inet refuses what it cannot read and the whole sync would fail on it: such a value
    // (Cloudflare stores none) sorts after the addresses.
    ipSort: 'ip' in item && isInetText(value) ? value : null,
  };
}

/**
 * The list's items at Cloudflare in batches, the next page already on its way while one is stored.
 * The cursor is not trusted (see listItemPages): a cursor seen before, or more pages than the list's
 * own `num_items` needs (plus a margin for items added meanwhile), ends the sync with a clear 502
 * instead of spending the account's request budget.
 */
async function* cloudflareBatches(
  cf: Cloudflare,
  list: BanListRecord,
  options: SyncOptions,
): AsyncGenerator<MirrorItem[]> {
  const { num_items: count } = usableAnswer(
    listAnswer,
    await cf.rules.lists.get(list.listId, { account_id: list.accountId }),
    `the list "${list.listName}"`,
  );
  options.onTotal?.(count);
  const pages = listItemPages(cf, list, {
    what: `the items of the list "${list.listName}"`,
    maxPages: Math.ceil(count / CLOUDFLARE_ITEMS_PER_PAGE) + EXTRA_PAGES,
    tooManyPages: `Cloudflare keeps announcing more pages than its ${count.toLocaleString('en')} items fill. Please try the sync again later.`,
    sameCursor: 'Cloudflare sent the same page cursor twice. Please try the sync again later.',
    // Cancelled, or the server stops: the old mirror stays (see syncMirror).
    signal: options.signal,
    prefetch: true,
  });
  let batch: MirrorItem[] = [];
  for await (const page of pages) {
    for (const item of page) batch.push(toMirrorItem(item));
    if (batch.length >= BATCH_ROWS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Makes a list's mirror equal to Cloudflare. The items stream in (500 per call, as few calls as the
 * cursor needs) and are first compared with the mirror, which holds them in the same order after a
 * sync: batches that match (by a digest computed on both sides) cost no writes, and comments changed
 * in place are applied in place, in one short transaction at the end. From the first item that is new,
 * gone or moved, the items go into a load table instead, in short statements outside any transaction
 * (memory stays flat, other requests are served meanwhile); its indexes are built once, in bulk, and
 * it replaces the mirror in one short transaction. If anything fails, the old mirror is left as it was.
 */
export interface SyncOptions {
  /** Stops the sync between pages (the old mirror stays). */
  signal?: AbortSignal;
  /** The list's item count at Cloudflare, once known. */
  onTotal?: (total: number) => void;
  /** Items read from Cloudflare so far. */
  onProgress?: (done: number) => void;
  /**
   * Every item is read and in the load table; awaited before the indexes are built, which take
   * seconds and report nothing (a job writes its last count here: on PGlite a write sent later
   * would wait behind the builds).
   */
  onItemsStored?: () => Promise<void>;
}

export async function syncMirror(
  db: Db,
  cf: Cloudflare,
  list: BanListRecord,
  options: SyncOptions = {},
): Promise<BanListRecord> {
  const items = new BanListItemsRepository(db);
  // Comparing walks the mirror by id, which needs its ids without holes.
  const comparable = list.nextItemId - list.firstItemId === list.itemsCount;
  // A loaded list is numbered past every id the list ever had: an id is never reused.
  const firstId = list.nextItemId;
  let count = 0;
  let loading = false;
  let updates: ItemUpdate[] = [];

  /** From here on, everything goes to the load table: first the items compared so far, renumbered. */
  const startLoading = async () => {
    await items.startLoad(list.ref);
    loading = true;
    if (count === 0) return;
    await items.loadFromMirror(list.ref, list.firstItemId, count, firstId);
    const renumbered = updates.map((update) => ({ ...update, id: update.id - list.firstItemId + firstId }));
    if (renumbered.length > 0) await items.update(list.ref, renumbered, true);
    updates = [];
  };

  /** Whether `batch` matches the mirror at its position, noting its changed comments; false when it does not. */
  const compare = async (batch: MirrorItem[]): Promise<boolean> => {
    const fromId = list.firstItemId + count;
    if ((await items.digest(list.ref, fromId, batch.length)) === mirrorDigestOf(batch)) return true;
    const stored = await items.page(list.ref, {
      filter: { kind: 'all' },
      sort: 'id',
      order: 'asc',
      limit: batch.length,
      start: { fromId },
    });
    const samePlaces =
      stored.length === batch.length &&
      stored.every((row, index) => row.itemId === batch[index]!.itemId && row.ip === batch[index]!.ip);
    if (!samePlaces) return false;
    const changed = stored.flatMap((row, index) => {
      const item = batch[index]!;
      const same = row.comment === item.comment && row.createdOn.getTime() === Date.parse(item.createdOn);
      return same ? [] : [{ id: row.id, comment: item.comment, createdOn: item.createdOn }];
    });
    if (updates.length + changed.length > MAX_PENDING_UPDATES) return false;
    updates.push(...changed);
    return true;
  };

  // One batch is stored while the next is received and prepared: the database is another process.
  let storing: Promise<void> | undefined;
  try {
    for await (const batch of cloudflareBatches(cf, list, options)) {
      if (!loading && comparable && (await compare(batch))) {
        count += batch.length;
        options.onProgress?.(count);
        continue;
      }
      if (!loading) await startLoading();
      await storing;
      storing = items.load(list.ref, firstId + count, batch);
      // If receiving the next batch fails first, this one's outcome no longer matters (the load is dropped).
      storing.catch(() => undefined);
      count += batch.length;
      options.onProgress?.(count);
    }
    await storing;
    if (!loading && count === list.itemsCount) {
      if (updates.length === 0) return list;
      await db.transaction(async (tx) => {
        const lists = new BanListsRepository(tx);
        if (!(await lists.lock(list.ref))) throw banListNotFound();
        await new BanListItemsRepository(tx).update(list.ref, updates);
        await lists.recordUpdated(list.ref);
      });
      return { ...list, itemsVersion: list.itemsVersion + 1 };
    }
    if (!loading) await startLoading();
    await options.onItemsStored?.();
    await db.transaction((tx) => new BanListItemsRepository(tx).keepProvenance(list.ref));
    await items.indexLoad(list.ref, { lanes: db.kind === 'postgres' ? 2 : 1 });
    await db.transaction(async (tx) => {
      const lists = new BanListsRepository(tx);
      const locked = await lists.lock(list.ref);
      if (!locked) throw banListNotFound();
      // Another server process wrote to the list meanwhile: its ids would clash with the loaded ones.
      if (locked.nextItemId !== firstId) {
        throw new AppError('CONFLICT', 'The list changed while it was being synced. Please sync it again.');
      }
      await new BanListItemsRepository(tx).swapInLoad(list.ref, count);
      await lists.recordReplaced(list.ref, firstId, count);
    });
    return { ...list, itemsCount: count, firstItemId: firstId, nextItemId: firstId + count };
  } catch (err) {
    await storing?.catch(() => undefined);
    if (loading) await items.dropLoad(list.ref).catch(() => undefined);
    throw err;
  }
}
