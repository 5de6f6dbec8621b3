/**
 * Zones: the 1,000-zone list under load (p99) and its database round trips per request; the zones
 * person's first sync, run at set-up, is shown here too.
 */
import { performance } from 'node:perf_hooks';
import { zoneEndpoints } from '@guardian/contract';
import { fmt } from '../lib/report';
import { BUDGET, ZONE_COUNT } from '../options';
import { reasonOf, type Context } from './context';
import { measureReads, reportRead, type ReadTarget } from './read-load';

export async function zonesSection(ctx: Context): Promise<void> {
  const { report } = ctx;
  const budgets = [
    { name: `${fmt.int(ZONE_COUNT)} zones (cached): p99`, limit: `< ${BUDGET.zonesP99Ms} ms` },
    { name: `${fmt.int(ZONE_COUNT)} zones (cold: caches off): p99`, limit: `< ${BUDGET.coldZonesP99Ms} ms` },
    {
      name: `${fmt.int(ZONE_COUNT)} zones (cold: caches off): round trips / request`,
      limit: `<= ${BUDGET.coldZonesRoundTrips}`,
    },
    {
      name: 'database round trips / request (cached)',
      limit: `<= ${BUDGET.zonesQueriesPerRequest} (+ auth)`,
    },
  ];
  const target: ReadTarget = {
    name: `${fmt.int(ZONE_COUNT)} zones`,
    path: zoneEndpoints.list.path,
    api: ctx.zones,
    check: (body) =>
      Array.isArray(body) && body.length === ZONE_COUNT
        ? undefined
        : `expected ${ZONE_COUNT} zones, got ${Array.isArray(body) ? body.length : typeof body}`,
  };
  try {
    await measureReads(ctx, 'Zones', [target], true, (_, result) =>
      reportRead(report, 'Zones', target, result, BUDGET.zonesP99Ms, false, {
        p99Ms: BUDGET.coldZonesP99Ms,
        roundTrips: BUDGET.coldZonesRoundTrips,
      }),
    );
    // Round trips, exactly: a few requests one after another, counted by the proxy around the Db
    // (with the caches on, as the server runs; then off, as after every change of the zones).
    const roundTrips = async () => {
      const requests = 10;
      await ctx.server.resetQueries();
      for (let i = 0; i < requests; i++) await ctx.zones.request('GET', target.path);
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
      `${fmt.ratio(trips.data)} for the zones + ${fmt.ratio(trips.auth)} auth guard = ${fmt.ratio(trips.total)}`;
    report.budget(
      'Zones',
      'database round trips / request (cached)',
      cached.data,
      shown(cached) +
        (uncached ? `; after a change ${fmt.ratio(uncached.data)} + ${fmt.ratio(uncached.auth)}` : ''),
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
