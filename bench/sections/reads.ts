/**
 * Reads: pages and searches of the 500,000-item list's items under load, p99 and requests/s against
 * the bare baseline (budgets), then the same with the answer caches off (shown).
 */
import { performance } from 'node:perf_hooks';
import { banListItemEndpoints, pathOf } from '@guardian/contract';
import { fmt } from '../lib/report';
import { SEARCH_FEW, SEARCH_MANY } from '../dataset';
import { BIG_LIST_ITEMS, BUDGET, PAGE_SIZE } from '../options';
import { ensureMirrored, itemsPath, reasonOf, type Context, type ItemsPage } from './context';
import { measureReads, reportRead, type ReadTarget } from './read-load';

export async function readsSection(ctx: Context): Promise<void> {
  const { report } = ctx;
  const names = [
    'first page',
    'middle page',
    'last page',
    `search "${SEARCH_FEW}" (few)`,
    `search "${SEARCH_MANY}" (many)`,
    'sorted by IP Address, middle page',
  ];
  const budgetsOf = (name: string) => [
    { name: `${name}: p99`, limit: `< ${BUDGET.readP99Ms} ms` },
    { name: `${name}: req/s vs bare`, limit: `>= ${BUDGET.readBaselineShare}` },
  ];
  let targets: ReadTarget[];
  try {
    await ensureMirrored(ctx);
    const key = ctx.listKeys.big!;
    const first = await ctx.lists.request<ItemsPage>('GET', itemsPath(key, { page: 1 }));
    if (!Array.isArray(first.items) || typeof first.totalItems !== 'number')
      throw new Error('GET .../items does not answer {items, totalItems}');
    if (first.totalItems !== BIG_LIST_ITEMS) {
      throw new Error(
        `the mirror holds ${first.totalItems} items, not ${BIG_LIST_ITEMS}: run the sync section first`,
      );
    }
    const pages = Math.ceil(BIG_LIST_ITEMS / PAGE_SIZE);
    targets = [
      { name: names[0]!, path: itemsPath(key, { page: 1 }), api: ctx.lists },
      { name: names[1]!, path: itemsPath(key, { page: Math.ceil(pages / 2) }), api: ctx.lists },
      { name: names[2]!, path: itemsPath(key, { page: pages }), api: ctx.lists },
      { name: names[3]!, path: itemsPath(key, { search: SEARCH_FEW, page: 1 }), api: ctx.lists },
      { name: names[4]!, path: itemsPath(key, { search: SEARCH_MANY, page: 1 }), api: ctx.lists },
      // The address order (migration 014's index): the middle page is the deepest from either end.
      {
        name: names[5]!,
        path: itemsPath(key, { page: Math.ceil(pages / 2), sort: 'ip' }),
        api: ctx.lists,
      },
    ];
  } catch (err) {
    report.missing('Reads', reasonOf(err), names.flatMap(budgetsOf));
    return;
  }
  await measureReads(ctx, 'Reads', targets, true, (target, result) =>
    reportRead(report, 'Reads', target, result, BUDGET.readP99Ms, true),
  );
  await reportExactCount(ctx);
}

/**
 * Shown, not judged: what the items screen's second call costs, the exact count of the broad search
 * (100,000 matches) asked for the first time in the list's version (the answer caches off), then again.
 */
async function reportExactCount(ctx: Context): Promise<void> {
  const path = `${pathOf(banListItemEndpoints.count, { list_id: ctx.listKeys.big! })}?search=${SEARCH_MANY}`;
  const figure = `exact count of search "${SEARCH_MANY}": first ask (caches off); again`;
  try {
    const timed = async () => {
      const started = performance.now();
      const answer = await ctx.lists.request<{ totalItems?: unknown }>('GET', path);
      if (typeof answer.totalItems !== 'number')
        throw new Error('GET .../items/count does not answer {totalItems}');
      return { ms: performance.now() - started, total: answer.totalItems };
    };
    let first: Awaited<ReturnType<typeof timed>>;
    await ctx.server.caches(false);
    try {
      first = await timed();
    } finally {
      await ctx.server.caches(true);
    }
    await timed(); // counted into the cache
    const again = await timed();
    ctx.report.row({
      section: 'Reads',
      figure,
      value: `${fmt.ms(first.ms)} (${first.total.toLocaleString('en-US')} matches); ${fmt.ms(again.ms)}`,
    });
  } catch (err) {
    ctx.report.row({ section: 'Reads', figure, value: `not measured: ${reasonOf(err)}` });
  }
}
