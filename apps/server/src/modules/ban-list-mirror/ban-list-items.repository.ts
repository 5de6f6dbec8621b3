import { createHash } from 'node:crypto';
import { ITEM_ADDED_VIA, type BanListItemSort, type ItemAddedVia, type SortOrder } from '@guardian/contract';
import { copyRows, likeLiteral, PREPARED, type CopyValue, type Queryable } from '../../db';
import { mirrorKeySql } from './list-item-value';
import { PENDING_ITEM_ID_LIKE, type LearnedItemId } from './pending-item-id';

export interface BanListItemRecord {
  id: number;
  /** Cloudflare's item id. */
  itemId: string;
  /** The item's value (the "IP Address" column). */
  ip: string;
  comment: string;
  createdOn: Date;
  addedVia: ItemAddedVia;
  /** Who added it, as named then ('' for an item added at Cloudflare). */
  addedBy: string;
  addedByUser: number | null;
  expiresAt: Date | null;
  /**
   * When a restored item was first created (Cloudflare dates it the day it was added again), what the
   * console shows instead of `createdOn`; null for the others.
   */
  firstCreatedOn: Date | null;
}

/**
 * Who added an item through Guardian, how, and until when it stays (migration 019). Every insert
 * carries one: the Add dialog ('console'), an import ('import'), an API key's call ('api').
 */
export interface ItemProvenance {
  /** The person, and how they are named in the Added by column (their e-mail, with the API key's name for an API call). */
  addedBy: { userId: number; name: string };
  addedVia: Exclude<ItemAddedVia, 'cloudflare'>;
  /** When Guardian removes it (at Cloudflare and here), or null for never. */
  expiresAt: Date | null;
}

/** An item as a sync writes it into the mirror. */
export interface MirrorItem {
  itemId: string;
  ip: string;
  comment: string;
  /** Cloudflare's RFC 3339 timestamp. */
  createdOn: string;
  /** The value as inet reads it, for the IP Address order of an ip list's item; null for the other kinds. */
  ipSort: string | null;
}

/**
 * An item as a snapshot kept it, put back at Cloudflare by a restore (modules/snapshots): its kept
 * provenance, and its value's key (`keyOfMirrorValue`) to find it in the mirror again.
 */
export interface KeptItem {
  /** Its Cloudflare id then (null in a snapshot older than migration 030). */
  itemId: string | null;
  /** The date the console showed (null in a snapshot older than migration 030). */
  createdOn: Date | null;
  addedVia: ItemAddedVia;
  addedBy: string;
  addedByUser: number | null;
  expiresAt: Date | null;
  key: string;
}

/** An item a restore gave its kept provenance again: its Cloudflare id then and now. */
export interface RestoredItem {
  keptItemId: string | null;
  itemId: string;
  value: string;
  expiresAt: Date | null;
}

/** New values for an item that kept its place (Cloudflare changed its comment). */
export interface ItemUpdate {
  id: number;
  comment: string;
  createdOn: string;
}

/** The digest `BanListItemsRepository.digest` computes in the database, of items about to be stored. */
export function mirrorDigestOf(items: readonly MirrorItem[]): string {
  if (items.length === 0) return '';
  const hash = createHash('md5');
  const field = (text: string) => `${Buffer.byteLength(text)}:${text}`;
  for (const item of items) {
    hash.update(`${field(item.itemId)}${field(item.ip)}${field(item.comment)}${Date.parse(item.createdOn)};`);
  }
  return hash.digest('hex');
}

/**
 * How a search matches comments: containing it (served by the trigram index), or, when the index can
 * find no trigram in it (one or two letters or digits), at the start of a word (a word's first
 * letters are trigrams of their own: "  s", " ss").
 */
export type CommentMatch = 'containing' | 'wordStart';

/** Which items a page or a count covers. */
export type ItemFilter =
  | { kind: 'all' }
  /** Values starting with the text, and no comment (a search the comment index cannot serve at all). */
  | { kind: 'value'; text: string }
  /** Comments matching the text (case-insensitive). */
  | { kind: 'comment'; text: string; comments: CommentMatch }
  /** Comments matching the text, or values starting with it: one condition, the planner's choice. */
  | { kind: 'commentOrValue'; text: string; comments: CommentMatch }
  /** The same, when few values start with the text: those are read through the value index first. */
  | { kind: 'fewValuesOrComment'; text: string; comments: CommentMatch };

/** The orders of a page: the columns', and `address` for the IP Address column of an ip list. */
export type ItemOrder = BanListItemSort | 'address';

export interface ItemsPageQuery {
  filter: ItemFilter;
  sort: ItemOrder;
  order: SortOrder;
  limit: number;
  /** Rows to skip, or, for the id order, where the page starts (ids from there on, in `order`). */
  start: { offset: number } | { fromId: number };
}

/** The partition of a list's items, and the table a sync loads before swapping it in. */
function partitionOf(ref: number): string {
  // Table names cannot be query parameters; a list id is a database integer, so this is safe to inline.
  if (!Number.isSafeInteger(ref) || ref <= 0) throw new Error(`Invalid ban list ref ${ref}`);
  return `ban_list_items_${ref}`;
}

/**
 * Creates the list's partition when it has none (a list's first item, or one after Clean All). Asked
 * first rather than sent as `CREATE TABLE IF NOT EXISTS` with every write: on PGlite a script empties
 * the cache of prepared statements (db/pglite-statements.ts), and every statement after each add was
 * prepared again. The caller holds the list's row lock, so two writers do not both create it.
 */
export async function ensurePartition(db: Queryable, ref: number): Promise<void> {
  const table = partitionOf(ref);
  const [row] = await db.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [
    table,
  ]);
  if (row?.present) return;
  await db.exec(`CREATE TABLE IF NOT EXISTS ${table} PARTITION OF ban_list_items FOR VALUES IN (${ref})`);
}

