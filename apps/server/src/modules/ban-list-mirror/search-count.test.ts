import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertListRows, insertNumberedItems } from '../../test/list-rows';
import { recordingStatements, rowsScannedBy } from '../../test/plans';
import { createTestContext, type TestContext } from '../../test/context';
import { BanListItemsRepository, type ItemFilter } from './ban-list-items.repository';

/**
 * Issue 36: a search's first page carries its count, counted only a few pages past it. For a term
 * that a fifth of a big list matches ("scanner"), that count gathered every match through the
 * comment index before stopping at its limit (100,000 index entries of 500,000 items, 10 ms of the
 * 10.3 ms statement on PostgreSQL, p99 548 ms at 50 connections); counted in id order, it stops
 * after the matches it needs, about where the first page's own walk does.
 */
describe("a search's first page and its capped count", () => {
  let ctx: TestContext;
  let ref: number;
  const ITEMS = 50_000;
  const COUNT_LIMIT = 301;

  beforeAll(async () => {
    ctx = await createTestContext();
    ref = await insertListRows(ctx.db, (await ctx.createUser()).id, 'search');
    // A fifth "scanner", five in all "honeypot" (as the bench's big list: many and few).
    await insertNumberedItems(
      ctx.db,
      ref,
      ITEMS,
      `CASE WHEN n % 10000 = 7 THEN 'honeypot trap #' || n
            ELSE (ARRAY['ssh brute force', 'credential stuffing', 'scanner', 'sql injection probe', 'spam relay'])[n % 5 + 1] || ' #' || n END`,
    );
  }, 120_000);
  afterAll(() => ctx.close());

  /** The page and count statement the repository sends, explained with ANALYZE: the rows its scans read. */
  async function scannedFor(filter: ItemFilter): Promise<number> {
    const recording = recordingStatements(ctx.db);
    const repository = new BanListItemsRepository(recording.db);
    const { items, count } = await repository.pageAndCount(
      ref,
      { filter, sort: 'id', order: 'desc', limit: 100, start: { offset: 0 } },
      COUNT_LIMIT,
    );
    expect(items.length).toBe(Math.min(count, 100));
    const { sql, params } = recording.last();
    return rowsScannedBy(ctx.db, sql, params);
  }

  it('counts a common term no further than its page reads', async () => {
    // A match in five: the count's 301 matches lie within about 1,500 items of the page's walk.
    const scanned = await scannedFor({ kind: 'comment', text: 'scanner', comments: 'containing' });
    expect(scanned).toBeLessThan(4_000);
  });

  it("walks a common term once for a first page in the count's order and the count", async () => {
    // The count's 301 matches are the first 1,505 items; the page's 100 are among them (its own walk
    // read 498 more).
    const scanned = await scannedFor({ kind: 'comment', text: 'scanner', comments: 'containing' });
    expect(scanned).toBeLessThan(1_600);
  });

  it('still finds a rare term through the comment index, not by walking the list', async () => {
    const scanned = await scannedFor({ kind: 'comment', text: 'honeypot', comments: 'containing' });
    expect(scanned).toBeLessThan(1_000);
  });

  it('reads the few addresses starting with a search first, then the comments, without walking the list', async () => {
    // 10.0.1: 256 addresses of 50,000, and no comment.
    const scanned = await scannedFor({ kind: 'fewValuesOrComment', text: '10.0.1.', comments: 'containing' });
    expect(scanned).toBeLessThan(4_000);
  });
});
