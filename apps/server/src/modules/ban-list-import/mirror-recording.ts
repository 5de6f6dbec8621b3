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
 * Imports a list's partition holds as tables of their own at most: each read of the list walks each
 * one's indexes beside the others'. Past it an import is recorded in batches; a sync makes the list
 * one table again.
 */
const MAX_ATTACHED_IMPORTS = 8;

/**
 * An import's items put in a list's mirror (under the list's turn, which the caller holds): when they
 * grow the list by much, in a table of their own attached to the list's partition (`recordAttached`);
 * else in batches of IMPORT_RECORD_BATCH, each its own transaction (PGlite runs one transaction at a time: a
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
      if (deferBuckets && (await this.canAttach())) await this.recordAttached(items);
      else await this.recordInBatches(items, deferBuckets);
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

  /** Whether the list's partition takes one more import's table (BanListItemsRepository.attachImport). */
  private async canAttach(): Promise<boolean> {
    return (await new BanListItemsRepository(this.db).attachedImports(this.list.ref)) < MAX_ATTACHED_IMPORTS;
  }

  /**
   * The items not yet in the mirror written into a table of their own under ids reserved for them,
   * indexed in bulk, and attached to the list's partition in one transaction (the list's pages and
   * counts see all of them at once). Costs about what a sync of these items alone does, where
   * recording them in batches kept every index of the list's items one row at a time.
   */
  private async recordAttached(items: readonly ImportedItem[]): Promise<void> {
    const { list } = this;
    const keyOf = (item: ImportedItem) => keyOfMirrorValue(list.kind, item.ip);
    const { fromId, missing } = await this.db.transaction(async (tx) => {
      const locked = await new BanListsRepository(tx).lock(list.ref);
      if (!locked) throw banListNotFound();
      const imports = new ListImportRepository(tx);
      // As in recordInBatches: while the next id has not moved, nothing was added.
      const present =
        locked.nextItemId === this.nextItemId
          ? new Set<string>()
          : await imports.existingKeys(list.ref, list.kind, items.map(keyOf));
      const missing = items.filter((item) => !present.has(keyOf(item)));
      await imports.reserveIds(list.ref, missing.length);
      return { fromId: locked.nextItemId, missing };
    });
    const toId = fromId + missing.length;
    this.nextItemId = toId;
    if (missing.length === 0) return;
    const mirror = new BanListItemsRepository(this.db);
    const by = { userId: this.by.userId, name: this.by.name, via: this.by.via ?? 'import' } as const;
    try {
      await mirror.startImport(list.ref, fromId, toId);
      for (let start = 0; start < missing.length; start += IMPORT_RECORD_BATCH) {
        const batch = missing.slice(start, start + IMPORT_RECORD_BATCH);
        await mirror.loadImport(list.ref, fromId + start, batch, by);
        this.told.progress(items.length - missing.length + start + batch.length, items.length);
      }
      await mirror.indexImport(list.ref, { lanes: this.db.kind === 'postgres' ? 2 : 1 });
      const attached = await this.db.transaction(async (tx) => {
        const locked = await new BanListsRepository(tx).lock(list.ref);
        if (!locked) throw banListNotFound();
        const items = new BanListItemsRepository(tx);
        await items.deferBuckets(list.ref);
        const count = await items.attachImport(list.ref, fromId, toId);
        const imports = new ListImportRepository(tx);
        await imports.recordAttached(list.ref, fromId, toId, count);
        // Until Cloudflare's operation completes: withdrawn if it does not, even by another process.
        if (count > 0) await imports.markUnconfirmed(list.ref, fromId, toId);
        this.nextItemId = locked.nextItemId;
        return count;
      });
      if (attached > 0) {
        this.pending.push(fromId);
        this.pendingItems += attached;
      }
    } finally {
      // Attached, it was renamed: this drops only an import's table left unattached by a failure.
      await mirror.dropImport(list.ref).catch(() => undefined);
    }
    this.told.changed();
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
