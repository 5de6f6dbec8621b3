/**
 * Web: the built web app in Chromium: bytes per route (the login page's budget), lazy loading, the
 * 500,000-item list's first page and its searches as a person sees them.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { fmt } from '../lib/report';
import { launchBrowser, lazyChunks, routeBytes, timeItemsScreen, type RouteBytes } from '../lib/web';
import { SEARCH_FEW, SEARCH_MANY } from '../dataset';
import { BIG_LIST_ITEMS, BUDGET, SEARCH_DEBOUNCE_MS, WEB_DIST } from '../options';
import { ensureMirrored, itemsPath, median, reasonOf, type Context, type ItemsPage } from './context';

const SCREEN_CHUNKS = ['accounts', 'ban-lists', 'ban-list-items', 'zones', 'dns-records', 'zone-rules'];

export async function webSection(ctx: Context): Promise<void> {
  const { report } = ctx;
  const itemBudgets = [
    {
      name: `${fmt.int(BIG_LIST_ITEMS)}-item list: first page visible`,
      limit: `<= ${BUDGET.firstPageMs} ms`,
    },
    { name: `search "${SEARCH_FEW}" answer after debounce`, limit: `<= ${BUDGET.searchAfterDebounceMs} ms` },
    { name: `search "${SEARCH_MANY}" answer after debounce`, limit: `<= ${BUDGET.searchAfterDebounceMs} ms` },
  ];
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    report.missing('Web', 'no web build in apps/web/dist: run `npm run build` (npm run bench does)', [
      { name: 'login page JS+CSS gzip', limit: `<= ${fmt.kb(BUDGET.loginGzipBytes)}` },
      ...itemBudgets,
    ]);
    return;
  }
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (err) {
    report.missing('Web', reasonOf(err));
    return;
  }
  try {
    // The items screen needs the big list mirrored; the bundle figures do not.
    const notMirrored = await ensureMirrored(ctx).then(
      () => null,
      (err: unknown) => reasonOf(err),
    );
    const zone = ctx.seeded.writeZone.id;
    const bigKey = ctx.listKeys.big ?? ctx.seeded.bigList.listId;
    const routes: { route: string; token: string | null }[] = [
      { route: '/login', token: null },
      { route: '/dashboard', token: ctx.lists.token },
      { route: '/cloudflare/accounts', token: ctx.lists.token },
      { route: '/cloudflare/banlists', token: ctx.lists.token },
      { route: `/cloudflare/banlists/${bigKey}/items`, token: ctx.lists.token },
      { route: '/cloudflare/zones', token: ctx.zones.token },
      { route: `/cloudflare/zones/${zone}/dns`, token: ctx.zones.token },
      { route: `/cloudflare/zones/${zone}/rules`, token: ctx.zones.token },
    ];
    const loaded: RouteBytes[] = [];
    for (const { route, token } of routes)
      loaded.push(await routeBytes(browser, ctx.server.origin, route, token));
    report.data.webBytes = loaded;
    const shell = new Set(loaded.find((r) => r.route === '/dashboard')?.files.map((f) => f.file) ?? []);
    for (const r of loaded) {
      const total = r.jsGzip + r.cssGzip;
      const own = r.files.filter((f) => !shell.has(f.file)).reduce((sum, f) => sum + f.gzip, 0);
      const label = r.route.replace(zone, '{zone}').replace(bigKey, '{list}');
      const landed = r.landedOn === r.route ? '' : ` (landed on ${r.landedOn})`;
      if (r.route === '/login') {
        report.budget(
          'Web',
          'login page JS+CSS gzip',
          total,
          `${fmt.kb(total)} (JS ${fmt.kb(r.jsGzip)}, CSS ${fmt.kb(r.cssGzip)})${landed}`,
          `<= ${fmt.kb(BUDGET.loginGzipBytes)}`,
          (v) => v <= BUDGET.loginGzipBytes,
        );
      } else {
        report.row({
          section: 'Web',
          figure: `${label} JS+CSS gzip`,
          value: `${fmt.kb(total)}${r.route === '/dashboard' ? ' (the shell)' : `, ${fmt.kb(own)} beyond the shell`}${landed}`,
        });
      }
    }
    // Lazy loading: the login page loads neither the shell nor any screen; each screen loads its own
    // lazy chunk and no other screen's; the dnd vendor chunk (@hello-pangea/dnd) loads on the rules
    // screen only. Screens are known by the lazy chunks of the build (lib/web.ts lazyChunks).
    const lazy = lazyChunks(WEB_DIST);
    const fileOf = (name: string) => lazy.get(name);
    const loads = (r: RouteBytes, file: string | undefined) => !!file && r.files.some((f) => f.file === file);
    const isDnd = (file: string) => /\/dnd-[A-Za-z0-9_-]{8}\.js$/.test(file);
    const login = loaded.find((r) => r.route === '/login')!;
    const loginLoads = ['app-shell', ...SCREEN_CHUNKS].filter((name) => loads(login, fileOf(name)));
    const dndOn = loaded
      .filter((r) => r.files.some((f) => isDnd(f.file)))
      .map((r) => r.route.replace(zone, '{zone}'));
    const screenRoutes: [string, string][] = [
      ['accounts', '/cloudflare/accounts'],
      ['ban-lists', '/cloudflare/banlists'],
      ['ban-list-items', `/cloudflare/banlists/${bigKey}/items`],
      ['zones', '/cloudflare/zones'],
      ['dns-records', `/cloudflare/zones/${zone}/dns`],
      ['zone-rules', `/cloudflare/zones/${zone}/rules`],
    ];
    const screenProblems = screenRoutes.flatMap(([name, route]) => {
      const r = loaded.find((candidate) => candidate.route === route)!;
      if (!fileOf(name)) return [`no lazy chunk for the ${name} screen`];
      if (!loads(r, fileOf(name))) return [`${name} screen does not load its chunk`];
      const others = SCREEN_CHUNKS.filter((other) => other !== name && loads(r, fileOf(other)));
      return others.length ? [`${name} screen also loads ${others.join(', ')}`] : [];
    });
    const lazyProblems = [
      ...(loginLoads.length ? [`login loads ${loginLoads.join(', ')}`] : []),
      ...screenProblems,
      ...(dndOn.length === 1 && dndOn[0]!.endsWith('/rules')
        ? []
        : [`dnd chunk loads on: ${dndOn.join(', ') || 'no route'}`]),
    ];
    report.budget(
      'Web',
      'screens lazy-load their own code; dnd only on rules',
      lazyProblems.length,
      lazyProblems.length === 0 ? `yes (dnd on ${dndOn.join(', ')})` : lazyProblems.join('; '),
      'yes',
      (v) => v === 0,
    );

    // The items screen of the big list: first page, then a search that matches few and one that matches many.
    try {
      if (notMirrored) throw new Error(notMirrored);
      const key = ctx.listKeys.big!;
      const first = await ctx.lists.request<ItemsPage>('GET', itemsPath(key, { page: 1 }));
      if (first.totalItems !== BIG_LIST_ITEMS)
        throw new Error(`the mirror holds ${first.totalItems} items, not ${BIG_LIST_ITEMS}`);
      const firstIp = first.items[0]?.ip;
      if (!firstIp) throw new Error('the first page has no items with an ip');
      const searches = [];
      for (const query of [SEARCH_FEW, SEARCH_MANY]) {
        const answer = await ctx.lists.request<ItemsPage>('GET', itemsPath(key, { search: query, page: 1 }));
        const ip = answer.items[0]?.ip;
        if (!ip) throw new Error(`the search "${query}" answers no items`);
        if (ip === firstIp)
          throw new Error(
            `the search "${query}" starts with the unfiltered first row: cannot tell its answer`,
          );
        searches.push({ name: query, query, firstIp: ip });
      }
      const timings: Awaited<ReturnType<typeof timeItemsScreen>>[] = [];
      // Three cold loads (a fresh browser context each, the server's answer caches off: the person's
      // first visit and first search since the list changed); the median is reported.
      const cachesOff = (await ctx.server.caches(false)).length > 0;
      try {
        for (let i = 0; i < 3; i++) {
          timings.push(
            await timeItemsScreen(
              browser,
              ctx.server.origin,
              ctx.lists.token,
              key,
              firstIp,
              searches,
              SEARCH_DEBOUNCE_MS,
            ),
          );
        }
      } finally {
        if (cachesOff) await ctx.server.caches(true);
      }
      report.data.itemsScreen = timings;
      const firstPage = median(timings.map((t) => t.firstPageMs));
      // The load whose first page time is the median, to show where that time went.
      const typical = [...timings].sort((a, b) => a.firstPageMs - b.firstPageMs)[1] ?? timings[0]!;
      const apiCalls = typical.timeline.api
        .map(
          (call) =>
            `${call.path.replace(key, '{list}').replace('/api/cloudflare', '')} ${fmt.ms(call.startMs)}-${fmt.ms(call.endMs)}`,
        )
        .join(', ');
      report.budget(
        'Web',
        itemBudgets[0]!.name,
        firstPage,
        `${fmt.ms(firstPage)} (document ${fmt.ms(typical.timeline.documentMs)}, JS+CSS by ${fmt.ms(typical.timeline.assetsMs)}, API ${apiCalls})`,
        itemBudgets[0]!.limit,
        (v) => v <= BUDGET.firstPageMs,
      );
      searches.forEach((search, index) => {
        const after = median(timings.map((t) => t.searches[index]!.afterDebounceMs));
        report.budget(
          'Web',
          itemBudgets[index + 1]!.name,
          after,
          fmt.ms(after),
          itemBudgets[index + 1]!.limit,
          (v) => v <= BUDGET.searchAfterDebounceMs,
        );
      });
    } catch (err) {
      report.missing('Web', `items screen: ${reasonOf(err)}`, itemBudgets);
    }
  } catch (err) {
    report.missing('Web', reasonOf(err));
  } finally {
    await browser.close();
  }
}
