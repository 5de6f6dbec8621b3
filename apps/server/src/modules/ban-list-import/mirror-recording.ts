import type { Db } from '../../db';
import {
  BanListItemsRepository,
  banListNotFound,
  BanListsRepository,
  keyOfMirrorValue,
} from '../ban-list-mirror';
import type { BanListRecord, MirrorItem } from '../ban-list-mirror';
import { ListImportRepository } from './list-import.repository';

/** An item of an import as the mirror records it, with its expiry (ISO, null for never). */
export type ImportedItem = MirrorItem & { expiresAt: string | null };

/**
 * Items recorded in the mirror per transaction: the job counts them as it goes (its progress,
 * "5,000 of 40,000 items" and a rate), as a sync counts its pages.
 */
export const IMPORT_RECORD_BATCH = 5_000;

/**
 * An import's items put in a list's mirror (under the list's turn, which the caller holds), in
 * batches of IMPORT_RECORD_BATCH, each its own transaction (PGlite runs one transaction at a time: a
 * progress write waits for the one in progress). A write's items are recorded while Cloudflare's
 * bulk operation runs: until `confirm` they are pending, and `withdraw` removes them again (with
 * their history) should the operation not complete.
 */
export class MirrorRecording {
  /** Items recorded and confirmed (at Cloudflare). */
  confirmed = 0;
  /** The first ids of the ranges recorded since the last confirm (ban_list_unconfirmed_items). */
  private pending: number[] = [];
  /** Items recorded since the last confirm. */
  private pendingItems = 0;
  /** The list's next id after this recording's last batch: while it has not moved, nothing else was added. */
  private nextItemId: number;

  constructor(
    private readonly db: Db,
    private readonly list: BanListRecord,
    private readonly by: { userId: number; name: string; via?: 'import' | 'api' },
    private readonly told: {
      progress: (done: number, total: number) => void;
      /** Reads kept for a moment show the change (OwnedLists.changed). */
      changed: () => void;
    },
  ) {
    this.nextItemId = list.nextItemId;
  }

  async record(items: readonly ImportedItem[]): Promise<void> {
    // Items in more than one transaction that grow the list by a twelfth or more (migration 052's
    // measure) leave its order buckets for one cut after the last: placing each transaction's rows
    // in them cost about a third of the insert (migration 055).
    const deferBuckets =
      items.length > IMPORT_RECORD_BATCH && items.length * 12 >= this.list.itemsCount + items.length;
    try {
      await this.recordInBatches(items, deferBuckets);
    } catch (err) {
      // Else the list's next insert cuts them (migration 038), its pages read without them until then.
      if (deferBuckets) await this.cutBuckets().catch(() => undefined);
      throw err;
    }
    if (deferBuckets) await this.cutBuckets();
  }

  private async recordInBatches(items: readonly ImportedItem[], deferBuckets: boolean): Promise<void> {
    const { list } = this;
    for (let start = 0; start < items.length; start += IMPORT_RECORD_BATCH) {
      const batch = items.slice(start, start + IMPORT_RECORD_BATCH);
      await this.db.transaction(async (tx) => {
        const locked = await new BanListsRepository(tx).lock(list.ref);
        if (!locked) throw banListNotFound();
        if (deferBuckets) await new BanListItemsRepository(tx).deferBuckets(list.ref);
        // Items another write put in the mirror meanwhile (a sync that found them at Cloudflare) are
        // not recorded twice. Every write that adds to the mirror moves the list's next id, so while
        // it is where this recording left it nothing was added, and 89,000 lookups are saved.
        const present =
          locked.nextItemId === this.nextItemId
            ? new Set<string>()
            : await new ListImportRepository(tx).existingKeys(
                list.ref,
                list.kind,
                batch.map((item) => keyOfMirrorValue(list.kind, item.ip)),
              );
        const missing = batch.filter((item) => !present.has(keyOfMirrorValue(list.kind, item.ip)));
        const imports = new ListImportRepository(tx);
        await imports.insertImported(list.ref, locked.nextItemId, missing, this.by);
        if (missing.length > 0) {
          // Until Cloudflare's operation completes: withdrawn if it does not, even by another process.
          await imports.markUnconfirmed(list.ref, locked.nextItemId, locked.nextItemId + missing.length);
          this.pending.push(locked.nextItemId);
          this.pendingItems += missing.length;
        }
        this.nextItemId = locked.nextItemId + missing.length;
      });
      this.told.changed();
      this.told.progress(start + batch.length, items.length);
    }
  }

  /**
   * The list's order buckets cut anew from its items, one order a transaction: each walks that
   * order's index once (half a second for 500,000 items on PGlite), and the database answers others
   * in between. Meanwhile pages in an order without buckets walk from its start (pageInBuckets).
   */
  private async cutBuckets(): Promise<void> {
    const { ref } = this.list;
    const orders = await new BanListItemsRepository(this.db).bucketOrders(ref);
    for (const order of orders) {
      await this.db.transaction(async (tx) => {
        if (!(await new BanListsRepository(tx).lock(ref))) throw banListNotFound();
        await new BanListItemsRepository(tx).cutBuckets(ref, order);
      });
    }
  }

  /** Cloudflare holds what was recorded since the last confirm. */
  async confirm(): Promise<void> {
    await new ListImportRepository(this.db).confirm(this.list.ref, this.pending);
    this.confirmed += this.pendingItems;
    this.pending = [];
    this.pendingItems = 0;
  }

  /** Removes what was recorded since the last confirm, and its history: Cloudflare does not hold it. */
  async withdraw(): Promise<void> {
    if (this.pending.length === 0) return;
    const fromIds = this.pending;
    await this.db.transaction(async (tx) => {
      if (!(await new BanListsRepository(tx).lock(this.list.ref))) throw banListNotFound();
      await new ListImportRepository(tx).withdrawUnconfirmed(this.list.ref, fromIds);
    });
    this.pending = [];
    this.pendingItems = 0;
    this.told.changed();
  }
}

/**
 * Withdraws what an import recorded ahead of a Cloudflare operation it did not see end (its server
 * process died): run under the list's turn before the list's next import. Answers how many items;
 * the caller has the list read back, as Cloudflare may hold them.
 */
export async function withdrawLeftovers(db: Db, ref: number): Promise<number> {
  return db.transaction(async (tx) => {
    if (!(await new BanListsRepository(tx).lock(ref))) throw banListNotFound();
    return new ListImportRepository(tx).withdrawUnconfirmed(ref);
  });
}
