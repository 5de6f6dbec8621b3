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
    'sorted by Comment, middle page',
    'sorted by Created On, middle page',
  ];
  const coldP99 = BUDGET.coldLoadP99Ms[ctx.server.database];
  const budgetsOf = (name: string) => [
    { name: `${name} (cached): p99`, limit: `< ${BUDGET.readP99Ms} ms` },
    { name: `${name} (cached): req/s vs bare`, limit: `>= ${BUDGET.readBaselineShare}` },
    { name: `${name} (cold: caches off): p99`, limit: `< ${coldP99} ms` },
    { name: `${name} (cold: caches off): round trips / request`, limit: `<= ${BUDGET.coldReadRoundTrips}` },
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
      // The Comment and Created On orders (migrations 026 and 038): their middle page too.
      {
        name: names[6]!,
        path: itemsPath(key, { page: Math.ceil(pages / 2), sort: 'comment' }),
        api: ctx.lists,
      },
      {
        name: names[7]!,
        path: itemsPath(key, { page: Math.ceil(pages / 2), sort: 'created_on' }),
        api: ctx.lists,
      },
    ];
  } catch (err) {
    report.missing('Reads', reasonOf(err), names.flatMap(budgetsOf));
    return;
  }
  await coldOnePerson(ctx, ctx.listKeys.big!);
  await measureReads(ctx, 'Reads', targets, true, (target, result) =>
    reportRead(report, 'Reads', target, result, BUDGET.readP99Ms, true, {
      p99Ms: coldP99,
      roundTrips: BUDGET.coldReadRoundTrips,
    }),
  );
  await reportExactCount(ctx);
}

/**
 * Issue 36, one person with the answer caches off: each read asked `coldSequentialRequests` times one
 * after another (every answer read from the database, as the first after a change is): the first,
 * middle and last page of each order both ways, and both searches. A row per order and direction
 * (its three pages' requests together) and per search: p99, judged, and round trips per request.
 */
async function coldOnePerson(ctx: Context, key: string): Promise<void> {
  const pages = Math.ceil(BIG_LIST_ITEMS / PAGE_SIZE);
  const reads: { name: string; paths: string[] }[] = [];
  for (const [sort, label] of [
    ['id', 'No'],
    ['ip', 'IP Address'],
    ['comment', 'Comment'],
    ['created_on', 'Created On'],
  ] as const) {
    for (const order of ['asc', 'desc'] as const) {
      reads.push({
        name: `one person, cold: sorted by ${label} ${order}, first/middle/last page`,
        paths: [1, Math.ceil(pages / 2), pages].map((page) => itemsPath(key, { page, sort, order })),
      });
    }
  }
  for (const search of [SEARCH_FEW, SEARCH_MANY])
    reads.push({
      name: `one person, cold: search "${search}"`,
      paths: [itemsPath(key, { search, page: 1 })],
    });
  const limit = `< ${BUDGET.coldSequentialP99Ms} ms`;
  if ((await ctx.server.caches(false)).length === 0) {
    ctx.report.missing(
      'Reads',
      'the server has no answer caches to turn off',
      reads.map((read) => ({ name: `${read.name}: p99`, limit })),
    );
    return;
  }
  const figures: Record<string, unknown> = {};
  try {
    for (const read of reads) {
      const times: number[] = [];
      let failure: string | undefined;
      await ctx.server.resetQueries();
      for (const path of read.paths) {
        for (let i = 0; i < BUDGET.coldSequentialRequests; i++) {
          const started = performance.now();
          try {
            await ctx.lists.request('GET', path);
          } catch (err) {
            failure ??= reasonOf(err);
          }
          times.push(performance.now() - started);
        }
      }
      const counts = await ctx.server.queries();
      times.sort((a, b) => a - b);
      const p99 = times[Math.min(times.length - 1, Math.ceil(times.length * 0.99) - 1)]!;
      const p50 = times[Math.floor(times.length / 2)]!;
      const trips = counts.total / times.length;
      let plans: unknown;
      if (p99 >= BUDGET.coldSequentialP99Ms) {
        // The slowest of its pages, explained.
        await ctx.server.resetQueries();
        await ctx.lists.request('GET', read.paths[Math.floor(read.paths.length / 2)]!);
        plans = await ctx.server.explain().catch((err: unknown) => reasonOf(err));
      }
      figures[read.name] = { paths: read.paths, p50, p99, roundTrips: trips, plans };
      ctx.report.budget(
        'Reads',
        `${read.name}: p99`,
        failure ? Number.POSITIVE_INFINITY : p99,
        `${fmt.ms(p99)} (p50 ${fmt.ms(p50)}; ${fmt.ratio(trips)} round trips/req, auth included)`,
        limit,
        (v) => v < BUDGET.coldSequentialP99Ms,
        failure,
      );
    }
  } finally {
    await ctx.server.caches(true);
  }
  ctx.report.data.coldOnePerson = figures;
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
