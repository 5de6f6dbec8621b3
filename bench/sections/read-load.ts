/**
 * A read under load (autocannon, `--connections` at once for `--duration` seconds) against the same
 * answer from the bare baseline, and with the server's answer caches off; shared by the reads and zones
 * sections.
 */
import { ApiError, type Api } from '../lib/api';
import { load, warm, type LoadResult } from '../lib/load';
import type { BareAnswer } from '../lib/protocol';
import { fmt, type Report } from '../lib/report';
import { startBare } from '../lib/stack';
import { BUDGET, CONNECTIONS, DURATION_S } from '../options';
import { reasonOf, type Context } from './context';

export interface ReadTarget {
  name: string;
  path: string;
  api: Api;
  body?: string;
  check?: (body: unknown) => string | undefined;
}

export interface ServerRead {
  load: LoadResult;
  /** Database round trips per request under load (the auth guard's lookup apart). */
  queries: { total: number; auth: number };
  /** EXPLAIN ANALYZE of its statements, when the read missed its p99 budget. */
  plans?: unknown;
}

export interface ReadResult {
  /** As configured: the items' answer cache (if the server has one) serves repeats of the same page. */
  server: ServerRead;
  /** The same reads with that cache turned off: the database answers every request. */
  uncached?: ServerRead;
  bare: LoadResult;
}

async function loadServer(ctx: Context, target: ReadTarget): Promise<ServerRead> {
  const headers = { authorization: `Bearer ${target.api.token}` };
  const options = {
    url: ctx.server.origin + target.path,
    headers,
    connections: CONNECTIONS,
    durationS: DURATION_S,
  };
  await warm(options);
  await ctx.server.resetQueries();
  const result = await load(options);
  const counts = await ctx.server.queries();
  let plans: unknown;
  if (result.p99 >= BUDGET.readP99Ms) {
    // Why it is slow: the database's plan of the statements this read ran, with their parameters.
    await ctx.server.resetQueries();
    await target.api.request('GET', target.path);
    plans = await ctx.server.explain().catch((err: unknown) => reasonOf(err));
  }
  const requests = Math.max(1, result.requests);
  return { load: result, queries: { total: counts.total / requests, auth: counts.auth / requests }, plans };
}

/**
 * Loads `path` on the server and the same answer on the baseline, twice each in turn (server,
 * baseline, server, baseline), keeping each one's better run: this machine is shared, and a burst of
 * someone else's work during one run would otherwise decide the ratio. Then, for `uncached`, the
 * server once more without its answer caches.
 */
async function measureRead(
  ctx: Context,
  target: ReadTarget,
  bareOrigin: string,
  uncached: boolean,
): Promise<ReadResult> {
  const options = { url: bareOrigin + target.path, connections: CONNECTIONS, durationS: DURATION_S };
  const loadBare = async () => {
    await warm(options);
    return load(options);
  };
  const servers = [await loadServer(ctx, target)];
  const bares = [await loadBare()];
  servers.push(await loadServer(ctx, target));
  bares.push(await loadBare());
  const server = servers.reduce((a, b) => (b.load.requestsPerSecond > a.load.requestsPerSecond ? b : a));
  const bare = bares.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  let withoutCache: ServerRead | undefined;
  if (uncached && (await ctx.server.caches(false)).length > 0) {
    try {
      withoutCache = await loadServer(ctx, target);
    } finally {
      await ctx.server.caches(true);
    }
  }
  return { server, uncached: withoutCache, bare };
}

/** What the read with the answer caches off is held to (issue 36): its p99 and round trips per request. */
export interface ColdLimits {
  p99Ms: number;
  /** The auth guard's included. */
  roundTrips: number;
}

/**
 * The rows of one read: p99 (a budget) and requests/s against the bare baseline (a budget when
 * `shareBudget`), as the server runs (cached: after the warm-up most answers come from memory); then
 * the same with its answer caches off (cold: every request is the first after a change, the
 * database answers each), its p99 and round trips per request judged by `cold`, its requests/s shown.
 * Without `p99Limit` and `cold` the read is shown beside the others, not judged.
 */
