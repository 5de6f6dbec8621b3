import { randomUUID } from 'node:crypto';
import {
  MAX_SNAPSHOTS_PER_USER,
  type BanListKind,
  type Snapshot,
  type SnapshotKind,
} from '@guardian/contract';
import type { Queryable } from '../../db';
import { mirrorKeySql, type KeptItem } from '../ban-list-mirror';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A list a `clean-all` or `ban-list` snapshot kept the items of. */
export interface SnapshotList {
  accountRef: number;
  /** Cloudflare's list id when the snapshot was taken (a restored deleted list gets a new one). */
  listId: string;
  listName: string;
  kind: BanListKind;
  items: number;
}

/** A deleted DNS record as Cloudflare's create call takes it again. */
export interface SnapshotDnsRecord {
  accountRef: number;
  zoneId: string;
  recordId: string;
  /** The create body, without zone_id. */
  body: Record<string, unknown>;
}

export type SnapshotTarget = { lists: SnapshotList[] } | { record: SnapshotDnsRecord };

export interface SnapshotRecord {
  id: string;
  userId: number;
  kind: SnapshotKind;
  summary: string;
  target: SnapshotTarget;
  items: number;
  zoneId: string | null;
  recordId: string | null;
  listId: string | null;
  createdAt: Date;
  expiresAt: Date;
  restoredAt: Date | null;
}

// Named as the record's fields: a row is a SnapshotRecord as it comes.
const COLUMNS = `id, user_id AS "userId", kind, summary, target, items, zone_id AS "zoneId", record_id AS "recordId",
  list_id AS "listId", created_at AS "createdAt", expires_at AS "expiresAt", restored_at AS "restoredAt"`;

export function toSnapshotDto(record: SnapshotRecord): Snapshot {
  return {
    id: record.id,
    kind: record.kind,
    summary: record.summary,
    items: record.items,
    list_id: record.listId,
    zone_id: record.zoneId,
    record_id: record.recordId,
    created_at: record.createdAt.toISOString(),
    expires_at: record.expiresAt.toISOString(),
    restored_at: record.restoredAt?.toISOString() ?? null,
  };
}

export interface NewSnapshot {
  userId: number;
  kind: SnapshotKind;
  summary: string;
  target: SnapshotTarget;
  zoneId?: string;
  recordId?: string;
  listId?: string;
  /** Known up front for a DNS record; list snapshots set it after copying (`setItems`). */
  items?: number;
  retentionMs: number;
  /** The job that keeps it (Clean All), found again by a run of the same job (`findByJob`). */
  jobId?: string;
}

/**
 * An item a restore adds again, as it was when it was kept (migration 030; older snapshots kept less):
 * what the restore gives it back (`KeptItem`), and its value and comment.
 */
export interface SnapshotItem extends Omit<KeptItem, 'key'> {
  id: number;
  value: string;
  comment: string;
}

