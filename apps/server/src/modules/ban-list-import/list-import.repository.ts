import {
  BAN_LIST_IMPORT_PREVIEW_BYTES_KEPT_MAX,
  BAN_LIST_IMPORT_PREVIEWS_KEPT_MAX,
  type BanListKind,
} from '@guardian/contract';
import type { Queryable } from '../../db';
import { ensurePartition, type MirrorItem } from '../ban-list-mirror';
import { mirrorKeySql } from '../ban-list-mirror';

/** A previewed item as kept until it is applied: value, comment, expiry (ISO, null for never, '' for the import's choice). */
export type StoredImportItem = [value: string, comment: string, expiresAt: string | null];

export interface StoredImport {
  items: StoredImportItem[];
  /** The list's next item id when it was previewed (null for a preview kept before migration 028). */
  listNextItemId: number | null;
}

/** The SQL of imports: the previews (migration 020) and the mirror lookups and marks an import needs. */
export class ListImportRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Which of `keys` (items' upsert keys, see list-item-value.ts) the list's mirror has. Values are
   * stored in their canonical text, so for every kind but redirect the key is the value (one walk of
   * the value index per key); a redirect's key is its source, lower-case.
   */
  async existingKeys(ref: number, kind: BanListKind, keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows =
      kind === 'redirect'
        ? await this.db.query<{ key: string }>(
            `SELECT ${mirrorKeySql('ip')} AS key FROM ban_list_items
             WHERE ban_list_ref = $1 AND ${mirrorKeySql('ip')} = ANY($2::text[])`,
            [ref, keys],
          )
        : await this.db.query<{ key: string }>(
            `SELECT item.ip AS key FROM unnest($2::text[]) AS wanted (key)
             JOIN ban_list_items AS item ON item.ban_list_ref = $1 AND item.ip = wanted.key`,
            [ref, keys],
          );
    return new Set(rows.map((row) => row.key));
  }

  /**
   * Keeps a preview, and of the person's others not yet confirmed the newest that fit beside it within
   * `kept` (count and bytes): the older are dropped, as are previews past their time. In the caller's
   * transaction: the person's row is locked, so previews stored at once cannot pass the bounds together.
   */
  async store(
    id: string,
    userId: number,
    list: { ref: number; nextItemId: number },
    items: readonly StoredImportItem[],
    expiresAt: Date,
    kept = { previews: BAN_LIST_IMPORT_PREVIEWS_KEPT_MAX, bytes: BAN_LIST_IMPORT_PREVIEW_BYTES_KEPT_MAX },
  ): Promise<void> {
    const json = JSON.stringify(items);
    await this.db.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
    await this.db.query('DELETE FROM ban_list_imports WHERE expires_at < now()');
    await this.db.query(
      `DELETE FROM ban_list_imports WHERE id IN (
         SELECT id FROM (
           SELECT id, row_number() OVER newest AS place, sum(octet_length(items)) OVER newest AS bytes
           FROM ban_list_imports WHERE user_id = $1 AND applied_at IS NULL
           WINDOW newest AS (ORDER BY created_at DESC, id DESC)
         ) AS older WHERE place >= $2 OR bytes > $3
       )`,
      [userId, kept.previews, kept.bytes - Buffer.byteLength(json)],
    );
    await this.db.query(
      `INSERT INTO ban_list_imports (id, user_id, ban_list_ref, expires_at, items, item_count, list_next_item_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, userId, list.ref, expiresAt, json, items.length, list.nextItemId],
    );
  }

  /**
   * Claims the person's preview of the list for applying: once, and only before it expires.
   * Undefined when there is no such preview (another person's, expired, or applied already).
   */
  async claim(id: string, userId: number, ref: number): Promise<number | undefined> {
    const [row] = await this.db.query<{ item_count: number }>(
      `UPDATE ban_list_imports SET applied_at = now()
       WHERE id = $1 AND user_id = $2 AND ban_list_ref = $3 AND applied_at IS NULL AND expires_at > now()
       RETURNING item_count`,
      [id, userId, ref],
    );
    return row?.item_count;
  }

  /** A claimed preview's items (for the job applying it). */
  async items(id: string, userId: number, ref: number): Promise<StoredImport | undefined> {
    const [row] = await this.db.query<{ items: string; list_next_item_id: number | null }>(
      `SELECT items, list_next_item_id FROM ban_list_imports
       WHERE id = $1 AND user_id = $2 AND ban_list_ref = $3`,
      [id, userId, ref],
    );
    return (
      row && {
        items: JSON.parse(row.items) as StoredImportItem[],
        listNextItemId: row.list_next_item_id,
      }
    );
  }

  /** The applied preview is no longer needed. */
  async remove(id: string): Promise<void> {
    await this.db.query('DELETE FROM ban_list_imports WHERE id = $1', [id]);
  }

  /**
   * Records the imported items Cloudflare now holds (read back with their Cloudflare ids) in the
   * mirror, numbered on from the list's next id, with their provenance (migration 019) and an
   * 'added' event each, and counts them in the list, in the caller's transaction (the list locked).
   */
  async insertImported(
    ref: number,
    firstId: number,
    items: readonly (MirrorItem & { expiresAt: string | null })[],
    by: { userId: number; name: string; via?: 'import' | 'api' },
  ): Promise<void> {
    if (items.length === 0) return;
    await ensurePartition(this.db, ref);
    await this.db.query(
      `WITH added AS (
         INSERT INTO ban_list_items (ban_list_ref, id, item_id, ip, comment, created_on, ip_sort,
                                     added_via, added_by, added_by_user, expires_at)
         SELECT $1, $2::bigint - 1 + ordinality, item_id, ip, comment, created_on, ip_sort::inet,
                $11, $8, $9, expires_at
         FROM unnest($3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::text[], $10::timestamptz[])
              WITH ORDINALITY AS item (item_id, ip, comment, created_on, ip_sort, expires_at, ordinality)
         RETURNING item_id, ip, expires_at
       )
       INSERT INTO ban_list_item_history (ban_list_ref, item_id, value, event, user_id, actor, added_via, expires_at)
       SELECT $1, item_id, ip, 'added', $9, $8, $11, expires_at FROM added`,
      [
        ref,
        firstId,
        items.map((item) => item.itemId),
        items.map((item) => item.ip),
        items.map((item) => item.comment),
        items.map((item) => item.createdOn),
        items.map((item) => item.ipSort),
        by.name,
        by.userId,
        items.map((item) => item.expiresAt),
        by.via ?? 'import',
      ],
    );
    await this.db.query(
      `UPDATE ban_lists SET items_count = items_count + $2::integer, next_item_id = next_item_id + $2::integer,
              items_version = items_version + 1
       WHERE id = $1`,
      [ref, items.length],
    );
  }

  /** Reserves `count` ids for an import's items built outside the mirror (BanListItemsRepository.startImport). */
  async reserveIds(ref: number, count: number): Promise<void> {
    await this.db.query('UPDATE ban_lists SET next_item_id = next_item_id + $2::integer WHERE id = $1', [
      ref,
      count,
    ]);
  }

  /**
   * The history and the count of `count` items an import attached with ids [fromId, toId)
   * (BanListItemsRepository.attachImport), as `insertImported` writes them for items it inserts. In
   * the order of the values' keys: the history's index (migration 057) is filled in its own order, not
   * at random (89,000 events, PostgreSQL: 1.1 -> 0.7 s when its index was of item ids, in their order).
   */
  async recordAttached(ref: number, fromId: number, toId: number, count: number): Promise<void> {
    await this.db.query(
      `INSERT INTO ban_list_item_history (ban_list_ref, item_id, value, event, user_id, actor, added_via, expires_at)
       SELECT $1, item_id, ip, 'added', added_by_user, added_by, added_via, expires_at FROM ban_list_items
       WHERE ban_list_ref = $1 AND id >= $2::bigint AND id < $3::bigint ORDER BY ${mirrorKeySql('ip')}`,
      [ref, fromId, toId],
    );
    await this.db.query(
      `UPDATE ban_lists SET items_count = items_count + $2::integer, items_version = items_version + 1 WHERE id = $1`,
      [ref, count],
    );
  }

  /** Marks the ids [fromId, toId) as recorded ahead of Cloudflare's operation (migration 051). */
  async markUnconfirmed(ref: number, fromId: number, toId: number): Promise<void> {
    await this.db.query(
      'INSERT INTO ban_list_unconfirmed_items (ban_list_ref, from_id, to_id) VALUES ($1, $2, $3)',
      [ref, fromId, toId],
    );
  }

  /** Cloudflare completed the write of the ranges starting at `fromIds`. */
  async confirm(ref: number, fromIds: readonly number[]): Promise<void> {
    if (fromIds.length === 0) return;
    await this.db.query(
      'DELETE FROM ban_list_unconfirmed_items WHERE ban_list_ref = $1 AND from_id = ANY($2::bigint[])',
      [ref, fromIds],
    );
  }

  /**
   * Removes the items of the list's unconfirmed ranges (those starting at `fromIds`, or all) and their
   * history, counts them out of the list (its next id stays: an id is never reused) and drops the
   * ranges, in the caller's transaction (the list locked): their write did not complete at Cloudflare.
   * Answers how many items went.
   */
  async withdrawUnconfirmed(ref: number, fromIds?: readonly number[]): Promise<number> {
    const ranges = await this.db.query<{ from_id: number; to_id: number }>(
      `DELETE FROM ban_list_unconfirmed_items
       WHERE ban_list_ref = $1 AND ($2::bigint[] IS NULL OR from_id = ANY($2::bigint[]))
       RETURNING from_id, to_id`,
      [ref, fromIds ?? null],
    );
    if (ranges.length === 0) return 0;
    const params = [ref, ranges.map((range) => range.from_id), ranges.map((range) => range.to_id)];
    const inRanges = `EXISTS (SELECT 1 FROM unnest($2::bigint[], $3::bigint[]) AS r (from_id, to_id)
                              WHERE item.id >= r.from_id AND item.id < r.to_id)`;
    // Their events alone: found by value (migration 057), the value's earlier ones are kept.
    await this.db.query(
      `DELETE FROM ban_list_item_history AS event USING ban_list_items AS item
       WHERE event.ban_list_ref = $1 AND item.ban_list_ref = $1 AND ${inRanges}
         AND ${mirrorKeySql('event.value')} = ${mirrorKeySql('item.ip')} AND event.item_id = item.item_id`,
      params,
    );
    const [removed] = await this.db.query<{ count: number }>(
      `WITH removed AS (DELETE FROM ban_list_items AS item WHERE ban_list_ref = $1 AND ${inRanges} RETURNING 1)
       SELECT count(*)::int AS count FROM removed`,
      params,
    );
    await this.db.query(
      `UPDATE ban_lists SET items_count = items_count - $2::integer, items_version = items_version + 1
       WHERE id = $1`,
      [ref, removed!.count],
    );
    return removed!.count;
  }
}
