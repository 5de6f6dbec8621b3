import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context';
import {
  BUCKET_ORDER_NAMES,
  insertListRows,
  insertNumberedItems,
  miscountedBuckets,
} from '../../test/list-rows';
import { rowsScannedBy } from '../../test/plans';

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
    ref = await insertListRows(ctx.db, (await ctx.createUser()).id, 'buckets');
    await insertNumberedItems(ctx.db, ref, ITEMS, `'note ' || ((n * 7919) % ${ITEMS})`);
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
      let scanned = 0;
      const rolledBack = new Error('rolled back');
      await ctx.db
        .transaction(async (tx) => {
          scanned = await rowsScannedBy(tx, statement);
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
      expect(scanned).toBeLessThan(2 * ITEMS);
    },
  );
  it("counts a statement's rows in the buckets they fall in: 1,500 inserted, then some updated and deleted", async () => {
    await ctx.db.query('SELECT ban_list_item_buckets_build($1, $2)', [ref, ITEMS]);
    // Keys between the list's own in every order but id (which they extend), in one statement each.
    await ctx.db.query(
      `INSERT INTO ban_list_items (ban_list_ref, id, item_id, ip, comment, created_on, ip_sort)
       SELECT $1, $2 + n, md5('new' || n), '10.' || (n % 3) || '.' || (n >> 8) || '.' || (n & 255) || '/32',
              'note ' || ((n * 104729) % $2) || ' again', now() - (n * 4) * interval '1 second',
              ('10.' || (n % 3) || '.' || (n >> 8) || '.' || (n & 255))::inet
       FROM generate_series(1, 1500) AS n`,
      [ref, ITEMS],
    );
    await ctx.db.query(
      "UPDATE ban_list_items SET comment = 'moved ' || id, first_created_on = created_on - interval '1 year' WHERE ban_list_ref = $1 AND id % 7 = 0",
      [ref],
    );
    await ctx.db.query('DELETE FROM ban_list_items WHERE ban_list_ref = $1 AND id % 11 = 0', [ref]);
    for (const order of BUCKET_ORDER_NAMES) {
      expect(await miscountedBuckets(ctx.db, ref, order), order).toEqual([]);
    }
    const [total] = await ctx.db.query<{ items: number }>(
      "SELECT sum(items)::int AS items FROM ban_list_item_buckets WHERE ban_list_ref = $1 AND item_order = 'comment'",
      [ref],
    );
    const [count] = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM ban_list_items WHERE ban_list_ref = $1',
      [ref],
    );
    expect(total!.items).toBe(count!.n);
  });

  it('rebuilds the buckets of a list that one statement grows by a twelfth or more, instead of placing each row (migration 052)', async () => {
    const [before] = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM ban_list_items WHERE ban_list_ref = $1',
      [ref],
    );
    // The functions this transaction called (track_functions), read before it ends.
    const calls = await ctx.db.transaction(async (tx) => {
      await tx.exec("SET LOCAL track_functions = 'pl'");
      await tx.query(
        `INSERT INTO ban_list_items (ban_list_ref, id, item_id, ip, comment, created_on, ip_sort)
         SELECT $1, 100000 + n, md5('bulk' || n), '10.200.' || (n >> 8) || '.' || (n & 255),
                'bulk ' || n, now(), ('10.200.' || (n >> 8) || '.' || (n & 255))::inet
         FROM generate_series(1, 5000) AS n`,
        [ref],
      );
      return tx.query<{ funcname: string; calls: number }>(
        `SELECT funcname, calls::int FROM pg_stat_xact_user_functions
         WHERE funcname IN ('ban_list_item_buckets_build', 'ban_list_item_buckets_split')`,
      );
    });
    const called = Object.fromEntries(calls.map((row) => [row.funcname, row.calls]));
    expect(called.ban_list_item_buckets_split ?? 0).toBe(0);
    expect(called.ban_list_item_buckets_build).toBe(1);
    for (const order of BUCKET_ORDER_NAMES) {
      expect(await miscountedBuckets(ctx.db, ref, order), order).toEqual([]);
      const [total] = await ctx.db.query<{ items: number; fullest: number }>(
        'SELECT sum(items)::int AS items, max(items)::int AS fullest FROM ban_list_item_buckets WHERE ban_list_ref = $1 AND item_order = $2',
        [ref, order],
      );
      expect(total, order).toEqual({ items: before!.n + 5000, fullest: 1000 });
    }
  });
});
