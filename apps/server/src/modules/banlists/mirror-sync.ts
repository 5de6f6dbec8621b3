import type Cloudflare from 'cloudflare';
import type { Db } from '../../db';
import { AppError } from '../../errors';
import { banListNotFound } from './ban-list-access';
import { BanListItemsRepository, mirrorDigestOf, type MirrorItem } from './ban-list-items.repository';
import { BanListsRepository, type BanListRecord } from './banlists.repository';
import { valueOfCloudflareItem } from './list-item-value';

type CloudflareItem = Cloudflare.Rules.Lists.ItemListResponse;
type CloudflarePage = Cloudflare.Rules.Lists.ItemListResponsesCursorPaginationAfter;

/** Cloudflare's largest page of list items: a sync reads n items in ceil(n / 500) calls. */
const CLOUDFLARE_ITEMS_PER_PAGE = 500;
/** Rows per statement while comparing and loading: fewer, larger statements cost the database less. */
const BATCH_ROWS = 2_000;

export function toMirrorItem(item: CloudflareItem): MirrorItem {
  return {
    itemId: item.id,
    ip: valueOfCloudflareItem(item),
    comment: item.comment ?? '',
    createdOn: item.created_on,
  };
}

/** The list's items at Cloudflare in batches, the next page already on its way while one is stored. */
async function* cloudflareBatches(cf: Cloudflare, list: BanListRecord): AsyncGenerator<MirrorItem[]> {
  let next: Promise<CloudflarePage> | null = cf.rules.lists.items.list(list.listId, {
    account_id: list.accountId,
    per_page: CLOUDFLARE_ITEMS_PER_PAGE,
  });
  let batch: MirrorItem[] = [];
  while (next) {
    const page: CloudflarePage = await next;
    next = page.hasNextPage() ? page.getNextPage() : null;
    // If storing a batch fails, the sync stops and nobody awaits the next page: keep it from going unhandled.
    next?.catch(() => undefined);
    for (const item of page.getPaginatedItems()) batch.push(toMirrorItem(item));
    if (batch.length >= BATCH_ROWS || !next) {
      yield batch;
      batch = [];
    }
  }
}

/**
 * Makes a list's mirror equal to Cloudflare. The items stream in (500 per call, as few calls as the
 * cursor needs) and are first compared with the mirror, which holds them in the same order after a
 * sync: when nothing changed, nothing is written. From the first difference on, the items go into a
 * load table, in short statements outside any transaction (memory stays flat, other requests are
 * served meanwhile); its indexes are built once, in bulk, and it replaces the mirror in one short
 * transaction. If anything fails, the old mirror is left exactly as it was.
 */
export async function syncMirror(db: Db, cf: Cloudflare, list: BanListRecord): Promise<BanListRecord> {
  const items = new BanListItemsRepository(db);
  // Comparing walks the mirror by id, which needs its ids without holes.
  const comparable = list.nextItemId - list.firstItemId === list.itemsCount;
  // New ids start past every id the list ever had: an id is never reused, even across syncs.
  const firstId = list.nextItemId;
  let count = 0;
  let loading = false;

  /** From here on, everything goes to the load table: first the items that matched, renumbered. */
  const startLoading = async () => {
    await items.startLoad(list.ref);
    loading = true;
    if (count > 0) await items.loadFromMirror(list.ref, list.firstItemId, count, firstId);
  };

  try {
    for await (const batch of cloudflareBatches(cf, list)) {
      // Compared by digest, computed on both sides: reading the rows back would cost as much as writing them.
      if (!loading && comparable) {
        const stored = await items.digest(list.ref, list.firstItemId + count, batch.length);
        if (stored === mirrorDigestOf(batch)) {
          count += batch.length;
          continue;
        }
      }
      if (!loading) await startLoading();
      await items.load(list.ref, firstId + count, batch);
      count += batch.length;
    }
    if (!loading) {
      if (comparable && count === list.itemsCount) return list;
      await startLoading();
    }
    await items.indexLoad(list.ref);
    await db.transaction(async (tx) => {
      const lists = new BanListsRepository(tx);
      const locked = await lists.lock(list.ref);
      if (!locked) throw banListNotFound();
      // Another server process wrote to the list meanwhile: its ids would clash with the loaded ones.
      if (locked.nextItemId !== firstId) {
        throw new AppError('CONFLICT', 'The list changed while it was being synced. Please sync it again.');
      }
      await new BanListItemsRepository(tx).swapInLoad(list.ref);
      await lists.recordReplaced(list.ref, firstId, count);
    });
    return { ...list, itemsCount: count, firstItemId: firstId, nextItemId: firstId + count };
  } catch (err) {
    if (loading) await items.dropLoad(list.ref).catch(() => undefined);
    throw err;
  }
}