const loadTableOf = (ref: number) => `${partitionOf(ref)}_next`;
/** An item's own columns, in the order of `mirrorRow`'s values (a COPY's or an INSERT's). */
const MIRROR_ROW_COLUMNS = 'ban_list_ref, id, item_id, ip, comment, created_on, ip_sort';
const mirrorRow = (ref: number, id: number, item: MirrorItem): CopyValue[] => [
  ref,
  id,
  item.itemId,
  item.ip,
  item.comment,
  item.createdOn,
  item.ipSort,
];

/** Where an import's items are built before they are attached to the list's partition (see `attachImport`). */
const importTableOf = (ref: number) => `${partitionOf(ref)}_import`;
/** A list's partition's default partition once an import was attached: its earlier and later items. */
const baseTableOf = (ref: number) => `${partitionOf(ref)}_base`;

/** An id inlined in DDL (a partition bound or a CHECK): a database integer, checked as `partitionOf` checks a ref. */
function idLiteral(id: number): string {
  if (!Number.isSafeInteger(id) || id < 0) throw new Error(`Invalid item id ${id}`);
  return String(id);
}

// Values are stored lower-case (IPv6, hostnames), and a case-sensitive LIKE can use the btree.
const startingWith = (text: string) => `${likeLiteral(text.toLowerCase())}%`;

/**
 * The ids an export's piece spans at most (see `exportBatch`): 1,000 items, about 56 KB of CSV for
 * comments of a few words, under V8's largest regular object (128 KB), so a piece is freed by the
 * young generation's collection.
 */
export const EXPORT_PIECE_IDS = 1_000;

/** What a sync carries over from the mirror by Cloudflare's item id (see `keepProvenance`). */
const PROVENANCE_COLUMNS = 'added_via, added_by, added_by_user, expires_at, first_created_on';
/** An item named as the record's fields: a row is a BanListItemRecord as it comes. */
const ITEM_COLUMNS = `id, item_id AS "itemId", ip, comment, created_on AS "createdOn", added_via AS "addedVia",
  added_by AS "addedBy", added_by_user AS "addedByUser", expires_at AS "expiresAt", first_created_on AS "firstCreatedOn"`;
/** A filter's subquery: the table's own columns, with the address order's key for the page to sort by. */
const MATCH_COLUMNS = `id, item_id, ip, comment, created_on, ip_sort, ${PROVENANCE_COLUMNS}`;

/**
 * The condition on comments, and on who added the item (starting with the text, through the Added by
 * index); `param` adds a parameter and answers its placeholder.
 */
function commentCondition(text: string, comments: CommentMatch, param: (value: string) => string): string {
  const escaped = likeLiteral(text);
  const addedBy = `lower(added_by) LIKE ${param(startingWith(text))}`;
  // What ILIKE does inside, with the pattern lowered once (migration 058 keeps the trigrams so).
  const comment = (pattern: string) => `lower(comment) LIKE lower(${param(pattern)})`;
  if (comments === 'containing') return `(${comment(`%${escaped}%`)} OR ${addedBy})`;
  // A word starts the comment or follows a space.
  return `(${comment(`${escaped}%`)} OR ${comment(`% ${escaped}%`)} OR ${addedBy})`;
}

/**
 * The list's items that pass the filter, as a subquery to select from ($1 is the list). Each form is
 * shaped for the plan it needs: a plain condition the planner can walk in id order and stop early;
 * for a value prefix that matches few items, those few read through the value index on their own
 * (OFFSET 0 keeps the planner from merging it back into an id-order walk, which would skip over
 * every item before them: ids follow Cloudflare's IP order), then the comments that match.
 */
function matching(filter: ItemFilter): { sql: string; params: string[] } {
  const params: string[] = [];
  const param = (value: string) => `$${params.push(value) + 1}`;
  const base = `SELECT ${MATCH_COLUMNS} FROM ban_list_items WHERE ban_list_ref = $1`;
  switch (filter.kind) {
    case 'all':
      return { sql: `(${base})`, params };
    case 'value':
      return { sql: `(${base} AND ip LIKE ${param(startingWith(filter.text))})`, params };
    case 'comment':
      return { sql: `(${base} AND ${commentCondition(filter.text, filter.comments, param)})`, params };
    case 'commentOrValue': {
      const comment = commentCondition(filter.text, filter.comments, param);
      return { sql: `(${base} AND (${comment} OR ip LIKE ${param(startingWith(filter.text))}))`, params };
    }
    case 'fewValuesOrComment': {
      const value = param(startingWith(filter.text));
      const comment = commentCondition(filter.text, filter.comments, param);
      return {
        sql: `((${base} AND ip LIKE ${value} OFFSET 0) UNION ALL (${base} AND ${comment} AND ip NOT LIKE ${value}))`,
        params,
      };
    }
  }
}

const SORT_COLUMNS: Record<ItemOrder, string> = {
  id: 'id',
  ip: 'ip',
  address: 'ip_sort',
  comment: 'comment',
  // As the console shows it: a restored item's first date (unindexed either way, see the service).
  created_on: 'coalesce(first_created_on, created_on)',
  expires_at: 'expires_at',
  // Case-insensitive, as the index keeps it (migration 019): the same index serves the search.
  added_by: 'lower(added_by)',
};

function orderByOf(query: Pick<ItemsPageQuery, 'sort' | 'order'>): string {
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const column = SORT_COLUMNS[query.sort];
  return column === 'id' ? `id ${direction}` : `${column} ${direction}, id ${direction}`;
}

/**
 * The orders kept in buckets (migration 038): each one's key over the items, its bucket column, and
 * the key below every item's where no item's key is NULL (the address order's is for a value inet
 * cannot read): while a list has no buckets of such an order, its pages walk from that key.
 */
