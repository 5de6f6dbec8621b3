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
