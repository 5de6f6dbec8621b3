import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db';
import { createTestContext, type TestContext } from '../../test/context';
import {
  BUCKET_ORDER_KEYS,
  BUCKET_ORDER_NAMES,
  type BucketOrderName,
  insertListRows,
  insertNumberedItems,
  miscountedBuckets,
} from '../../test/list-rows';
import { BanListItemsRepository, BanListsRepository, newPendingItemId } from '../ban-list-mirror';
import type { BanListItemRecord, BanListRecord } from '../ban-list-mirror';
import { ListImportRepository } from './list-import.repository';
import { IMPORT_RECORD_BATCH, MirrorRecording, type ImportedItem } from './mirror-recording';

/**
 * Migration 055: an import that grows a list by a twelfth or more, in more than one transaction,
 * leaves the list's order buckets for one cut after its last transaction instead of placing every
 * transaction's rows in them; its pages in every order read the same meanwhile.
 */
describe("an import's items recorded in a list's mirror", () => {
  let ctx: TestContext;
  const LISTED = 20_000;

  beforeAll(async () => {
    ctx = await createTestContext();
  }, 120_000);
  afterAll(() => ctx.close());

  /** A list of `LISTED` items (numbered as insertNumberedItems does) with its order buckets cut. */
  async function listedList(name: string): Promise<BanListRecord> {
    const userId = (await ctx.createUser()).id;
    const ref = await insertListRows(ctx.db, userId, name);
    await insertNumberedItems(ctx.db, ref, LISTED, `'listed ' || ((n * 7919) % ${LISTED})`);
    await ctx.db.query(
      'UPDATE ban_lists SET items_count = $2, first_item_id = 1, next_item_id = $2 + 1 WHERE id = $1',
      [ref, LISTED],
    );
    await ctx.db.query('SELECT ban_list_item_buckets_build($1, $2)', [ref, LISTED]);
    return (await new BanListsRepository(ctx.db).findOwned(userId, ref))!;
  }

  /**
   * `count` new items among the listed ones' keys: addresses before and after theirs (10.0.x.x),
   * comments each just after one of theirs, created an hour ago (theirs 1 to 20,000 seconds ago).
   */
  function imported(count: number): ImportedItem[] {
    const createdOn = new Date(Date.now() - 3_600_000).toISOString();
    return Array.from({ length: count }, (_, i) => {
      const ip = `${i % 2 === 0 ? 9 : 11}.0.${(i >> 8) & 255}.${i & 255}`;
      return {
        itemId: newPendingItemId(),
        ip,
        comment: `listed ${(i * 104729) % LISTED} imported`,
        createdOn,
        ipSort: ip,
        expiresAt: null,
      };
    });
  }

  /** The database, calling `after` once each transaction has committed (before the next begins). */
  function watched(after: () => Promise<void>): Db {
    const { db } = ctx;
    return {
      kind: db.kind,
      query: (sql, params, options) => db.query(sql, params, options),
      exec: (sql) => db.exec(sql),
      copyIn: (target, rows) => db.copyIn(target, rows),
      transaction: async (fn) => {
        const result = await db.transaction(fn);
        await after();
        return result;
      },
      close: () => db.close(),
    };
  }

  /** Who imports (the mirror keeps their id and name, not checked against users). */
  const NAME = 'someone@example.com';
  const told = { progress: () => {}, changed: () => {} };

  async function bucketCounts(ref: number): Promise<Record<string, number>> {
    const rows = await ctx.db.query<{ item_order: string; items: number }>(
      `SELECT item_order, sum(items)::int AS items FROM ban_list_item_buckets
       WHERE ban_list_ref = $1 GROUP BY 1`,
      [ref],
    );
    return Object.fromEntries(rows.map((row) => [row.item_order, row.items]));
  }

  /** Every order of the ip list holds its `total` items in buckets, each counting the items it holds. */
  async function expectCounted(ref: number, total: number) {
    expect(await bucketCounts(ref)).toEqual(
      Object.fromEntries(BUCKET_ORDER_NAMES.map((order) => [order, total])),
    );
    for (const order of BUCKET_ORDER_NAMES) {
      expect(await miscountedBuckets(ctx.db, ref, order), order).toEqual([]);
    }
  }

  /** The page at `offset` as an offset over the whole order reads it. */
  function pageByOffset(ref: number, order: BucketOrderName, offset: number) {
    const [key] = BUCKET_ORDER_KEYS[order];
    return ctx.db.query<{ id: number }>(
      `SELECT i.id FROM ban_list_items i WHERE i.ban_list_ref = $1 ORDER BY ${key}, i.id OFFSET $2 LIMIT 25`,
      [ref, offset],
    );
  }

  const ids = (rows: readonly Pick<BanListItemRecord, 'id'>[] | undefined) =>
    rows?.map((row) => Number(row.id));

  it('cuts the buckets once after its last transaction, and pages read the same meanwhile', async () => {
    const list = await listedList('deferred');
    const items = imported(2 * IMPORT_RECORD_BATCH + 2_000);
    const pages = new BanListItemsRepository(ctx.db);
    // After each transaction: the list's buckets, and whether its pages (at any depth, in the orders
    // whose pages the buckets serve, the address order's by offset elsewhere) read as an offset does.
    const seen: { buckets: Record<string, number>; pagesRight: boolean }[] = [];
    const look = async () => {
      let pagesRight = true;
      for (const order of ['id', 'comment', 'created_on'] as const) {
        for (const offset of [0, 7_000, LISTED + 1_000]) {
          const read = await pages.pageInBuckets(list.ref, order, offset, 25);
          const expected = await pageByOffset(list.ref, order, offset);
          if (JSON.stringify(ids(read) ?? []) !== JSON.stringify(ids(expected))) pagesRight = false;
        }
      }
      seen.push({ buckets: await bucketCounts(list.ref), pagesRight });
    };
    const recording = new MirrorRecording(watched(look), list, { userId: 1, name: NAME }, told);
    await recording.record(items);
    await recording.confirm();

    // Its ids reserved (the list as it was), its items attached with the buckets dropped (none placed,
    // none split), then one order cut a transaction; its pages read right throughout.
    expect(seen.map((step) => step.pagesRight)).toEqual(Array(2 + 4).fill(true));
    expect(seen.slice(0, 2).map((step) => step.buckets)).toEqual([
      Object.fromEntries(BUCKET_ORDER_NAMES.map((order) => [order, LISTED])),
      {},
    ]);
    // After the last, every order cut anew.
    await expectCounted(list.ref, LISTED + items.length);
  });

  it("writes a large import's items into a table of their own, attached at once, each value once", async () => {
    const list = await listedList('attached');
    const items = imported(2 * IMPORT_RECORD_BATCH + 2_000);
    const mirrored = async () => {
      const [row] = await ctx.db.query<{ rows: number; values: number; counted: number; history: number }>(
        `SELECT count(*)::int AS rows, count(DISTINCT ip)::int AS values,
                (SELECT items_count FROM ban_lists WHERE id = $1) AS counted,
                (SELECT count(*)::int FROM ban_list_item_history WHERE ban_list_ref = $1 AND actor = $2) AS history
         FROM ban_list_items WHERE ban_list_ref = $1`,
        [list.ref, NAME],
      );
      return row!;
    };
    const tables = async () =>
      (
        await ctx.db.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM pg_inherits WHERE inhparent = to_regclass($1)',
          [`ban_list_items_${list.ref}`],
        )
      )[0]!.count;
    // While its table is built, another write mirrors one of its values and one of its own.
    let transactions = 0;
    const addMeanwhile = async () => {
      if (transactions++ > 0) return;
      await ctx.db.transaction(async (tx) => {
        const locked = (await new BanListsRepository(tx).lock(list.ref))!;
        const other = { ...items[0]!, itemId: newPendingItemId(), ip: '12.0.0.1', ipSort: '12.0.0.1' };
        await new ListImportRepository(tx).insertImported(
          list.ref,
          locked.nextItemId,
          [{ ...items[5]!, itemId: newPendingItemId() }, other],
          { userId: 1, name: 'another@example.com' },
        );
      });
    };
    const recording = new MirrorRecording(watched(addMeanwhile), list, { userId: 1, name: NAME }, told);
    await recording.record(items);
    await recording.confirm();
    const total = LISTED + items.length + 1;
    expect(await mirrored()).toEqual({
      rows: total,
      values: total,
      counted: total,
      history: items.length - 1,
    });
    // The list's earlier items, and the import's in a table of their own.
    expect(await tables()).toBe(2);
    await expectCounted(list.ref, total);

    // A second one is a third table; its write not completed at Cloudflare, its items and history go.
    const [now] = await ctx.db.query<{ next: number }>(
      'SELECT next_item_id AS next FROM ban_lists WHERE id = $1',
      [list.ref],
    );
    const again = { ...list, itemsCount: total, nextItemId: Number(now!.next) };
    const more = imported(IMPORT_RECORD_BATCH + 1_000).map((item) => {
      const ip = item.ip.replace(/^\d+/, '13');
      return { ...item, ip, ipSort: ip };
    });
    const second = new MirrorRecording(ctx.db, again, { userId: 1, name: NAME }, told);
    await second.record(more);
    expect(await tables()).toBe(3);
    expect((await mirrored()).rows).toBe(total + more.length);
    await expectCounted(list.ref, total + more.length);
    await second.withdraw();
    expect(await mirrored()).toEqual({
      rows: total,
      values: total,
      counted: total,
      history: items.length - 1,
    });
    await expectCounted(list.ref, total);
    // An item added after them has the next id, and every order's pages read it.
    const after = await pagesAfterAdd(list.ref);
    expect(after).toEqual(true);
  });

  /** Adds one item and answers whether every order's last page, as the buckets serve it, ends with it where it sorts. */
  async function pagesAfterAdd(ref: number): Promise<boolean> {
    await ctx.db.transaction(async (tx) => {
      const locked = (await new BanListsRepository(tx).lock(ref))!;
      const item = { ...imported(1)[0]!, itemId: newPendingItemId(), ip: '14.0.0.1', ipSort: '14.0.0.1' };
      await new ListImportRepository(tx).insertImported(ref, locked.nextItemId, [item], {
        userId: 1,
        name: NAME,
      });
    });
    const pages = new BanListItemsRepository(ctx.db);
    for (const order of BUCKET_ORDER_NAMES) {
      for (const offset of [0, 10_000, LISTED + 7_000]) {
        const read = order === 'address' ? undefined : await pages.pageInBuckets(ref, order, offset, 25);
        const expected = await pageByOffset(ref, order, offset);
        if (read && JSON.stringify(ids(read)) !== JSON.stringify(ids(expected))) return false;
      }
    }
    const [added] = await ctx.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM ban_list_items WHERE ban_list_ref = $1 AND ip = '14.0.0.1'",
      [ref],
    );
    return added!.count === 1;
  }

  it('places the items of one transaction in their buckets, as any write does', async () => {
    const list = await listedList('placed');
    const items = imported(1_500);
    const recording = new MirrorRecording(ctx.db, list, { userId: 1, name: NAME }, told);
    await recording.record(items);
    await recording.confirm();
    await expectCounted(list.ref, LISTED + items.length);
  });
});