const BUCKET_ORDERS = {
  id: { key: 'id', column: 'from_number', least: '0::bigint' },
  value: { key: 'ip', column: 'from_value', least: "''" },
  address: { key: 'ip_sort', column: 'from_address', least: null },
  comment: { key: 'comment', column: 'from_comment', least: "''" },
  created_on: {
    key: 'coalesce(first_created_on, created_on)',
    column: 'from_created',
    least: "'-infinity'::timestamptz",
  },
} as const;
export type BucketOrder = keyof typeof BUCKET_ORDERS;

/**
 * The only SQL on ban list items: the mirror of each list lives in its own partition (see migration
 * 003), so a list is paged, searched, emptied or replaced without touching the others.
 */
export class BanListItemsRepository {
  constructor(private readonly db: Queryable) {}

  async page(ref: number, query: ItemsPageQuery): Promise<BanListItemRecord[]> {
    const items = matching(query.filter);
    const params: unknown[] = [ref, ...items.params];
    let where = '';
    if ('fromId' in query.start) {
      params.push(query.start.fromId);
      where = `WHERE id ${query.order === 'asc' ? '>=' : '<='} $${params.length}`;
    }
    params.push(query.limit, 'offset' in query.start ? query.start.offset : 0);
    const rows = await this.db.query<BanListItemRecord>(
      `SELECT ${ITEM_COLUMNS} FROM ${items.sql} AS item ${where}
       ORDER BY ${orderByOf(query)} LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
      PREPARED,
    );
    return rows;
  }

  /**
   * The page of the whole list at `offset` in an order kept in buckets (migration 038), ascending:
   * the buckets' counts find the bucket holding the item at `offset`, and the order's index is walked
   * from that bucket's first key, so the middle page costs what the first does. A list without
   * buckets for the order (an import cuts them after its last transaction, migration 055) is walked
   * from the order's least key, past `offset` items. Undefined when that cannot be (the address order)
   * or `offset` is past the list's items: read it another way.
   */
  async pageInBuckets(
    ref: number,
    order: BucketOrder,
    offset: number,
    limit: number,
  ): Promise<BanListItemRecord[] | undefined> {
    const { key, column, least } = BUCKET_ORDERS[order];
    const unbucketed =
      least === null
        ? ''
        : `UNION ALL SELECT ${least}, 0, $3::bigint WHERE NOT EXISTS (SELECT 1 FROM bucket)`;
    const rows = await this.db.query<BanListItemRecord>(
      `WITH bucket AS (
         SELECT ${column} AS from_key, from_id, items,
                sum(items) OVER (ORDER BY ${column}, from_id) - items AS before
         FROM ban_list_item_buckets WHERE ban_list_ref = $1 AND item_order = $2
       ), start AS (
         (SELECT from_key, from_id, $3::bigint - before AS skip FROM bucket
          WHERE before <= $3::bigint AND $3::bigint < before + items
          ORDER BY before LIMIT 1)
         ${unbucketed}
       )
       SELECT item.* FROM start CROSS JOIN LATERAL (
         SELECT ${ITEM_COLUMNS} FROM ban_list_items
         WHERE ban_list_ref = $1 AND (${key}, id) >= (start.from_key, start.from_id)
         ORDER BY ${key}, id OFFSET start.skip LIMIT $4
       ) AS item`,
      [ref, order, offset, limit],
      PREPARED,
    );
    return rows.length === 0 ? undefined : rows;
  }

  /**
   * A page of `query` (from an offset) and how many items pass its filter, counted no further than
   * `countLimit`. The count walks the list in id order: any `countLimit` matches will do, and a limit in
   * an order lets the planner stop early when many items match (unordered, it gathered every match of a
   * common term through the comment index first) and still use that index when few do.
   */
  async pageAndCount(
    ref: number,
    query: ItemsPageQuery & { start: { offset: number } },
    countLimit: number,
  ): Promise<{ items: BanListItemRecord[]; count: number }> {
    const items = matching(query.filter);
    const params: unknown[] = [ref, ...items.params, countLimit, query.limit, query.start.offset];
    const [countLimitAt, limitAt, offsetAt] = [params.length - 2, params.length - 1, params.length];
    const byId = `id ${query.order === 'asc' ? 'ASC' : 'DESC'}`;
    const countWalk = (columns: string) =>
      `SELECT ${columns} FROM ${items.sql} AS item ORDER BY ${byId} LIMIT $${countLimitAt}`;
    // A page in the count's order within its limit is a slice of the count's walk: walked once.
    const oneWalk = query.sort === 'id' && query.start.offset + query.limit <= countLimit;
    const [walked, counted, page] = oneWalk
      ? [
          `WITH match AS MATERIALIZED (${countWalk(ITEM_COLUMNS)})`,
          'match',
          `SELECT * FROM match ORDER BY ${byId}`,
        ]
      : [
          '',
          `(${countWalk('1')}) AS match`,
          `SELECT ${ITEM_COLUMNS} FROM ${items.sql} AS item ORDER BY ${orderByOf(query)}`,
        ];
    const rows = await this.db.query<BanListItemRecord & { matches: number }>(
      `${walked}
       SELECT counted.matches, item.* FROM (SELECT count(*)::int AS matches FROM ${counted}) AS counted
       LEFT JOIN LATERAL (${page} LIMIT $${limitAt} OFFSET $${offsetAt}) AS item ON true`,
      params,
      PREPARED,
    );
    return {
      // An offset past the matches leaves one row: the count, with null item columns.
      items: rows.filter((row) => row.id !== null).map(({ matches: _count, ...item }) => item),
      count: rows[0]!.matches,
    };
  }

  /** How many items pass the filter, counting no further than `limit` (every one without it). */
  async count(ref: number, filter: ItemFilter, limit?: number): Promise<number> {
    const items = matching(filter);
    const params: unknown[] = [ref, ...items.params];
    let counted = `${items.sql} AS item`;
    if (limit !== undefined) {
      params.push(limit);
      counted = `(SELECT 1 FROM ${items.sql} AS item LIMIT $${params.length}) AS counted`;
    }
    const [row] = await this.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM ${counted}`,
      params,
    );
    return row!.count;
  }

