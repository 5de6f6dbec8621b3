import type { BanListKind, BanListPurpose } from '@guardian/contract';
import { PREPARED, type Queryable } from '../../db';

export interface BanListRecord {
  /** Guardian's id of the list (ban_lists.id): the items' partition key. */
  ref: number;
  accountRef: number;
  accountName: string;
  /** Cloudflare's account id. */
  accountId: string;
  /** Cloudflare's list id. */
  listId: string;
  listName: string;
  kind: BanListKind;
  /** What the person said the list is for; null until they say (then inferred from the name). */
  purpose: BanListPurpose | null;
  /** What the WAF rules that use the list say it is for (migration 036); null when none or they disagree. */
  rulePurpose: BanListPurpose | null;
  itemsCount: number;
  itemsVersion: number;
  /** The items' ids run from here to nextItemId - 1, less the deleted ones (the holes). */
  firstItemId: number;
  nextItemId: number;
}

// The columns are named as the record's fields: a row is a BanListRecord as it comes.
const SELECT_LISTS = `
  SELECT bl.id AS ref, bl.account_ref AS "accountRef", a.account_name AS "accountName",
         a.account_id AS "accountId", bl.list_id AS "listId", bl.list_name AS "listName", bl.kind, bl.purpose,
         bl.rule_purpose AS "rulePurpose", bl.items_count AS "itemsCount", bl.items_version AS "itemsVersion",
         bl.first_item_id AS "firstItemId", bl.next_item_id AS "nextItemId"
  FROM ban_lists bl JOIN cloudflare_accounts a ON a.id = bl.account_ref`;

/** A list as Cloudflare lists it, for the local mirror of an account's lists. */
export interface CloudflareListSummary {
  id: string;
  name: string;
  kind: BanListKind;
}

/**
 * The only SQL on ban_lists. Every read takes the user id and joins the user's accounts: a list is only
 * ever found through its owner, so another person's ids are simply not found.
 */
export class BanListsRepository {
  constructor(private readonly db: Queryable) {}

  listForUser(userId: number): Promise<BanListRecord[]> {
    return this.db.query<BanListRecord>(`${SELECT_LISTS} WHERE a.user_id = $1 ORDER BY bl.id`, [userId]);
  }

  async findOwned(userId: number, ref: number): Promise<BanListRecord | undefined> {
    const [list] = await this.db.query<BanListRecord>(`${SELECT_LISTS} WHERE a.user_id = $1 AND bl.id = $2`, [
      userId,
      ref,
    ]);
    return list;
  }

  async findOwnedByListId(userId: number, listId: string): Promise<BanListRecord | undefined> {
    const [list] = await this.db.query<BanListRecord>(
      `${SELECT_LISTS} WHERE a.user_id = $1 AND bl.list_id = $2`,
      [userId, listId],
      PREPARED,
    );
    return list;
  }

  /**
   * Records a list Cloudflare just created. The mirror may hold it already (a lists update that ran
   * while Cloudflare created it, or an id Cloudflare answered twice): then that row takes the name and
   * kind, keeps its items, and is answered.
   */
  async upsert(
    accountRef: number,
    list: CloudflareListSummary,
  ): Promise<{ ref: number; itemsCount: number; purpose: BanListPurpose | null }> {
    const [row] = await this.db.query<{ id: number; items_count: number; purpose: BanListPurpose | null }>(
      `INSERT INTO ban_lists (account_ref, list_id, list_name, kind) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_ref, list_id) DO UPDATE SET list_name = EXCLUDED.list_name, kind = EXCLUDED.kind
       RETURNING id, items_count, purpose`,
      [accountRef, list.id, list.name, list.kind],
    );
    return { ref: row!.id, itemsCount: row!.items_count, purpose: row!.purpose };
  }

  /**
   * Records what the rules of one zone of the account say its lists are for: `purposes` by list name
   * (a name not in it is left as it was: another zone's rules may use it).
   */
  async setRulePurposes(
    accountRef: number,
    purposes: ReadonlyMap<string, BanListPurpose | null>,
  ): Promise<void> {
    if (purposes.size === 0) return;
    await this.db.query(
      `UPDATE ban_lists bl SET rule_purpose = p.purpose
       FROM unnest($2::text[], $3::text[]) AS p (list_name, purpose)
       WHERE bl.account_ref = $1 AND bl.list_name = p.list_name AND bl.rule_purpose IS DISTINCT FROM p.purpose`,
      [accountRef, [...purposes.keys()], [...purposes.values()]],
    );
  }

