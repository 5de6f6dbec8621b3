import type { Queryable } from '../db';

/**
 * A ban list and its empty items partition straight in the database, in an account of its own, both
 * named `name`, with nothing at Cloudflare behind them: for tests of what the database does with a
 * list's rows. Answers the list's ref.
 */
export async function insertListRows(db: Queryable, userId: number, name: string): Promise<number> {
  const [account] = await db.query<{ id: number }>(
    `INSERT INTO cloudflare_accounts (user_id, account_name, account_id, token_encrypted, token_last4)
     VALUES ($1, $2, 'acc', 'x', 'xxxx') RETURNING id`,
    [userId, name],
  );
  const [list] = await db.query<{ id: number }>(
    `INSERT INTO ban_lists (account_ref, list_id, list_name, kind) VALUES ($1, 'l1', $2, 'ip') RETURNING id`,
    [account!.id, name],
  );
  const ref = list!.id;
  await db.exec(`CREATE TABLE ban_list_items_${ref} PARTITION OF ban_list_items FOR VALUES IN (${ref})`);
  return ref;
}

/**
 * Items 1 to `count` of the list straight in its partition, item n at 10.(n>>16).((n>>8)&255).(n&255),
 * created n seconds ago, with the comment the SQL expression `comment` makes of n; then ANALYZE, so
 * the planner sees the list as it is (tests of plans).
 */
export async function insertNumberedItems(
  db: Queryable,
  ref: number,
  count: number,
  comment: string,
): Promise<void> {
  const address = `'10.' || (n >> 16) || '.' || ((n >> 8) & 255) || '.' || (n & 255)`;
  await db.query(
    `INSERT INTO ban_list_items (ban_list_ref, id, item_id, ip, comment, created_on, ip_sort)
     SELECT $1, n, md5(n::text), ${address}, ${comment}, now() - n * interval '1 second', (${address})::inet
     FROM generate_series(1, $2) AS n`,
    [ref, count],
  );
  await db.exec(`ANALYZE ban_list_items_${ref}`);
}

/** Each order kept in buckets (migration 038): its key over an item `i` and its bucket column. */
export const BUCKET_ORDER_KEYS = {
  id: ['i.id', 'from_number'],
  address: ['i.ip_sort', 'from_address'],
  comment: ['i.comment', 'from_comment'],
  created_on: ['coalesce(i.first_created_on, i.created_on)', 'from_created'],
} as const;
export type BucketOrderName = keyof typeof BUCKET_ORDER_KEYS;
export const BUCKET_ORDER_NAMES = Object.keys(BUCKET_ORDER_KEYS) as BucketOrderName[];

/** Each of the list's buckets of `order` whose count differs from the items between its start and the next's. */
export async function miscountedBuckets(db: Queryable, ref: number, order: BucketOrderName) {
  const [key, column] = BUCKET_ORDER_KEYS[order];
  const rows = await db.query<{ bucket: number; items: number; actual: number }>(
    `SELECT b.bucket, b.items, (
       SELECT count(*)::int FROM ban_list_items i
       WHERE i.ban_list_ref = $1 AND (${key}, i.id) >= (b.start, b.from_id)
         AND (b.next IS NULL OR (${key}, i.id) < (b.next, b.next_id))) AS actual
     FROM (SELECT bucket, items, ${column} AS start, from_id,
                  lead(${column}) OVER w AS next, lead(from_id) OVER w AS next_id
           FROM ban_list_item_buckets WHERE ban_list_ref = $1 AND item_order = $2
           WINDOW w AS (ORDER BY ${column}, from_id)) AS b`,
    [ref, order],
  );
  return rows.filter((row) => row.items !== row.actual);
}
