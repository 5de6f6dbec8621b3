/**
 * Reports (issue 37): the security report over the zones person's zones (1,000 in 5 accounts by
 * default), 7 days. Cloudflare's GraphQL queries counted at the sandbox against the fewest the API's
 * limits allow (10 zones a query: per account, ceil(zones / 10) for the zones' dataset limits and as
 * many for the report's dataset), within Cloudflare's 300 queries per 5 minutes; the report's first
 * answer (partial or whole: the report is progressive) with its caches empty, and the time until it
 * is whole; its p99 at `--connections` once kept; and the charts chunk check.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { reportEndpoints, type SecurityReport } from '@guardian/contract';
import { load, warm } from '../lib/load';
import { fmt } from '../lib/report';
import { ROOT } from '../lib/stack';
import { BUDGET, CONNECTIONS, DURATION_S, WEB_DIST, ZONE_COUNT } from '../options';
import { reasonOf, type Context } from './context';

const SECTION = 'Reports';
const PATH = `${reportEndpoints.security.path}?range=7d`;
const GRAPHQL = { path: /^\/graphql$/ };

export async function reportsSection(ctx: Context): Promise<void> {
  const { report, timed, seeded, server } = ctx;
  const reportName = `security report, ${fmt.int(ZONE_COUNT)} zones in ${seeded.zoneAccounts.length} accounts, 7 days`;
  const budgets = [
    { name: `${reportName}: GraphQL queries / minimum`, limit: `= ${fmt.ratio(BUDGET.reportQueriesRatio)}` },
    { name: 'GraphQL queries in the 5 minutes', limit: `<= ${BUDGET.reportQueriesPer5Min}` },
    { name: 'first answer (partial or whole), caches empty', limit: `< ${fmt.ms(BUDGET.reportColdMs)}` },
    { name: `kept: p99 at ${CONNECTIONS} connections`, limit: `< ${BUDGET.reportWarmP99Ms} ms` },
  ];
  try {
    // The fewest queries: per account, one settings query and one report query per 10 zones (the
    // enterprise zones' 7 days fit one window).
    const batches = seeded.zoneAccounts.reduce(
      (sum, account) => sum + Math.ceil(timed.sandbox.control.getZones(account.accountId).length / 10),
      0,
    );
    const minimum = batches * 2;
    timed.sandbox.control.resetCalls();
    const sectionStart = performance.now();
    // Cold: the answer caches off for the first request (the zones' limits and the answers are read
    // anew); it answers within its deadline with what is read by then, as the page's first paint.
    await server.caches(false);
    let cold: { ms: number; body: SecurityReport };
    const started = performance.now();
    try {
      const body = await ctx.zones.request<SecurityReport>('GET', PATH);
      cold = { ms: performance.now() - started, body };
    } finally {
      await server.caches(true);
    }
    // Then asked again every 100 ms, as the page asks while the report is partial (no query more:
    // the asks share the one reading), until it is whole.
    let whole = cold.body;
    while (!whole.scope.complete) {
      if (performance.now() - sectionStart > 120_000)
        throw new Error('the report was not whole in 2 minutes');
      await new Promise((resolve) => setTimeout(resolve, 100));
      whole = await ctx.zones.request<SecurityReport>('GET', PATH);
    }
    const wholeMs = performance.now() - started;
    const coldQueries = timed.sandbox.control.callCount(GRAPHQL);
    if (whole.scope.zone_count !== ZONE_COUNT || whole.scope.zones_read !== ZONE_COUNT)
      throw new Error(`the report read ${whole.scope.zones_read} zones, not ${ZONE_COUNT}`);

    // Kept: the answer read above (kept a minute) under load; its source IPs' lists are read each time.
    const options = {
      url: server.origin + PATH,
      headers: { authorization: `Bearer ${ctx.zones.token}` },
      connections: CONNECTIONS,
      durationS: DURATION_S,
    };
    await warm(options);
    const kept = await load(options);
    const queries = timed.sandbox.control.callCount(GRAPHQL);
    const sectionS = (performance.now() - sectionStart) / 1000;
    report.data.reports = {
      cold: {
        ms: cold.ms,
        zonesRead: cold.body.scope.zones_read,
        complete: cold.body.scope.complete,
        wholeMs,
        queries: coldQueries,
        minimum,
      },
      kept,
      queries,
      sectionS,
    };

    report.budget(
      SECTION,
      budgets[0]!.name,
      coldQueries / minimum,
      `${fmt.ratio(coldQueries / minimum)} (${coldQueries} queries: ${batches} for the zones' limits and ${batches} for the report, minimum ${minimum})`,
      budgets[0]!.limit,
      (v) => v <= BUDGET.reportQueriesRatio,
    );
    report.budget(
      SECTION,
      budgets[1]!.name,
      queries,
      `${queries} queries in ${sectionS.toFixed(0)} s (the cold read; none while partial answers were asked again, none while kept)`,
      budgets[1]!.limit,
      (v) => v <= BUDGET.reportQueriesPer5Min,
      sectionS > 300 ? 'the section took more than 5 minutes' : undefined,
    );
    const firstRead = cold.body.scope.complete
      ? 'whole'
      : `${fmt.int(cold.body.scope.zones_read)} of ${fmt.int(cold.body.scope.zone_count)} zones read`;
    report.budget(
      SECTION,
      budgets[2]!.name,
      cold.ms,
      `${fmt.ms(cold.ms)} (${firstRead})`,
      budgets[2]!.limit,
      (v) => v < BUDGET.reportColdMs,
    );
    report.row({
      section: SECTION,
      figure: 'whole report, caches empty (shown, not judged)',
      value: `${fmt.ms(wholeMs)} (${coldQueries} queries)`,
    });
    const failed = kept.non2xx + kept.errors;
    report.budget(
      SECTION,
      budgets[3]!.name,
      failed > 0 ? null : kept.p99,
      `${fmt.ms(kept.p99)} (${fmt.rps(kept.requestsPerSecond)})`,
      budgets[3]!.limit,
      (v) => v < BUDGET.reportWarmP99Ms,
      failed > 0 ? `${failed} answers failed` : undefined,
    );
  } catch (err) {
    report.missing(SECTION, reasonOf(err), budgets);
  }
  chartsChunkCheck(ctx);
}

/**
 * The charts' code loads with the Reports pages only (`npm run check:size -w @guardian/web`, which
 * also holds the login page to its budget; the web section measures that page in Chromium).
 */
function chartsChunkCheck({ report }: Context): void {
  const name = 'charts chunk only on the Reports pages (npm run check:size)';
  const script = join(ROOT, 'apps', 'web', 'scripts', 'check-login-size.mjs');
  if (WEB_DIST !== join(ROOT, 'apps', 'web', 'dist')) {
    report.missing(SECTION, `check:size reads apps/web/dist, not ${WEB_DIST}`, [{ name, limit: 'yes' }]);
    return;
  }
  let problems = 0;
  let shown: string;
  try {
    execFileSync(process.execPath, [script], { encoding: 'utf8', stdio: 'pipe' });
    shown = 'yes: neither the login page nor any other screen loads it';
  } catch (err) {
    problems = 1;
    const failure = err as { stderr?: string; message?: string };
    shown = (failure.stderr || failure.message || String(err)).trim().split('\n').slice(0, 2).join('; ');
  }
  report.budget(SECTION, name, problems, shown, 'yes', (v) => v === 0);
}
