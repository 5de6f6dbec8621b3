import {
  MAX_SNAPSHOTS_PER_USER,
  type Snapshot,
  type SnapshotKind,
  type SnapshotPolicy,
} from '@guardian/contract';
import type { Db, Queryable } from '../../db';
import { valueOf, type Live } from '../../live-setting';
import { AppError } from '../../app-error';
import type { Checked } from '../../cloudflare/create-once';
import {
  SnapshotsRepository,
  toSnapshotDto,
  type SnapshotDnsRecord,
  type SnapshotItem,
  type SnapshotList,
  type SnapshotRecord,
} from './snapshots.repository';

/** A list whose items a snapshot keeps: Guardian's id of it (its items' partition) and what to record. */
export interface ListToKeep extends SnapshotList {
  ref: number;
}

/** Who restores: the person, named as the items' history names them (their e-mail, or their API key). */
export interface RestoringPerson {
  userId: number;
  name: string;
}

/** A restored item's Cloudflare id when it was kept (its history's key then), and now. */
export interface ItemIdChange {
  keptItemId: string;
  itemId: string;
  value: string;
}

/** A kept list's items, as a restore reads them back. */
export interface KeptListItems {
  /** The next batch after `afterId`: the items whose expiry had not passed when the restore began. */
  after(afterId: number, limit: number): Promise<SnapshotItem[]>;
  /**
   * Writes their kept history again into list `ref`'s, under their new Cloudflare ids, in the caller's
   * transaction `db`: a deleted list's (Clean All's lists kept their own).
   */
  putBackHistory?(db: Queryable, ref: number, items: readonly ItemIdChange[]): Promise<void>;
}

/** How each kind is put back at Cloudflare; the modules that own lists and records provide them. */
export interface SnapshotRestorers {
  /**
   * Adds a kept list's items again (creating the list first when `recreate`), refreshes its mirror,
   * and gives the items back what they had (date, provenance, expiry, history) with a 'restored' event.
   */
  banList(
    person: RestoringPerson,
    list: SnapshotList,
    items: KeptListItems,
    options: { recreate: boolean },
  ): Promise<void>;
  dnsRecord(userId: number, record: SnapshotDnsRecord): Promise<void>;
}

const formatCount = (count: number) => count.toLocaleString('en-US');
const plural = (count: number, one: string) => `${formatCount(count)} ${one}${count === 1 ? '' : 's'}`;

const snapshotNotFound = () => new AppError('NOT_FOUND', 'Snapshot not found or expired.');

/**
 * What destructive actions kept before they removed anything, and putting it back. The snapshot is
 * taken from Guardian's mirror before Cloudflare is called, so a failed action leaves a snapshot that
 * restores nothing new (adding items Cloudflare still has only rewrites their comments).
 */
export class SnapshotsService {
  constructor(
    private readonly db: Db,
    private readonly retention: Live<number>,
  ) {}

  private get retentionMs(): number {
    return valueOf(this.retention);
  }

  /**
   * Keeps the mirror's items of `lists` (Clean All: every list; deleting a list: that one). With
   * `jobId`, a run of the same job again (its process died) adds to the snapshot its first run kept
   * (what that run had not emptied yet is there already; items added since are added): one click,
   * one snapshot, holding everything the click removed.
   */
  async keepBanLists(
    userId: number,
    kind: Extract<SnapshotKind, 'clean-all' | 'ban-list'>,
    lists: ListToKeep[],
    jobId?: string,
  ) {
    return this.db.transaction(async (tx) => {
      const snapshots = new SnapshotsRepository(tx);
      const earlier = jobId ? await snapshots.findByJob(jobId) : undefined;
      const kept: SnapshotList[] = earlier && 'lists' in earlier.target ? earlier.target.lists : [];
      const id =
        earlier?.id ??
        (await snapshots.create({
          userId,
          kind,
          summary: '',
          target: { lists: [] },
          listId: kind === 'ban-list' ? lists[0]?.listId : undefined,
          retentionMs: this.retentionMs,
          jobId,
        }));
      for (const { ref, ...list } of lists) {
        let index = kept.findIndex(
          (each) => each.accountRef === list.accountRef && each.listId === list.listId,
        );
        if (index < 0) index = kept.push({ ...list, items: 0 }) - 1;
        const copied = await snapshots.copyListItems(id, index, ref, earlier !== undefined);
        // A deleted list's history goes with it; Clean All's lists keep theirs.
        if (kind === 'ban-list') await snapshots.copyListHistory(id, index, ref);
        kept[index] = { ...kept[index]!, items: kept[index]!.items + copied };
      }
      const total = kept.reduce((sum, list) => sum + list.items, 0);
      const summary =
        kind === 'clean-all'
          ? `Clean All: ${plural(kept.length, 'list')}, ${plural(total, 'item')}`
          : `List "${kept[0]?.listName ?? ''}" (${plural(total, 'item')})`;
      await snapshots.setItems(id, total, { lists: kept }, summary);
      return id;
    });
  }

