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