/** The snapshots table: what destructive actions kept, per person, until it expires. */
export class SnapshotsRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Records a snapshot and forgets the expired ones and the person's oldest beyond the cap, so the
   * table stays bounded. Run it in the transaction that also copies the items (`copyListItems`).
   */
  async create(snapshot: NewSnapshot): Promise<string> {
    const id = randomUUID();
    await this.db.query('DELETE FROM snapshots WHERE expires_at < now()');
    await this.db.query(
      `DELETE FROM snapshots WHERE user_id = $1 AND id IN (
         SELECT id FROM snapshots WHERE user_id = $1 ORDER BY created_at DESC OFFSET $2)`,
      [snapshot.userId, MAX_SNAPSHOTS_PER_USER - 1],
    );
    await this.db.query(
      `INSERT INTO snapshots (id, user_id, kind, summary, target, zone_id, record_id, list_id, items, expires_at, job_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + $10 * interval '1 millisecond', $11)`,
      [
        id,
        snapshot.userId,
        snapshot.kind,
        snapshot.summary,
        JSON.stringify(snapshot.target),
        snapshot.zoneId ?? null,
        snapshot.recordId ?? null,
        snapshot.listId ?? null,
        snapshot.items ?? 0,
        snapshot.retentionMs,
        snapshot.jobId ?? null,
      ],
    );
    return id;
  }

  /** The snapshot a job kept on an earlier run, locked until the transaction ends. */
  async findByJob(jobId: string): Promise<SnapshotRecord | undefined> {
    const [snapshot] = await this.db.query<SnapshotRecord>(
      `SELECT ${COLUMNS} FROM snapshots WHERE job_id = $1 FOR UPDATE`,
      [jobId],
    );
    return snapshot;
  }

  /**
   * Copies the mirror's items of a list into the snapshot, in the database, each as the console shows
   * it (its date, who added it, how, its expiry) with its Cloudflare id; answers how many. `added`:
   * to a snapshot a job's earlier run kept, only the values it does not keep yet for that list, by a
   * hash anti-join (the statistics do not know the earlier run's rows: a nested loop would read them
   * all once per item), so in the caller's transaction nested loops are off from here on.
   */
  async copyListItems(
    snapshotId: string,
    listIndex: number,
    banListRef: number,
    added = false,
  ): Promise<number> {
    if (added) await this.db.exec('SET LOCAL enable_nestloop = off');
    const notKept = added
      ? `AND NOT EXISTS (SELECT 1 FROM snapshot_items AS kept
           WHERE kept.snapshot_id = $1 AND kept.list_index = $2 AND kept.value = item.ip)`
      : '';
    const [row] = await this.db.query<{ copied: number }>(
      `WITH copied AS (
         INSERT INTO snapshot_items (snapshot_id, list_index, value, comment, item_id, created_on,
                                     added_via, added_by, added_by_user, expires_at)
         SELECT $1, $2, ip, comment, item_id, coalesce(first_created_on, created_on),
                added_via, added_by, added_by_user, expires_at
         FROM ban_list_items AS item WHERE ban_list_ref = $3 ${notKept}
         ORDER BY id
         RETURNING 1)
       SELECT count(*)::int AS copied FROM copied`,
      [snapshotId, listIndex, banListRef],
    );
    return row?.copied ?? 0;
  }

  /**
   * Copies the history of a list's items into the snapshot (a deleted list's goes with it, migration
   * 027); only its items' values', not the history of values removed before. An item's history is its
   * value's (migration 057), whatever item id each event was written under: kept here under the
   * item's id, which `putBackHistory` finds it by.
   */
  async copyListHistory(snapshotId: string, listIndex: number, banListRef: number): Promise<void> {
    await this.db.exec('SET LOCAL enable_nestloop = off');
    await this.db.query(
      `INSERT INTO snapshot_item_history (snapshot_id, list_index, item_id, at, event, user_id, actor, added_via, expires_at)
       SELECT $1, $2, item.item_id, event.at, event.event, event.user_id, event.actor, event.added_via, event.expires_at
       FROM ban_list_item_history AS event
       JOIN ban_list_items AS item ON item.ban_list_ref = $3 AND ${mirrorKeySql('item.ip')} = ${mirrorKeySql('event.value')}
       WHERE event.ban_list_ref = $3
       ORDER BY event.id`,
      [snapshotId, listIndex, banListRef],
    );
  }

  /** Records what `copyListItems` copied. */
  async setItems(snapshotId: string, items: number, target: SnapshotTarget, summary: string): Promise<void> {
    await this.db.query('UPDATE snapshots SET items = $2, target = $3, summary = $4 WHERE id = $1', [
      snapshotId,
      items,
      JSON.stringify(target),
      summary,
    ]);
  }

  /** The person's snapshots that can still be restored or were restored, newest first. */
  listForUser(
    userId: number,
    filter: { kinds?: readonly SnapshotKind[]; zoneId?: string },
  ): Promise<SnapshotRecord[]> {
    return this.db.query<SnapshotRecord>(
      `SELECT ${COLUMNS} FROM snapshots
       WHERE user_id = $1 AND expires_at > now()
         AND ($2::text[] IS NULL OR kind = ANY($2::text[]))
         AND ($3::text IS NULL OR zone_id = $3)
       ORDER BY created_at DESC LIMIT $4`,
      [userId, filter.kinds ?? null, filter.zoneId ?? null, MAX_SNAPSHOTS_PER_USER],
    );
  }

  async findOwned(userId: number, id: string): Promise<SnapshotRecord | undefined> {
    // Any text up to the bound may be asked for; only a UUID can be one.
    if (!UUID.test(id)) return undefined;
    const [snapshot] = await this.db.query<SnapshotRecord>(
      `SELECT ${COLUMNS} FROM snapshots WHERE user_id = $1 AND id = $2 AND expires_at > now()`,
      [userId, id],
    );
    return snapshot;
  }

  /**
   * Marks the snapshot restored if nobody has yet: the one restore that gets `true` does the work, in
   * any server process. A failed restore gives it back (`release`).
   */
  async claim(id: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE snapshots SET restored_at = now() WHERE id = $1 AND restored_at IS NULL AND expires_at > now()
       RETURNING id`,
      [id],
    );
    return rows.length === 1;
  }

  async release(id: string): Promise<void> {
    await this.db.query('UPDATE snapshots SET restored_at = NULL WHERE id = $1', [id]);
  }

  /** The next batch of a list's kept items after `afterId` whose expiry had not passed at `now`. */
  itemsAfter(
    snapshotId: string,
    listIndex: number,
    afterId: number,
    limit: number,
    now: Date,
  ): Promise<SnapshotItem[]> {
    return this.db.query<SnapshotItem>(
      `SELECT id, value, comment, item_id AS "itemId", created_on AS "createdOn", added_via AS "addedVia",
              added_by AS "addedBy", added_by_user AS "addedByUser", expires_at AS "expiresAt"
       FROM snapshot_items
       WHERE snapshot_id = $1 AND list_index = $2 AND id > $3 AND (expires_at IS NULL OR expires_at > $5)
       ORDER BY id LIMIT $4`,
      [snapshotId, listIndex, afterId, limit, now],
    );
  }

  /** How many of the snapshot's items had expired at `now` (a restore leaves them out). */
  async countExpired(snapshotId: string, now: Date): Promise<number> {
    const [row] = await this.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM snapshot_items WHERE snapshot_id = $1 AND expires_at <= $2',
      [snapshotId, now],
    );
    return row?.count ?? 0;
  }

  /**
   * Writes the kept history of these items of a list into list `ref`'s history again, under their new
   * Cloudflare ids, in the order it happened: one statement, no event passes through Node.
   */
  async putBackHistory(
    snapshotId: string,
    listIndex: number,
    ref: number,
    items: readonly { keptItemId: string; itemId: string; value: string }[],
  ): Promise<void> {
    if (items.length === 0) return;
    await this.db.query(
      `INSERT INTO ban_list_item_history (ban_list_ref, item_id, value, at, event, user_id, actor, added_via, expires_at)
       SELECT $3, item.item_id, item.value, kept.at, kept.event, kept.user_id, kept.actor, kept.added_via, kept.expires_at
       FROM snapshot_item_history AS kept
       JOIN unnest($4::text[], $5::text[], $6::text[]) AS item (kept_item_id, item_id, value)
         ON kept.item_id = item.kept_item_id
       WHERE kept.snapshot_id = $1 AND kept.list_index = $2
       ORDER BY kept.id`,
      [
        snapshotId,
        listIndex,
        ref,
        items.map((item) => item.keptItemId),
        items.map((item) => item.itemId),
        items.map((item) => item.value),
      ],
    );
  }
}