  /** How many values start with `text`, counting no further than `limit` (a walk of the value index). */
  async countValuesStartingWith(ref: number, text: string, limit: number): Promise<number> {
    const [row] = await this.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM (
         SELECT 1 FROM ban_list_items WHERE ban_list_ref = $1 AND ip LIKE $2 LIMIT $3
       ) AS counted`,
      [ref, startingWith(text), limit],
    );
    return row!.count;
  }

  async findById(ref: number, id: number): Promise<BanListItemRecord | undefined> {
    const [row] = await this.db.query<BanListItemRecord>(
      `SELECT ${ITEM_COLUMNS} FROM ban_list_items WHERE ban_list_ref = $1 AND id = $2`,
      [ref, id],
    );
    return row;
  }

  async findByIds(ref: number, ids: readonly number[]): Promise<BanListItemRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<BanListItemRecord>(
      `SELECT ${ITEM_COLUMNS} FROM ban_list_items WHERE ban_list_ref = $1 AND id = ANY($2::bigint[]) ORDER BY id`,
      [ref, ids],
    );
    return rows;
  }

  /** The values starting with `prefix` (an item's value, or a redirect's source), to spot a duplicate. */
  async valuesStartingWith(ref: number, prefix: string): Promise<string[]> {
    const rows = await this.db.query<{ ip: string }>(
      'SELECT ip FROM ban_list_items WHERE ban_list_ref = $1 AND ip LIKE $2 LIMIT 50',
      [ref, `${likeLiteral(prefix)}%`],
    );
    return rows.map((row) => row.ip);
  }

  /** Records an item Guardian added at Cloudflare, with who added it, how, and its expiry. */
  async insert(
    ref: number,
    id: number,
    item: MirrorItem,
    provenance: ItemProvenance,
  ): Promise<BanListItemRecord> {
    await ensurePartition(this.db, ref);
    const [row] = await this.db.query<BanListItemRecord>(
      `INSERT INTO ban_list_items (ban_list_ref, id, item_id, ip, comment, created_on, ip_sort,
                                   added_via, added_by, added_by_user, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::inet, $8, $9, $10, $11)
       RETURNING ${ITEM_COLUMNS}`,
      [
        ...mirrorRow(ref, id, item),
        provenance.addedVia,
        provenance.addedBy.name,
        provenance.addedBy.userId,
        provenance.expiresAt,
      ],
    );
    return row!;
  }

  /** Gives items recorded under a provisional id Cloudflare's (see item-ids.ts); `id` is the mirror's. */
  async setItemIds(ref: number, changes: readonly (LearnedItemId & { id: number })[]): Promise<void> {
    if (changes.length === 0) return;
    await this.db.query(
      `UPDATE ban_list_items AS item SET item_id = learned.item_id
       FROM unnest($2::bigint[], $3::text[], $4::text[]) AS learned (id, pending, item_id)
       WHERE item.ban_list_ref = $1 AND item.id = learned.id AND item.item_id = learned.pending`,
      [
        ref,
        changes.map((change) => change.id),
        changes.map((change) => change.pending),
        changes.map((change) => change.itemId),
      ],
    );
  }

  /** Changes an item's expiry (null: never); the item as it is now, or undefined when it is gone. */
  async setExpiry(ref: number, id: number, expiresAt: Date | null): Promise<BanListItemRecord | undefined> {
    const [row] = await this.db.query<BanListItemRecord>(
      `UPDATE ban_list_items SET expires_at = $3 WHERE ban_list_ref = $1 AND id = $2 RETURNING ${ITEM_COLUMNS}`,
      [ref, id, expiresAt],
    );
    return row;
  }

  /** Up to `limit` items of the list whose expiry has passed at `now`, soonest first (the due index). */
  async due(ref: number, now: Date, limit: number): Promise<BanListItemRecord[]> {
    const rows = await this.db.query<BanListItemRecord>(
      `SELECT ${ITEM_COLUMNS} FROM ban_list_items
       WHERE ban_list_ref = $1 AND expires_at IS NOT NULL AND expires_at <= $2
       ORDER BY expires_at, id LIMIT $3`,
      [ref, now, limit],
    );
    return rows;
  }

  /** Deletes the items with these ids (those still there), in one statement whatever their number; answers them. */
  async deleteMany(ref: number, ids: readonly number[]): Promise<BanListItemRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<BanListItemRecord>(
      `DELETE FROM ban_list_items WHERE ban_list_ref = $1 AND id = ANY($2::bigint[]) RETURNING ${ITEM_COLUMNS}`,
      [ref, ids],
    );
    return rows;
  }

  /** Deletes an item; false when it was not there. */
  async deleteById(ref: number, id: number): Promise<boolean> {
    const rows = await this.db.query(
      'DELETE FROM ban_list_items WHERE ban_list_ref = $1 AND id = $2 RETURNING id',
      [ref, id],
    );
    return rows.length > 0;
  }

  /**
   * Empties a list's mirror: its partition goes (the next item write creates it again), and its order
   * buckets (cut again with its next items: a dropped table counts no rows out).
   */
  async dropAll(ref: number): Promise<void> {
    // The partition's own partitions (imports attached, see `attachImport`) go with it.
    await this.db.exec(
      `DROP TABLE IF EXISTS ${partitionOf(ref)}; DROP TABLE IF EXISTS ${importTableOf(ref)}`,
    );
    await this.db.query('DELETE FROM ban_list_item_buckets WHERE ban_list_ref = $1', [ref]);
    // An import's items recorded ahead of Cloudflare (migration 051) went with the others.
    await this.db.query('DELETE FROM ban_list_unconfirmed_items WHERE ban_list_ref = $1', [ref]);
  }

  // A sync loads the whole list into a table of its own, outside any transaction, then swaps it in.

  /** A fresh, empty load table shaped like the mirror (a leftover of an interrupted sync is dropped). */
  async startLoad(ref: number): Promise<void> {
    const table = loadTableOf(ref);
    await this.db.exec(`
      DROP TABLE IF EXISTS ${table};
      CREATE TABLE ${table} (
        LIKE ban_list_items INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
        CONSTRAINT ${table}_ref CHECK (ban_list_ref = ${ref})
      );
    `);
  }

  /** Appends items in one COPY, numbered from `firstId` on in the order given. */
  async load(ref: number, firstId: number, items: readonly MirrorItem[]): Promise<void> {
    await this.db.copyIn(
      `${loadTableOf(ref)} (${MIRROR_ROW_COLUMNS})`,
      copyRows(items.map((item, index) => mirrorRow(ref, firstId + index, item))),
    );
  }

  /**
   * A digest of `count` items of the mirror from id `fromId` on, in id order (see `mirrorDigestOf`):
   * a sync compares what Cloudflare sent with the mirror without reading the rows back.
   */
  async digest(ref: number, fromId: number, count: number): Promise<string> {
    const [row] = await this.db.query<{ digest: string | null }>(
      `SELECT md5(string_agg(
                octet_length(item_id) || ':' || item_id || octet_length(ip) || ':' || ip ||
                octet_length(comment) || ':' || comment || (extract(epoch FROM created_on) * 1000)::bigint || ';',
                '' ORDER BY id)) AS digest
       FROM ban_list_items WHERE ban_list_ref = $1 AND id >= $2::bigint AND id < $2::bigint + $3::bigint`,
      [ref, fromId, count],
    );
    return row?.digest ?? '';
  }

  /** Applies comment (and date) changes to the mirror, or, with `inLoad`, to the load table. */
  async update(ref: number, updates: readonly ItemUpdate[], inLoad = false): Promise<void> {
    const table = inLoad ? loadTableOf(ref) : 'ban_list_items';
    await this.db.query(
      `UPDATE ${table} AS item SET comment = changed.comment, created_on = changed.created_on
       FROM unnest($2::bigint[], $3::text[], $4::timestamptz[]) AS changed (id, comment, created_on)
       WHERE item.ban_list_ref = $1 AND item.id = changed.id`,
      [
        ref,
        updates.map((update) => update.id),
        updates.map((update) => update.comment),
        updates.map((update) => update.createdOn),
      ],
    );
  }

  /** Copies `count` items of the mirror from id `fromId` on into the load table, renumbered from `firstId`. */
  async loadFromMirror(ref: number, fromId: number, count: number, firstId: number): Promise<void> {
    await this.db.query(
      `INSERT INTO ${loadTableOf(ref)} (ban_list_ref, id, item_id, ip, comment, created_on, ip_sort, ${PROVENANCE_COLUMNS})
       SELECT ban_list_ref, id - $2::bigint + $4::bigint, item_id, ip, comment, created_on, ip_sort, ${PROVENANCE_COLUMNS}
       FROM ban_list_items
       WHERE ban_list_ref = $1 AND id >= $2::bigint AND id < $2::bigint + $3::bigint ORDER BY id`,
      [ref, fromId, count, firstId],
    );
  }

  /**
   * Builds the mirror's indexes on the loaded table (once, in bulk: far cheaper than row by row) and
   * gathers its statistics and visibility map, so the planner and index-only scans work at once.
   */
  async indexLoad(ref: number, options: { lanes: 1 | 2 }): Promise<void> {
    await this.buildIndexes(loadTableOf(ref), options.lanes, { analyze: true });
  }

  /** The mirror's indexes built in bulk on a table about to become (part of) a list's partition, and its statistics. */
  private async buildIndexes(table: string, lanes: 1 | 2, options: { analyze: boolean }): Promise<void> {
    // Alone: it takes the table's exclusive lock.
    await this.db.exec(`ALTER TABLE ${table} ADD PRIMARY KEY (ban_list_ref, id)`);
    // The other indexes, with two lanes on PostgreSQL: one of each is built at once on two connections
    // (a CREATE INDEX takes a SHARE lock, which another does not wait for), the comment trigrams (the
    // longest, which PostgreSQL 15 builds on one core) beside the btrees. PGlite answers one statement
    // at a time: a second lane would only put a second long build in line before everyone else's
    // statements. The same SQL as the partitioned table's indexes, so attaching finds them.
    const statements = [
      [
        `CREATE INDEX ON ${table} USING gin (lower(comment) gin_trgm_ops)`,
        // Containment search across lists, its CIDR items only (migration 025, modules/ip-search/):
        // most lists hold addresses only, and this index then costs a scan of the table.
        `CREATE INDEX ON ${table} USING gist (ip_sort inet_ops)
         WHERE masklen(ip_sort) < CASE WHEN family(ip_sort) = 4 THEN 32 ELSE 128 END`,
        // The expiry sweep (migration 019).
        `CREATE INDEX ON ${table} (expires_at) WHERE expires_at IS NOT NULL`,
      ],
      [
        `CREATE INDEX ON ${table} (ban_list_ref, ip)`,
        `CREATE INDEX ON ${table} (ip_sort, id)`,
        // The Comment order (migration 026).
        `CREATE INDEX ON ${table} (comment, id)`,
        // The Created On order (migration 038).
        `CREATE INDEX ON ${table} ((coalesce(first_created_on, created_on)), id)`,
        // The Expires and Added by orders (migration 019).
        `CREATE INDEX ON ${table} (ban_list_ref, expires_at, id)`,
        `CREATE INDEX ON ${table} (ban_list_ref, lower(added_by), id)`,
      ],
    ];
    const built = await Promise.allSettled(
      (lanes === 2 ? statements : [statements.flat()]).map(async (lane) => {
        for (const statement of lane) await this.db.exec(statement);
      }),
    );
    // Both lanes have ended, so a failed sync's cleanup (dropping the table) waits for no build.
    const failed = built.find((lane) => lane.status === 'rejected');
    if (failed) throw failed.reason;
    // VACUUM refuses to run inside a transaction block, which a multi-statement exec is.
    await this.db.exec(options.analyze ? `VACUUM (ANALYZE) ${table}` : `VACUUM ${table}`);
  }

  /**
   * Gives the loaded items that Guardian added their provenance and expiry from the mirror
   * (Cloudflare keeps neither), and restored ones their first date: by Cloudflare's item id, or, for
   * an item the mirror holds under a provisional id (an import's, see item-ids.ts), by its value's key
   * (list-item-value.ts: the value lower-case, a redirect's source). Reads only the mirror's items that
   * Guardian added or restored; the items found at Cloudflare keep the load's defaults. (Their history
   * needs nothing: it is found by value, migration 057.)
   *
   * Run in a transaction of its own. The mirror's statistics do not see an import's rows (PGlite has
   * no autovacuum; PostgreSQL's may not have run yet): planned as one item to carry over, each join was
   * a loop over the whole load table per item (minutes for 50,000 imported items). Nested loops are
   * refused for these two statements, so each is a hash (or merge) join: one pass over each side,
   * whatever the estimate. The hash is built from the mirror's kept items, not from the load table:
   * the load has no statistics yet, and `added_via = 'cloudflare'` on it was estimated at 0.5% of its
   * rows (so it was hashed whole: 489,000 rows spilled to disk, seconds on PGlite); `<> ALL` of the
   * other ways (the same rows, by the column's CHECK) is estimated at nearly all of them. A provisional
   * id never equals Cloudflare's, so the first join leaves those items to the second: after an import
   * alone its hash is empty, and the load table is not read for it (issue 36).
   */
  async keepProvenance(ref: number): Promise<void> {
    const load = loadTableOf(ref);
    await this.db.exec('SET LOCAL enable_nestloop = off');
    const assign = `added_via = kept.added_via, added_by = kept.added_by, added_by_user = kept.added_by_user,
           expires_at = kept.expires_at, first_created_on = kept.first_created_on`;
    // The load's items that still have the defaults (added_via = 'cloudflare'), as the planner counts them.
    const guardianVias = ITEM_ADDED_VIA.filter((via) => via !== 'cloudflare');
    const unkept = `item.added_via <> ALL ('{${guardianVias.join(',')}}'::text[])`;
    await this.db.query(
      `UPDATE ${load} AS item SET ${assign}
       FROM (SELECT item_id, ${PROVENANCE_COLUMNS} FROM ban_list_items
             WHERE ban_list_ref = $1 AND (added_via <> 'cloudflare' OR first_created_on IS NOT NULL)
               AND item_id NOT LIKE $2) AS kept
       WHERE item.item_id = kept.item_id AND ${unkept}`,
      [ref, PENDING_ITEM_ID_LIKE],
    );
    await this.db.query(
      `UPDATE ${load} AS item SET ${assign}
       FROM (SELECT ${mirrorKeySql('ip')} AS key, ${PROVENANCE_COLUMNS} FROM ban_list_items
             WHERE ban_list_ref = $1 AND added_via <> 'cloudflare' AND item_id LIKE $2) AS kept
       WHERE ${mirrorKeySql('item.ip')} = kept.key AND ${unkept}`,
      [ref, PENDING_ITEM_ID_LIKE],
    );
  }

  /**
   * Gives the items a restore put back at Cloudflare (and a sync brought into the mirror) what they had
   * when they were kept: their date, who added them, how, and their expiry. Found by their value's key,
   * and only the items the sync found new: an item Cloudflare still had keeps its own, one a person
   * added again since keeps theirs. Answers those items. Hash-joined, as `keepProvenance` (the
   * mirror's statistics do not know the rows the sync just loaded), in the caller's transaction.
   */
  async restoreKept(ref: number, kept: readonly KeptItem[]): Promise<RestoredItem[]> {
    if (kept.length === 0) return [];
    await this.db.exec('SET LOCAL enable_nestloop = off');
    const rows = await this.db.query<{
      kept_item_id: string | null;
      item_id: string;
      ip: string;
      expires_at: Date | null;
    }>(
      `UPDATE ban_list_items AS item
       SET added_via = kept.added_via, added_by = kept.added_by, added_by_user = kept.added_by_user,
           expires_at = kept.expires_at, first_created_on = kept.created_on
       FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::bigint[], $8::timestamptz[])
         AS kept (key, item_id, created_on, added_via, added_by, added_by_user, expires_at)
       WHERE item.ban_list_ref = $1 AND ${mirrorKeySql('item.ip')} = kept.key
         AND item.added_via = 'cloudflare' AND item.first_created_on IS NULL
         AND item.item_id IS DISTINCT FROM kept.item_id
       RETURNING kept.item_id AS kept_item_id, item.item_id, item.ip, item.expires_at`,
      [
        ref,
        kept.map((item) => item.key),
        kept.map((item) => item.itemId),
        kept.map((item) => item.createdOn),
        kept.map((item) => item.addedVia),
        kept.map((item) => item.addedBy),
        kept.map((item) => item.addedByUser),
        kept.map((item) => item.expiresAt),
      ],
    );
    return rows.map((row) => ({
      keptItemId: row.kept_item_id,
      itemId: row.item_id,
      value: row.ip,
      expiresAt: row.expires_at,
    }));
  }

  /**
   * In the caller's transaction, the list's order buckets are dropped and its rows written are not
   * counted in any (migration 055): a write of many items cuts them once after its last transaction
   * (`cutBuckets`) instead of placing every transaction's rows.
   */
  async deferBuckets(ref: number): Promise<void> {
    await this.db.query("SELECT set_config('guardian.buckets_deferred', $1::text, true)", [ref]);
    await this.db.query('DELETE FROM ban_list_item_buckets WHERE ban_list_ref = $1', [ref]);
  }

  /** The orders the list keeps in buckets (migration 055), each cut on its own by `cutBuckets`. */
  async bucketOrders(ref: number): Promise<BucketOrder[]> {
    const [row] = await this.db.query<{ orders: BucketOrder[] }>(
      'SELECT ban_list_item_bucket_orders($1) AS orders',
      [ref],
    );
    return row!.orders;
  }

  /** Cuts one order's buckets anew from the list's items (its index walked once), counted as the list counts them. */
  async cutBuckets(ref: number, order: BucketOrder): Promise<void> {
    await this.db.query(
      'SELECT ban_list_item_buckets_build_order(id, items_count, $2) FROM ban_lists WHERE id = $1',
      [ref, order],
    );
  }

  /**
   * Replaces the list's partition with the loaded table. Its indexes match the partitioned ones and
   * its CHECK constraint proves the partition bound, so attaching it reads no rows. The orders'
   * buckets are cut from the new items (migration 038: a walk of each order's index just built).
   */
  async swapInLoad(ref: number, count: number): Promise<void> {
    const partition = partitionOf(ref);
    await this.dropAll(ref);
    await this.db.exec(`
      ALTER TABLE ${loadTableOf(ref)} RENAME TO ${partition};
      ALTER TABLE ban_list_items ATTACH PARTITION ${partition} FOR VALUES IN (${ref});
    `);
    await this.db.query('SELECT ban_list_item_buckets_build($1, $2)', [ref, count]);
  }

  async dropLoad(ref: number): Promise<void> {
    await this.db.exec(`DROP TABLE IF EXISTS ${loadTableOf(ref)}`);
  }

  // An import that grows a list by much (ban-list-import/mirror-recording.ts) writes its items into a
  // table of their own, indexed in bulk as a sync's load is, and attaches it: the list's partition
  // becomes partitioned by item id, its earlier items (and every item added after) in its default
  // partition, each such import's items in the range of ids reserved for them. Row by row, the same
  // items kept nine indexes of a 400,000-item table one entry at a time (issue 36). A sync swaps in one
  // plain table again.

  /** A fresh table for an import's items, ids [fromId, toId) (a leftover of an interrupted import is dropped). */
  async startImport(ref: number, fromId: number, toId: number): Promise<void> {
    const table = importTableOf(ref);
    // The CHECKs prove the table's bounds, so attaching it reads none of its rows.
    await this.db.exec(`
      DROP TABLE IF EXISTS ${table};
      CREATE TABLE ${table} (
        LIKE ban_list_items INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
        CONSTRAINT ${table}_ref CHECK (ban_list_ref = ${ref}),
        CONSTRAINT ${table}_ids CHECK (id >= ${idLiteral(fromId)} AND id < ${idLiteral(toId)})
      );
    `);
  }

  /** Appends an import's items in one COPY, numbered from `firstId` on in the order given, with their provenance. */
  async loadImport(
    ref: number,
    firstId: number,
    items: readonly (MirrorItem & { expiresAt: string | null })[],
    by: { userId: number; name: string; via: Exclude<ItemAddedVia, 'cloudflare'> },
  ): Promise<void> {
    await this.db.copyIn(
      `${importTableOf(ref)} (${MIRROR_ROW_COLUMNS}, added_via, added_by, added_by_user, expires_at)`,
      copyRows(
        items.map((item, index) => [
          ...mirrorRow(ref, firstId + index, item),
          by.via,
          by.name,
          by.userId,
          item.expiresAt,
        ]),
      ),
    );
  }

  /**
   * The import's table indexed as a sync's load is (`indexLoad`), and vacuumed (index-only scans), but
   * not analyzed, as rows an import inserted were not: statistics saying every row is provisional made
   * the next sync's carry-over of them (`keepProvenance`) a merge join sorting its whole load table.
   */
  async indexImport(ref: number, options: { lanes: 1 | 2 }): Promise<void> {
    await this.buildIndexes(importTableOf(ref), options.lanes, { analyze: false });
  }

  /** How many imports' tables the list's partition holds (each read of the list walks each one's indexes). */
  async attachedImports(ref: number): Promise<number> {
    const [row] = await this.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_inherits
       WHERE inhparent = to_regclass($1) AND inhrelid <> coalesce(to_regclass($2), 0)`,
      [partitionOf(ref), baseTableOf(ref)],
    );
    return row!.count;
  }

  /**
   * In the caller's transaction (the list locked): the import's table attached as the list's items
   * with ids [fromId, toId), less the values another write added since the ids were reserved (their
   * ids come after toId). Answers how many items it attached. Not counted in the list's order buckets:
   * the caller defers them (`deferBuckets`) and cuts them after.
   */
  async attachImport(ref: number, fromId: number, toId: number): Promise<number> {
    const table = importTableOf(ref);
    const partition = partitionOf(ref);
    const [left] = await this.db.query<{ count: number }>(
      `WITH gone AS (
         DELETE FROM ${table} AS imported USING ban_list_items AS item
         WHERE item.ban_list_ref = $1 AND item.id >= $2::bigint AND ${mirrorKeySql('item.ip')} = ${mirrorKeySql('imported.ip')}
         RETURNING 1)
       SELECT count(*)::int AS count FROM gone`,
      [ref, toId],
    );
    const [shape] = await this.db.query<{ relkind: string | null }>(
      'SELECT (SELECT relkind FROM pg_class WHERE oid = to_regclass($1))::text AS relkind',
      [partition],
    );
    if (shape?.relkind !== 'p') {
      // The list's plain partition becomes the default partition of one partitioned by id. Its CHECK
      // first (one read of its rows, the list's reads waiting), so attaching the new one reads none;
      // detaching locks ban_list_items until this transaction ends, as a sync's swap does.
      await ensurePartition(this.db, ref);
      await this.db.exec(`
        ALTER TABLE ${partition} ADD CONSTRAINT ${partition}_in_list CHECK (ban_list_ref = ${ref});
        ALTER TABLE ban_list_items DETACH PARTITION ${partition};
        ALTER TABLE ${partition} RENAME TO ${baseTableOf(ref)};
        CREATE TABLE ${partition} (LIKE ban_list_items INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (id);
        ALTER TABLE ${partition} ATTACH PARTITION ${baseTableOf(ref)} DEFAULT;
        ALTER TABLE ban_list_items ATTACH PARTITION ${partition} FOR VALUES IN (${ref});
      `);
    }
    // Reads the default partition once (none of its rows may fall in the range), its indexes none.
    await this.db.exec(`
      ALTER TABLE ${partition} ATTACH PARTITION ${table} FOR VALUES FROM (${idLiteral(fromId)}) TO (${idLiteral(toId)});
      ALTER TABLE ${table} RENAME TO ${partition}_${idLiteral(fromId)};
    `);
    // The table held every id of the range (loadImport) less the values left out above.
    return toId - fromId - left!.count;
  }

  async dropImport(ref: number): Promise<void> {
    await this.db.exec(`DROP TABLE IF EXISTS ${importTableOf(ref)}`);
  }

  /**
   * One batch of the list export (ban-list-export.ts): up to `limit` items passing the filter, from
   * id `fromId` on in id order, as the text of their lines, built here in pieces of EXPORT_PIECE_IDS
   * ids at most: the server moves a few MB of text instead of tens of thousands of row objects
   * (PGlite answers over IPC), and no piece is a string big enough for V8's large-object space, which
   * only a full collection frees (a batch in one 2 MB string grew the server by 70 MB on PostgreSQL).
   * CSV: `csvCell(ip),csvCell(comment),createdOn.toISOString()` and CRLF; TXT: the value and LF.
   * The cells follow the reference of ban-list-export.test.ts exactly: a leading = + - @ tab or CR gets a single quote (a formula
   * becomes text), then a cell holding a quote, a comma, CR or LF is quoted with its quotes doubled.
   * The date is toISOString's: UTC, milliseconds (truncated, as a JavaScript Date keeps them), and
   * a year past 9999 or before 1 AD as +YYYYYY / -YYYYYY. `count` and `lastId` page on (both 0,
   * and no piece, when no item is left).
   */
  async exportBatch(
    ref: number,
    filter: ItemFilter,
    format: 'csv' | 'txt',
    fromId: number,
    limit: number,
  ): Promise<{ pieces: string[]; count: number; lastId: number }> {
    const cell = (column: string) => {
      // A formula start after any single quotes (spreadsheetSafe's rule: an import takes one off again).
      const formula = `${column} ~ E'^''*[=+@\\t\\r-]'`;
      const safe = `CASE WHEN ${formula} THEN '''' || ${column} ELSE ${column} END`;
      // The single quote added is none of these: the value itself tells whether the cell is quoted.
      const quoted = `CASE WHEN ${column} ~ E'[",\\r\\n]' THEN '"' || replace(${safe}, '"', '""') || '"' ELSE ${safe} END`;
      // Most cells need neither: one test lets them through as they are.
      return `CASE WHEN ${column} ~ E'^''*[=+@\\t\\r-]|[",\\r\\n]' THEN ${quoted} ELSE ${column} END`;
    };
    /** A date as JavaScript's toISOString writes it (years past 9999 too); null stays null. */
    const date = (column: string) => {
      const utc = `(${column} AT TIME ZONE 'UTC')`;
      const year = `extract(year FROM ${utc})::int`;
      return `CASE WHEN ${column} >= '0001-01-01 00:00:00+00' AND ${column} < '10000-01-01 00:00:00+00'
      THEN to_char(${utc}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      ELSE CASE WHEN ${year} > 0 THEN '+' || lpad(${year}::text, 6, '0')
                WHEN ${year} = -1 THEN '0000'
                ELSE '-' || lpad((-1 - ${year})::text, 6, '0') END
           || to_char(${utc}, '-MM-DD"T"HH24:MI:SS.MS"Z"') END`;
    };
    // BAN_LIST_EXPORT_CSV_COLUMNS: value, comment, expires ('never' for none), added_by, added_at (when it
    // was first added: a restored item keeps its first date, first_created_on, as the screen shows it).
    const line =
      format === 'csv'
        ? `${cell('ip')} || ',' || ${cell('comment')} || ',' || coalesce(${date('expires_at')}, 'never')
           || ',' || ${cell('added_by')} || ',' || ${date('added_at')} || E'\\r\\n'`
        : `ip || E'\\n'`;
    const items = matching(filter);
    const params: unknown[] = [ref, ...items.params, fromId, limit, EXPORT_PIECE_IDS];
    const at = params.length;
    // The batch's text in pieces of EXPORT_PIECE_IDS ids, one row each, in id order (by the id alone:
    // each line is built once, inside the aggregate).
    const rows = await this.db.query<{ text: string; count: number; last_id: number }>(
      `SELECT string_agg(${line}, '' ORDER BY id) AS text, count(*)::int AS count, max(id) AS last_id
       FROM (SELECT id, ip, comment, coalesce(first_created_on, created_on) AS added_at, expires_at, added_by
             FROM ${items.sql} AS item
             WHERE id >= $${at - 2} ORDER BY id LIMIT $${at - 1}) AS batch
       GROUP BY (id - $${at - 2}) / $${at} ORDER BY (id - $${at - 2}) / $${at}`,
      params,
    );
    return {
      pieces: rows.map((row) => row.text),
      count: rows.reduce((sum, row) => sum + row.count, 0),
      lastId: rows.at(-1)?.last_id ?? 0,
    };
  }
}
