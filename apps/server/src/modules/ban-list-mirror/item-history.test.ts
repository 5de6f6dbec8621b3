import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertListRows } from '../../test/list-rows';
import { recordingStatements, rowsScannedBy } from '../../test/plans';
import { createTestContext, type TestContext } from '../../test/context';
import { ItemHistoryRepository } from './item-history';

/**
 * Issue 36: an item's history is its value's in the list (migration 057). A sync that learned the
 * Cloudflare ids of 89,000 imported items rewrote each one's events under them, a tenth of that sync;
 * found by value, the events stay under the id they were written with.
 */
describe("an item's history", () => {
  let ctx: TestContext;
  let ref: number;
  const EVENTS = 20_000;

  beforeAll(async () => {
    ctx = await createTestContext();
    ref = await insertListRows(ctx.db, (await ctx.createUser()).id, 'history');
    // Many other values' events, so that reading the whole history would show.
    await ctx.db.query(
      `INSERT INTO ban_list_item_history (ban_list_ref, item_id, value, event, user_id, actor)
       SELECT $1, 'cf' || n, '10.1.' || (n >> 8) || '.' || (n & 255), 'added', NULL, 'someone'
       FROM generate_series(1, $2::int) AS n`,
      [ref, EVENTS],
    );
    await ctx.db.exec('ANALYZE ban_list_item_history');
  }, 120_000);
  afterAll(() => ctx.close());

  /** The value's history as the repository reads it, and the rows its statement's scans read. */
  async function historyOf(value: string) {
    const recording = recordingStatements(ctx.db);
    const events = await new ItemHistoryRepository(recording.db).forValue(ref, value);
    const { sql, params } = recording.last();
    return { events, scanned: await rowsScannedBy(ctx.db, sql, params) };
  }

  it("gathers the value's events under every item id it had, and reads only those", async () => {
    const history = new ItemHistoryRepository(ctx.db);
    const event = (itemId: string, value: string, kind: 'added' | 'removed' | 'expired') => ({
      itemId,
      value,
      event: kind,
      userId: null,
      actor: 'someone',
    });
    // Imported under a provisional id, expired under Cloudflare's, added again as a new item.
    await history.record(ref, [event('pending:1', '192.0.2.7', 'added')]);
    await history.record(ref, [event('cf-first', '192.0.2.7', 'expired')]);
    await history.record(ref, [event('cf-second', '192.0.2.7', 'added')]);
    await history.record(ref, [event('cf-other', '192.0.2.70', 'added')]);

    const { events, scanned } = await historyOf('192.0.2.7');
    expect(events.map((row) => row.event)).toEqual(['added', 'expired', 'added']);
    // Through the value index of migration 057: its own events, not the other 20,000.
    expect(scanned).toBeLessThan(20);
  });

  it('finds a value without case, and a redirect by its source', async () => {
    const history = new ItemHistoryRepository(ctx.db);
    const added = { event: 'added' as const, userId: null, actor: 'someone' };
    await history.record(ref, [{ ...added, itemId: 'h1', value: 'Example.COM' }]);
    await history.record(ref, [{ ...added, itemId: 'r1', value: 'a.example/x -> https://b.example/' }]);
    await history.record(ref, [{ ...added, itemId: 'r2', value: 'a.example/x -> https://c.example/' }]);

    expect((await historyOf('example.com')).events).toHaveLength(1);
    expect((await historyOf('A.example/x -> https://d.example/')).events).toHaveLength(2);
  });
});
