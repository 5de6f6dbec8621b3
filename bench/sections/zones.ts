/**
 * Zones: the zones screen's reads (one page, GET /zones/page) under load (p99) and their database round
 * trips per request, with the whole 1,000-zone list shown beside them; the zones person's first sync,
 * run at set-up, is shown here too.
 */
import { performance } from 'node:perf_hooks';
import { zoneEndpoints } from '@guardian/contract';
import { fmt } from '../lib/report';
import { BUDGET, ZONE_COUNT, ZONES_PAGE_SIZE } from '../options';
import { reasonOf, type Context } from './context';
import { measureReads, reportRead, type ReadTarget } from './read-load';

/** The zones screen's reads: its first page (the default order), a middle page in another order, a search. */
function screenTargets(ctx: Context): ReadTarget[] {
  const pages = Math.max(1, Math.ceil(ZONE_COUNT / ZONES_PAGE_SIZE));
  const middle = Math.ceil(pages / 2);
  // bench-zone-0000.com to -0099.com: 100 matches of the 1,000 zones (every zone of --zones=100).
  const search = 'zone-00';
  const expected = {
    first: Math.min(ZONES_PAGE_SIZE, ZONE_COUNT),
    middle: Math.min(ZONES_PAGE_SIZE, ZONE_COUNT - (middle - 1) * ZONES_PAGE_SIZE),
    search: Math.min(ZONES_PAGE_SIZE, 100, ZONE_COUNT),
  };
  const target = (name: string, query: string, zones: number): ReadTarget => ({
    name,
    path: `${zoneEndpoints.page.path}${query}`,
    api: ctx.zones,
    check: (body) => {
      const page = body as { zones?: unknown[]; totalZones?: unknown };
      return Array.isArray(page.zones) && page.zones.length === zones && typeof page.totalZones === 'number'
        ? undefined
        : `expected a page of ${zones} zones, got ${JSON.stringify(body).slice(0, 80)}`;
    },
  });
  return [
    target(`zones page 1 of ${fmt.int(ZONE_COUNT)}`, '', expected.first),
    target(
      `zones page ${middle} by account, descending`,
      `?page=${middle}&sort=accountName&order=desc`,
      expected.middle,
    ),
    target(`zones search "${search}"`, `?search=${search}`, expected.search),
  ];
}

export async function zonesSection(ctx: Context): Promise<void> {
  const { report } = ctx;
  const screen = screenTargets(ctx);
  const budgets = [
    ...screen.flatMap((target) => [
      { name: `${target.name} (cached): p99`, limit: `< ${BUDGET.zonesP99Ms} ms` },
      { name: `${target.name} (cold: caches off): p99`, limit: `< ${BUDGET.coldZonesP99Ms} ms` },
      {
        name: `${target.name} (cold: caches off): round trips / request`,
        limit: `<= ${BUDGET.coldZonesRoundTrips}`,
      },
    ]),
    {
      name: 'database round trips / request (cached)',
      limit: `<= ${BUDGET.zonesQueriesPerRequest} (+ auth)`,
    },
  ];
  // The whole list (GET /zones, for the screens that need every zone: reports, rules overview...):
  // shown, not judged, so the paged screen's pass reads no stronger than it is.
  const wholeList: ReadTarget = {
    name: `all ${fmt.int(ZONE_COUNT)} zones (GET /zones)`,
    path: zoneEndpoints.list.path,
    api: ctx.zones,
    check: (body) =>
      Array.isArray(body) && body.length === ZONE_COUNT
        ? undefined
        : `expected ${ZONE_COUNT} zones, got ${Array.isArray(body) ? body.length : typeof body}`,
  };
  const cold = { p99Ms: BUDGET.coldZonesP99Ms, roundTrips: BUDGET.coldZonesRoundTrips };
  try {
    await measureReads(ctx, 'Zones', [...screen, wholeList], true, (target, result) =>
      target === wholeList
        ? reportRead(report, 'Zones', target, result, undefined, false, undefined)
        : reportRead(report, 'Zones', target, result, BUDGET.zonesP99Ms, false, cold),
    );
    // Round trips, exactly: a few requests one after another of the screen's first page, counted by
    // the proxy around the Db (with the caches on, as the server runs; then off).
    const [firstPage] = screen;
    const roundTrips = async () => {
      const requests = 10;
      await ctx.server.resetQueries();
      for (let i = 0; i < requests; i++) await ctx.zones.request('GET', firstPage!.path);
      const counts = await ctx.server.queries();
      return {
        total: counts.total / requests,
        data: (counts.total - counts.auth) / requests,
        auth: counts.auth / requests,
        statements: counts.bySql,
      };
    };
    const cached = await roundTrips();
    let uncached: Awaited<ReturnType<typeof roundTrips>> | undefined;
    if ((await ctx.server.caches(false)).length > 0) {
      try {
        uncached = await roundTrips();
      } finally {
        await ctx.server.caches(true);
      }
    }
    report.data.zonesQueries = { cached, uncached };
    const shown = (trips: typeof cached) =>
      `${fmt.ratio(trips.data)} for the page + ${fmt.ratio(trips.auth)} auth guard = ${fmt.ratio(trips.total)}`;
    report.budget(
      'Zones',
      'database round trips / request (cached)',
      cached.data,
      shown(cached) +
        (uncached ? `; caches off ${fmt.ratio(uncached.data)} + ${fmt.ratio(uncached.auth)}` : ''),
      `<= ${BUDGET.zonesQueriesPerRequest} (+ auth)`,
      (v) => v <= BUDGET.zonesQueriesPerRequest,
    );
  } catch (err) {
    report.missing('Zones', reasonOf(err), budgets);
  }
}

/**
 * Set-up, before any section: the zones person's mirror (also the write zone's ownership check), a
 * row of the Zones section whichever sections run.
 */
export async function syncZones(ctx: Context): Promise<void> {
  const { report, timed, seeded } = ctx;
  try {
    timed.sandbox.control.resetCalls();
    // Zones are listed per account, at most 50 a page.
    const minimumZoneCalls = seeded.zoneAccounts.reduce(
      (sum, account) =>
        sum + Math.max(1, Math.ceil(timed.sandbox.control.getZones(account.accountId).length / 50)),
      0,
    );
    const syncStarted = performance.now();
    await ctx.zones.request('POST', zoneEndpoints.sync.path);
    const zonesSync = { ms: performance.now() - syncStarted };
    report.row({
      section: 'Zones',
      figure: `sync ${fmt.int(ZONE_COUNT)} zones (POST /zones/sync)`,
      value: `${fmt.ms(zonesSync.ms)}, ${timed.sandbox.control.callCount({ path: /^\/zones$/ })} Cloudflare calls (minimum ${minimumZoneCalls})`,
    });
  } catch (err) {
    report.missing('Zones', `zones sync: ${reasonOf(err)}`);
  }
}