  /** Keeps a DNS record about to be deleted. */
  async keepDnsRecord(userId: number, record: SnapshotDnsRecord, label: string): Promise<string> {
    return new SnapshotsRepository(this.db).create({
      userId,
      kind: 'dns-record',
      summary: label,
      target: { record },
      zoneId: record.zoneId,
      recordId: record.recordId,
      items: 1,
      retentionMs: this.retentionMs,
    });
  }

  /** How long a snapshot can be restored, and how many a person keeps. */
  policy(): SnapshotPolicy {
    return {
      retention_hours: Math.round(this.retentionMs / 3_600_000),
      kept_per_person: MAX_SNAPSHOTS_PER_USER,
    };
  }

  async list(
    userId: number,
    filter: { kinds?: readonly SnapshotKind[]; zoneId?: string },
  ): Promise<Snapshot[]> {
    return (await new SnapshotsRepository(this.db).listForUser(userId, filter)).map(toSnapshotDto);
  }

  /**
   * Puts back what the snapshot kept. One restore at a time per snapshot, in any server process; a
   * restore that fails can be tried again (what it already added is added again harmlessly). An item
   * whose expiry passed while it was kept is left out (Guardian would remove it at once), and the
   * answer's outcome says how many.
   */
  async restore(
    person: RestoringPerson,
    id: string,
    restorers: SnapshotRestorers,
  ): Promise<Checked<Snapshot>> {
    const { userId } = person;
    const repository = new SnapshotsRepository(this.db);
    const snapshot = await repository.findOwned(userId, id);
    if (!snapshot) throw snapshotNotFound();
    if (snapshot.restoredAt) throw new AppError('CONFLICT', 'This snapshot has already been restored.');
    if (!(await repository.claim(snapshot.id))) {
      throw new AppError('CONFLICT', 'This snapshot is being restored or has already been restored.');
    }
    const now = new Date();
    let expired: number;
    try {
      expired = await repository.countExpired(snapshot.id, now);
      await this.putBack(person, snapshot, restorers, repository, now);
    } catch (err) {
      await repository.release(snapshot.id);
      throw err;
    }
    const restored = await repository.findOwned(userId, id);
    if (!restored) throw snapshotNotFound();
    const outcome =
      expired === 0
        ? undefined
        : `${plural(expired, 'item')} ${expired === 1 ? 'was' : 'were'} not restored: ${expired === 1 ? 'its' : 'their'} expiry had passed.`;
    return { value: toSnapshotDto(restored), outcome };
  }

  private async putBack(
    person: RestoringPerson,
    snapshot: SnapshotRecord,
    restorers: SnapshotRestorers,
    repository: SnapshotsRepository,
    now: Date,
  ): Promise<void> {
    if ('record' in snapshot.target) {
      await restorers.dnsRecord(person.userId, snapshot.target.record);
      return;
    }
    const deletedList = snapshot.kind === 'ban-list';
    for (const [index, list] of snapshot.target.lists.entries()) {
      await restorers.banList(
        person,
        list,
        {
          after: (afterId, limit) => repository.itemsAfter(snapshot.id, index, afterId, limit, now),
          putBackHistory: deletedList
            ? (db, ref, items) => new SnapshotsRepository(db).putBackHistory(snapshot.id, index, ref, items)
            : undefined,
        },
        { recreate: deletedList },
      );
    }
  }
}
