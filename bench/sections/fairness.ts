/**
 * Fairness: can one person's costly reads stall everyone else? Person A floods the server with item
 * searches and pages no index serves cheaply (a one- or two-character search that matches nothing, a
 * deep page of a broad search, the middle of the list sorted by comment, and the deepest search and
 * comment pages the server still serves), 6 and 16 at once, with the
 * server's answer caches off so every one reaches the database; meanwhile person B's cheap request
 * (GET /api/cloudflare/accounts, one small query) is timed one after another. B's p99 alone, under A's
 * flood on the benchmark's server (per-person limits raised: one person without limits), and under
 * A's flood on a second server with the per-person limits at their defaults (the budget).
 */
import { performance } from 'node:perf_hooks';
import { accountEndpoints, banListEndpoints, banListItemEndpoints, pathOf } from '@guardian/contract';
import { RATE_LIMIT_WINDOW_MS } from '../../apps/server/src/request-limits';
import { api, ApiError, type Api } from '../lib/api';
import { fmt, type Report } from '../lib/report';
import { startServer, type ServerChild, type TimedSandbox } from '../lib/stack';

export const FAIRNESS_BUDGET_P99_MS = 300;
const FLOODS = [6, 16] as const;
/** B's pause between two requests: a person clicking, not a load of its own. */
const B_PAUSE_MS = 20;
/** How long A's flood runs before B is timed: A's requests are queued and running by then. */
const FLOOD_LEAD_MS = 1_000;
/** The per-minute limit's window, and a second to spare. */
const RATE_WINDOW_MS = RATE_LIMIT_WINDOW_MS + 1_000;

export interface FairnessContext {
  report: Report;
  /** The benchmark's server (per-person limits raised) and its bundle, to start one with the defaults. */
  server: ServerChild;
  serverBundle: string;
  webDist: string;
  timed: TimedSandbox;
  /** Person A on the benchmark's server: owns the big list, mirrored. */
  lists: Api;
  /** The big list's key on the benchmark's server, once mirrored (pulled and synced if need be). */
  bigListKey: () => Promise<string>;
  /** The big list's account at the sandbox (added again on the second server) and its list's name. */
  bigAccount: { name: string; token: string };
  bigListName: string;
  itemCount: number;
  pageSize: number;
  durationS: number;
}

interface Timing {
  p50: number;
  p99: number;
  count: number;
  failures: number;
}

function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}

/** A's costly reads on the list `key`: each of A's connections goes round them, from its own start. */
function costlyPaths(key: string, itemCount: number, pageSize: number): { kind: string; path: string }[] {
  const items = (query: Record<string, string>) =>
    `${pathOf(banListItemEndpoints.page, { list_id: key })}?${new URLSearchParams({ per_page: String(pageSize), ...query })}`;
  const pages = Math.ceil(itemCount / pageSize);
  // One item in five matches `scanner` (dataset.ts): its last page is the deepest.
  const broadPages = Math.max(1, Math.ceil(itemCount / 5 / pageSize));
  // The deepest pages the server serves of a search and of the comment order (10,000 rows deep).
  const deepest = Math.max(1, Math.floor(10_000 / pageSize));
  return [
    { kind: 'short search matching nothing', path: items({ search: 'zq', page: '1' }) },
    { kind: 'deep page of a broad search', path: items({ search: 'scanner', page: String(broadPages) }) },
    {
      kind: 'middle page sorted by comment',
      path: items({ sort: 'comment', order: 'asc', page: String(Math.ceil(pages / 2)) }),
    },
    {
      kind: 'deepest search page served',
      path: items({ search: 'scanner', page: String(Math.min(broadPages, deepest)) }),
    },
    {
      kind: 'deepest comment page served',
      path: items({ sort: 'comment', order: 'asc', page: String(deepest) }),
    },
  ];
}

interface FloodResult {
  b: Timing;
  /** A's answers by status, e.g. {200: 31, 400: 12, 429: 40}. */
  a: Record<string, number>;
}

/**
 * B's request timed one after another for `durationS`, while `flood` of A's connections each send a
 * costly read, wait for its answer and send the next (after a 429, its retry-after, as a client would).
 */