  /** What the person says the list is for (null: not said, inferred from the name). */
  async setPurpose(ref: number, purpose: BanListPurpose | null): Promise<void> {
    await this.db.query('UPDATE ban_lists SET purpose = $2 WHERE id = $1', [ref, purpose]);
  }

  async delete(ref: number): Promise<void> {
    await this.db.query('DELETE FROM ban_lists WHERE id = $1', [ref]);
  }

  /**
   * Makes an account's local lists equal to `lists`: adds the new ones, renames the changed ones and
   * deletes the rest. Answers the ids of the deleted lists, whose item partitions the caller drops.
   */
  async replaceAccountLists(accountRef: number, lists: readonly CloudflareListSummary[]): Promise<number[]> {
    const ids = lists.map((list) => list.id);
    const removed = await this.db.query<{ id: number }>(
      'DELETE FROM ban_lists WHERE account_ref = $1 AND NOT (list_id = ANY($2::text[])) RETURNING id',
      [accountRef, ids],
    );
    const names = lists.map((list) => list.name);
    const kinds = lists.map((list) => list.kind);
    await this.db.query(
      `UPDATE ban_lists SET list_name = pulled.name, kind = pulled.kind
       FROM unnest($2::text[], $3::text[], $4::text[]) AS pulled (list_id, name, kind)
       WHERE ban_lists.account_ref = $1 AND ban_lists.list_id = pulled.list_id
         AND (ban_lists.list_name, ban_lists.kind) IS DISTINCT FROM (pulled.name, pulled.kind)`,
      [accountRef, ids, names, kinds],
    );
    // Only the new ones: ON CONFLICT would use up an id for every list already there.
    await this.db.query(
      `INSERT INTO ban_lists (account_ref, list_id, list_name, kind)
       SELECT $1, pulled.list_id, pulled.name, pulled.kind
       FROM unnest($2::text[], $3::text[], $4::text[]) AS pulled (list_id, name, kind)
       WHERE NOT EXISTS (SELECT 1 FROM ban_lists WHERE account_ref = $1 AND list_id = pulled.list_id)`,
      [accountRef, ids, names, kinds],
    );
    return removed.map((row) => row.id);
  }

  /**
   * Locks the list's row until the transaction ends, so item writes, syncs and the counts they keep
   * happen one after another. Answers the next item id, or undefined when the list is gone.
   */
  async lock(ref: number): Promise<{ nextItemId: number } | undefined> {
    const [row] = await this.db.query<{ next_item_id: number }>(
      'SELECT next_item_id FROM ban_lists WHERE id = $1 FOR UPDATE',
      [ref],
    );
    return row && { nextItemId: row.next_item_id };
  }

  // Every change of the items bumps items_version: cached pages of the list are then never served again.

  /** An item with id `id` (the list's next id) was added. */
  async recordAdded(ref: number, id: number): Promise<void> {
    await this.db.query(
      `UPDATE ban_lists SET items_count = items_count + 1, next_item_id = $2::bigint + 1, items_version = items_version + 1
       WHERE id = $1`,
      [ref, id],
    );
  }

  /** An item was deleted (its id is recorded as a hole by the items repository). */
  async recordDeleted(ref: number): Promise<void> {
    await this.db.query(
      'UPDATE ban_lists SET items_count = items_count - 1, items_version = items_version + 1 WHERE id = $1',
      [ref],
    );
  }

  /** `count` items were deleted at once. */
  async recordDeletedMany(ref: number, count: number): Promise<void> {
    await this.db.query(
      'UPDATE ban_lists SET items_count = items_count - $2::integer, items_version = items_version + 1 WHERE id = $1',
      [ref, count],
    );
  }

  /** Some items changed in place. */
  async recordUpdated(ref: number): Promise<void> {
    await this.db.query('UPDATE ban_lists SET items_version = items_version + 1 WHERE id = $1', [ref]);
  }

  /** The items were replaced by `count` items numbered from `firstItemId` on, without holes. */
  async recordReplaced(ref: number, firstItemId: number, count: number): Promise<void> {
    await this.db.query(
      `UPDATE ban_lists SET items_count = $3::integer, first_item_id = $2::bigint, next_item_id = $2::bigint + $3::integer,
              items_version = items_version + 1
       WHERE id = $1`,
      [ref, firstItemId, count],
    );
  }
}
