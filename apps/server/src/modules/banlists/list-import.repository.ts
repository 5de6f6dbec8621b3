import type { BanListKind } from '@guardian/contract';
import type { Queryable } from '../../db';

/** A previewed item as kept until it is applied: value, comment, expiry (ISO, null for never, '' for the import's choice). */
export type StoredImportItem = [value: string, comment: string, expiresAt: string | null];

export interface StoredImport {
  items: StoredImportItem[];
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
            `SELECT lower(split_part(ip, ' -> ', 1)) AS key FROM ban_list_items
             WHERE ban_list_ref = $1 AND lower(split_part(ip, ' -> ', 1)) = ANY($2::text[])`,
            [ref, keys],
          )
        : await this.db.query<{ key: string }>(
            `SELECT item.ip AS key FROM unnest($2::text[]) AS wanted (key)
             JOIN ban_list_items AS item ON item.ban_list_ref = $1 AND item.ip = wanted.key`,
            [ref, keys],
          );
    return new Set(rows.map((row) => row.key));
  }

  /** Keeps a preview; previews past their time are dropped on the way. */
  async store(
    id: string,
    userId: number,
    ref: number,
    items: readonly StoredImportItem[],
    expiresAt: Date,
  ): Promise<void> {
    await this.db.query('DELETE FROM ban_list_imports WHERE expires_at < now()');
    await this.db.query(
      `INSERT INTO ban_list_imports (id, user_id, ban_list_ref, expires_at, items, item_count)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, userId, ref, expiresAt, JSON.stringify(items), items.length],
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
  async items(id: string, userId: number, ref: number): Promise<StoredImportItem[] | undefined> {
    const [row] = await this.db.query<{ items: string }>(
      'SELECT items FROM ban_list_imports WHERE id = $1 AND user_id = $2 AND ban_list_ref = $3',
      [id, userId, ref],
    );
    return row && (JSON.parse(row.items) as StoredImportItem[]);
  }

  /** The applied preview is no longer needed. */
  async remove(id: string): Promise<void> {
    await this.db.query('DELETE FROM ban_list_imports WHERE id = $1', [id]);
  }

  /**
   * Marks the mirror's items with these values as added by this import (provenance, migration 019)
   * and records each one's 'added' event; answers how many were marked. Only items the sync found
   * with no provenance of their own ('cloudflare') are marked.
   */
  async markImported(
    ref: number,
    values: readonly string[],
    expiries: readonly (string | null)[],
    by: { userId: number; name: string },
  ): Promise<number> {
    const rows = await this.db.query<{ item_id: string }>(
      `WITH marked AS (
         UPDATE ban_list_items AS item
         SET added_via = 'import', added_by = $4, added_by_user = $5, expires_at = imported.expires_at
         FROM unnest($2::text[], $3::timestamptz[]) AS imported (value, expires_at)
         WHERE item.ban_list_ref = $1 AND item.ip = imported.value AND item.added_via = 'cloudflare'
         RETURNING item.item_id, item.ip, item.expires_at
       ), recorded AS (
         INSERT INTO ban_list_item_history (ban_list_ref, item_id, value, event, user_id, actor, added_via, expires_at)
         SELECT $1, item_id, ip, 'added', $5, $4, 'import', expires_at FROM marked
       )
       SELECT item_id FROM marked`,
      [ref, values, expiries, by.name, by.userId],
    );
    return rows.length;
  }
}