async function measure(
  server: ServerChild,
  a: Api,
  b: Api,
  key: string,
  flood: number,
  options: Pick<FairnessContext, 'itemCount' | 'pageSize' | 'durationS'>,
): Promise<FloodResult> {
  const paths = costlyPaths(key, options.itemCount, options.pageSize);
  const statuses: Record<string, number> = {};
  let flooding = true;
  const floodLoop = async (connection: number) => {
    for (let round = connection; flooding; round++) {
      const { path } = paths[round % paths.length]!;
      let status: number;
      let retryAfter = 0;
      try {
        const answer = await a.raw('GET', path);
        status = answer.status;
        retryAfter = Number(answer.headers['retry-after'] ?? 0);
      } catch {
        status = 0;
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 429 || status === 0) await sleep(Math.max(1, retryAfter) * 1000);
    }
  };
  await server.caches(false);
  const loops = Array.from({ length: flood }, (_, connection) => floodLoop(connection));
  try {
    if (flood > 0) await sleep(FLOOD_LEAD_MS);
    const times: number[] = [];
    let failures = 0;
    const end = performance.now() + options.durationS * 1000;
    while (performance.now() < end) {
      const { status, ms } = await b.raw('GET', accountEndpoints.list.path);
      if (status !== 200) failures++;
      times.push(ms);
      await sleep(B_PAUSE_MS);
    }
    times.sort((x, y) => x - y);
    return {
      b: { p50: percentile(times, 0.5), p99: percentile(times, 0.99), count: times.length, failures },
      a: statuses,
    };
  } finally {
    flooding = false;
    await Promise.all(loops);
    await server.caches(true);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const shownA = (a: Record<string, number>) =>
  Object.entries(a)
    .map(([status, count]) => `${count}x ${status}`)
    .join(', ');

const shownB = (result: FloodResult) =>
  `${fmt.ms(result.b.p99)} (p50 ${fmt.ms(result.b.p50)}, ${result.b.count} requests${result.b.failures ? `, ${result.b.failures} failed` : ''}); A's answers: ${shownA(result.a) || 'none'}`;

/** A second server with the per-person request limits at their defaults, A's list mirrored on it. */
async function startDefaultLimitsServer(
  ctx: FairnessContext,
): Promise<{ server: ServerChild; a: Api; key: string }> {
  const server = await startServer({
    bundle: ctx.serverBundle,
    sandboxUrl: ctx.timed.baseUrl,
    databaseUrl: process.env.DATABASE_URL,
    webDist: ctx.webDist,
    env: {
      GUARDIAN_RATE_LIMIT_PER_MINUTE: undefined,
      GUARDIAN_RATE_LIMIT_CONCURRENT: undefined,
      GUARDIAN_RATE_LIMIT_QUEUED: undefined,
    },
  });
  try {
    const a = api(server.origin, (await server.createUser()).token);
    await a.request('POST', accountEndpoints.add.path, {
      account_name: ctx.bigAccount.name,
      token: ctx.bigAccount.token,
    });
    await a.request('POST', banListEndpoints.update.path);
    const rows = await a.request<{ list_name: string; list_id: string }[]>('GET', banListEndpoints.list.path);
    const key = rows.find((row) => row.list_name === ctx.bigListName)?.list_id;
    if (!key) throw new Error(`the second server has no list ${ctx.bigListName} after the update`);
    await a.request('POST', pathOf(banListItemEndpoints.sync, { list_id: key }));
    return { server, a, key };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

export async function fairnessSection(ctx: FairnessContext): Promise<void> {
  const { report } = ctx;
  const section = 'Fairness';
  const budgetName = (flood: number) =>
    `B's p99 while A sends ${flood} costly reads at once (default limits)`;
  const budgetLimit = `< ${FAIRNESS_BUDGET_P99_MS} ms`;
  const figures: Record<string, unknown> = {
    costly: costlyPaths('{list_id}', ctx.itemCount, ctx.pageSize),
  };
  report.data.fairness = figures;

  // The benchmark's server: one person whose limits are raised (as if there were none).
  try {
    const key = await ctx.bigListKey();
    const b = api(ctx.server.origin, (await ctx.server.createUser()).token);
    for (const flood of [0, ...FLOODS]) {
      process.stdout.write(`  ${section}: limits raised, A x ${flood}...`);
      const result = await measure(ctx.server, ctx.lists, b, key, flood, ctx);
      process.stdout.write(` B p99 ${fmt.ms(result.b.p99)}\n`);
      figures[`raised ${flood}`] = result;
      report.row({
        section,
        figure: flood === 0 ? "B's p99 alone (GET /accounts)" : `B's p99, A x ${flood} (limits raised)`,
        value: shownB(result),
      });
    }
  } catch (err) {
    report.missing(section, `limits raised: ${reason(err)}`);
  }

  let second: Awaited<ReturnType<typeof startDefaultLimitsServer>> | undefined;
  try {
    second = await startDefaultLimitsServer(ctx);
    for (const [index, flood] of FLOODS.entries()) {
      // A's requests a minute count from its first: each flood starts in a minute of its own, and B
      // is a new person each time (B's own pace would reach its minute's limit within two runs).
      if (index > 0) await sleep(RATE_WINDOW_MS);
      const b = api(second.server.origin, (await second.server.createUser()).token);
      process.stdout.write(`  ${section}: default limits, A x ${flood}...`);
      const result = await measure(second.server, second.a, b, second.key, flood, ctx);
      process.stdout.write(` B p99 ${fmt.ms(result.b.p99)}\n`);
      figures[`default ${flood}`] = result;
      const failed = result.b.failures > 0 ? `${result.b.failures} of B's requests failed` : undefined;
      report.budget(
        section,
        budgetName(flood),
        failed ? Number.POSITIVE_INFINITY : result.b.p99,
        shownB(result),
        budgetLimit,
        (value) => value < FAIRNESS_BUDGET_P99_MS,
        failed,
      );
    }
  } catch (err) {
    report.missing(
      section,
      `default limits: ${reason(err)}`,
      FLOODS.map((flood) => ({ name: budgetName(flood), limit: budgetLimit })),
    );
  } finally {
    await second?.server.stop();
  }
}

function reason(err: unknown): string {
  if (err instanceof ApiError) return `${err.method} ${err.path.split('?')[0]} answered ${err.status}`;
  return err instanceof Error ? err.message.split('\n')[0]!.slice(0, 200) : String(err);
}
