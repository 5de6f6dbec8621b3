import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context';

/** Rows a plan's scans read (returned and filtered out, over every loop), from EXPLAIN (ANALYZE, FORMAT JSON). */
function rowsScanned(node: Record<string, unknown>): number {
  const own = String(node['Node Type']).includes('Scan')
    ? (Number(node['Actual Rows'] ?? 0) + Number(node['Rows Removed by Filter'] ?? 0)) *
      Number(node['Actual Loops'] ?? 1)
    : 0;
  const children = (node.Plans as Record<string, unknown>[] | undefined) ?? [];
  return own + children.reduce((sum, child) => sum + rowsScanned(child), 0);
}

/**
 * Migration 051: cutting a list's order buckets (migration 038, after every sync) reads each order's
 * index once, not once per bucket: the id order read the whole primary key for each of its hops,
 * 27 s for 500,000 items on PGlite, during which the database answered nothing else.
 */
describe("a list's order buckets", () => {
  let ctx: TestContext;
  let ref: number;
  const ITEMS = 20_000;

  beforeAll(async () => {
    ctx = await createTestContext();
    const user = await ctx.createUser();
    const [account] = await ctx.db.query<{ id: number }>(
      `INSERT INTO cloudflare_accounts (user_id, account_name, account_id, token_encrypted, token_last4)
       VALUES ($1, 'Buckets Co', 'acc', 'x', 'xxxx') RETURNING id`,
      [user.id],
    );
    const [list] = await ctx.db.query<{ id: number }>(
      `INSERT INTO ban_lists (account_ref, list_id, list_name, kind) VALUES ($1, 'l1', 'buckets', 'ip') RETURNING id`,
      [account!.id],
    );
    ref = list!.id;
    await ctx.db.exec(
      `CREATE TABLE ban_list_items_${ref} PARTITION OF ban_list_items FOR VALUES IN (${ref})`,
    );
    await ctx.db.query(
      `INSERT INTO ban_list_items (ban_list_ref, id, item_id, ip, comment, created_on, ip_sort)
       SELECT $1, n, md5(n::text), '10.' || (n >> 16) || '.' || ((n >> 8) & 255) || '.' || (n & 255),
              'note ' || ((n * 7919) % $2), now() - n * interval '1 second',
              ('10.' || (n >> 16) || '.' || ((n >> 8) & 255) || '.' || (n & 255))::inet
       FROM generate_series(1, $2) AS n`,
      [ref, ITEMS],
    );
    await ctx.db.exec(`ANALYZE ban_list_items_${ref}`);
  }, 120_000);
  afterAll(() => ctx.close());

  it.each(['id', 'address', 'comment', 'created_on'])(
    'cuts the %s order by one walk of its index, about as many rows as the list holds',
    async (order) => {
      const [hops] = await ctx.db.query<{ sql: string }>('SELECT ban_list_item_bucket_hops($1, $2) AS sql', [
        order,
        `ban_list_items_${ref}`,
      ]);
      const statement = hops!.sql
        .replaceAll('$1', String(ref))
        .replaceAll('$2', String(ITEMS))
        .replaceAll('$3', `'${order}'`);
      // Explained with ANALYZE (so its rows are counted), then rolled back: the buckets stay as cut.
      let plan: [{ Plan: Record<string, unknown> }] | undefined;
      const rolledBack = new Error('rolled back');
      await ctx.db
        .transaction(async (tx) => {
          const [row] = await tx.query<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] | string }>(
            `EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`,
          );
          const text = row!['QUERY PLAN'];
          plan = typeof text === 'string' ? JSON.parse(text) : text;
          throw rolledBack;
        })
        .catch((err: unknown) => {
          if (err !== rolledBack) throw err;
        });
      const cut = await ctx.db.query<{ items: number }>(
        'SELECT items FROM ban_list_item_buckets WHERE ban_list_ref = $1 AND item_order = $2',
        [ref, order],
      );
      expect(cut.reduce((sum, bucket) => sum + bucket.items, 0)).toBe(ITEMS);
      expect(rowsScanned(plan![0].Plan)).toBeLessThan(2 * ITEMS);
    },
  );
});
