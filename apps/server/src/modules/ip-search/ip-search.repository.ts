import type { BanListKind, IpSearchRelation, ItemAddedVia } from '@guardian/contract';
import type { Queryable } from '../../db';

/** A list of the person's, as a match shows it. */
export interface SearchedList {
  ref: number;
  listId: string;
  listName: string;
  kind: BanListKind;
  accountName: string;
  accountId: string;
  /** Bumped by every change of the list's items: with the names, what a search's answer depends on. */
  itemsVersion: number;
}

export interface FoundItem {
  listRef: number;
  id: number;
  ip: string;
  comment: string;
  createdOn: Date;
  relation: IpSearchRelation;
  addedVia: ItemAddedVia;
  addedBy: string;
  expiresAt: Date | null;
}

interface ListRow {
  ref: number;
  list_id: string;
  list_name: string;
  kind: BanListKind;
  account_name: string;
  account_id: string;
  items_version: number;
}

interface ItemRow {
  ban_list_ref: number;
  id: number;
  ip: string;
  comment: string;
  created_on: Date;
  relation: IpSearchRelation;
  added_via: ItemAddedVia;
  added_by: string;
  expires_at: Date | null;
}

const toItem = (row: ItemRow): FoundItem => ({
  listRef: row.ban_list_ref,
  id: row.id,
  ip: row.ip,
  comment: row.comment,
  createdOn: row.created_on,
  relation: row.relation,
  addedVia: row.added_via,
  addedBy: row.added_by,
  expiresAt: row.expires_at,
});

/**
 * The SQL of "Where is this address?": the person's lists of a kind (found through their own accounts,
 * so no one else's list is ever read), then those lists' items in the mirror. Each list's items are a
 * partition (migration 003); the statements' plans are kept (migration 023), so each partition's index
 * is probed with the person's list ids as its condition (an array parameter prunes no partition) and
 * returns only their items. Containment (migration 025): the CIDR items' GiST index finds the CIDRs
 * holding a value, the btree (ip_sort, id) the equal items and, as a range, the items
 * inside a CIDR; the btree (ban_list_ref, ip) the exact values of hostname and asn lists.
 */
export class IpSearchRepository {
  constructor(private readonly db: Queryable) {}

  /** The person's lists of a kind, with their items' versions: what a search's answer depends on. */
  async listsOf(userId: number, kind: BanListKind): Promise<SearchedList[]> {
    const rows = await this.db.query<ListRow>(
      `SELECT bl.id AS ref, bl.list_id, bl.list_name, bl.kind, a.account_name, a.account_id, bl.items_version
       FROM ban_lists bl JOIN cloudflare_accounts a ON a.id = bl.account_ref
       WHERE a.user_id = $1 AND bl.kind = $2
       ORDER BY bl.id`,
      [userId, kind],
    );
    return rows.map((row) => ({
      ref: row.ref,
      listId: row.list_id,
      listName: row.list_name,
      kind: row.kind,
      accountName: row.account_name,
      accountId: row.account_id,
      itemsVersion: Number(row.items_version),
    }));
  }

  /**
   * Items of the lists that are `inet` or a CIDR holding it: few for any address, at most one per
   * prefix length in a list. Exact ones first, then the narrowest CIDR.
   */
  async holding(refs: readonly number[], inet: string, limit: number): Promise<FoundItem[]> {
    return this.found('ip_search_holding($1::bigint[], $2::inet, $3::int)', refs, inet, limit);
  }

  /**
   * For each address of `inets`, the lists holding it (as `holding`: exact first, then the narrowest
   * CIDR), from its first `perAddress` items: one statement for every address (the function's kept plan
   * once per address), not one round trip each. Rows in the addresses' order, `index` from 0.
   */
  async holdingEach(
    refs: readonly number[],
    inets: readonly string[],
    perAddress: number,
  ): Promise<{ index: number; listRef: number }[]> {
    if (refs.length === 0 || inets.length === 0) return [];
    const rows = await this.db.query<{ index: number | string; ban_list_ref: number | string }>(
      `SELECT address.n - 1 AS index, held.ban_list_ref
       FROM unnest($2::inet[]) WITH ORDINALITY AS address(inet, n)
       CROSS JOIN LATERAL ip_search_holding($1::bigint[], address.inet, $3::int) WITH ORDINALITY AS held
       ORDER BY address.n, held.ordinality`,
      [refs, inets, perAddress],
    );
    return rows.map((row) => ({ index: Number(row.index), listRef: Number(row.ban_list_ref) }));
  }

  /**
   * Items of the lists holding the CIDR `inet` (as `holding`), then those strictly inside it (`<<`),
   * in address order (a wide CIDR holds many): both in one statement, `limit` in all.
   */
  async holdingOrWithin(refs: readonly number[], inet: string, limit: number): Promise<FoundItem[]> {
    if (refs.length === 0) return [];
    const rows = await this.db.query<ItemRow>(
      `SELECT * FROM (
         SELECT held.*, 0 AS part FROM ip_search_holding($1::bigint[], $2::inet, $3::int) WITH ORDINALITY AS held
         UNION ALL
         SELECT inside.*, 1 AS part FROM ip_search_within($1::bigint[], $2::inet, $3::int) WITH ORDINALITY AS inside
       ) AS found ORDER BY part, ordinality LIMIT $3`,
      [refs, inet, limit],
    );
    return rows.map(toItem);
  }

  /** Items of the lists whose value is exactly `value` (hostname and asn lists store them normalised). */
  async exact(refs: readonly number[], value: string, limit: number): Promise<FoundItem[]> {
    return this.found('ip_search_exact($1::bigint[], $2::text, $3::int)', refs, value, limit);
  }

  /**
   * Runs one of the search's statements, kept as functions (migration 023) so that their plans over
   * every list's partition are made once per database session, not at each search.
   */
  private async found(
    call: string,
    refs: readonly number[],
    value: string,
    limit: number,
  ): Promise<FoundItem[]> {
    if (refs.length === 0) return [];
    const rows = await this.db.query<ItemRow>(`SELECT * FROM ${call}`, [refs, value, limit]);
    return rows.map(toItem);
  }
}