export function reportRead(
  report: Report,
  section: string,
  target: ReadTarget,
  result: ReadResult,
  p99Limit: number | undefined,
  shareBudget: boolean,
  cold: ColdLimits | undefined,
): void {
  const variants: [string, ServerRead | undefined][] = [
    ['', result.server],
    [' (cold: caches off)', result.uncached],
  ];
  for (const [suffix, read] of variants) {
    if (!read) continue;
    const judged = read === result.server;
    const perRequest = `${fmt.ratio(read.queries.total - read.queries.auth)} + ${fmt.ratio(read.queries.auth)} auth round trips/req`;
    const latency = `${fmt.ms(read.load.p99)} (p50 ${fmt.ms(read.load.p50)}; ${perRequest})`;
    const figure = `${target.name}${judged ? ' (cached)' : suffix}: p99`;
    const limit = judged ? p99Limit : cold?.p99Ms;
    // Without a limit the read is shown for comparison, not judged.
    if (limit === undefined) report.row({ section, figure, value: latency });
    else report.p99Budget(section, figure, read.load, limit, latency);
    if (!judged && cold)
      report.budget(
        section,
        `${target.name}${suffix}: round trips / request`,
        read.queries.total,
        `${fmt.ratio(read.queries.total)} (auth guard included)`,
        `<= ${cold.roundTrips}`,
        (v) => v <= cold.roundTrips,
      );
    const share = read.load.requestsPerSecond / result.bare.requestsPerSecond;
    const shown = `${fmt.rps(read.load.requestsPerSecond)} vs ${fmt.rps(result.bare.requestsPerSecond)} = ${fmt.ratio(share)}`;
    const shareFigure = `${target.name}${judged ? ' (cached)' : suffix}: req/s vs bare`;
    if (judged && shareBudget) {
      report.budget(
        section,
        shareFigure,
        share,
        shown,
        `>= ${BUDGET.readBaselineShare}`,
        (v) => v >= BUDGET.readBaselineShare,
      );
    } else {
      report.row({ section, figure: shareFigure, value: shown });
    }
  }
}

export async function measureReads(
  ctx: Context,
  section: 'Reads' | 'Zones',
  targets: ReadTarget[],
  uncached: boolean,
  onResult: (target: ReadTarget, result: ReadResult) => void,
): Promise<void> {
  // The real answers first, body and headers, for the baseline to serve.
  const routes: Record<string, BareAnswer> = {};
  for (const target of targets) {
    const { status, headers, text } = await target.api.raw('GET', target.path);
    if (status !== 200) throw new ApiError(status, 'GET', target.path, text);
    const problem = target.check?.(JSON.parse(text));
    if (problem) throw new Error(`GET ${target.path.split('?')[0]}: ${problem}`);
    routes[target.path] = { body: text, headers };
    target.body = text;
  }
  const bare = await startBare(ctx.bundles.bare, routes);
  const figures: Record<string, unknown> = {};
  try {
    for (const target of targets) {
      process.stdout.write(`  ${section}: ${target.name}...`);
      const result = await measureRead(ctx, target, bare.origin, uncached);
      const line = (read: ServerRead) =>
        `p99 ${fmt.ms(read.load.p99)}, ${fmt.rps(read.load.requestsPerSecond)}`;
      process.stdout.write(
        ` ${line(result.server)}${result.uncached ? `; no cache ${line(result.uncached)}` : ''}; bare ${fmt.rps(result.bare.requestsPerSecond)}\n`,
      );
      figures[target.name] = { path: target.path, bytes: Buffer.byteLength(target.body!), ...result };
      onResult(target, result);
    }
  } finally {
    bare.stop();
  }
  ctx.report.data[section.toLowerCase()] = figures;
}
