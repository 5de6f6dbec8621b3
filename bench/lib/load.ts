/** Load with autocannon: requests/s, p50 and p99 latency at a number of concurrent connections. */
import autocannon from 'autocannon';

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, connection errors and timeouts: any of these voids the figure. */
  non2xx: number;
  errors: number;
  durationS: number;
}

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  durationS: number;
  /** Mixed reads: each connection asks these paths of `url`'s origin in turn (default: `url` alone). */
  paths?: string[];
}

export async function load({
  url,
  headers = {},
  connections,
  durationS,
  paths,
}: LoadOptions): Promise<LoadResult> {
  const requests = paths?.map((path) => ({ method: 'GET', path }));
  const result = await autocannon({ url, headers, connections, duration: durationS, timeout: 30, requests });
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.total / durationS,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    durationS,
  };
}

/** Why a run's figures do not count (no answer within it, or answers that failed); undefined when they do. */
export function loadProblem(result: LoadResult): string | undefined {
  if (result.requests === 0) return 'no request was answered within the run';
  if (result.non2xx > 0 || result.errors > 0) return `${result.non2xx} non-2xx, ${result.errors} errors`;
  return undefined;
}

/** A short run whose figures are thrown away: JIT, caches and connection pools warmed first. */
export async function warm(options: LoadOptions): Promise<void> {
  await load({ ...options, durationS: Math.min(2, options.durationS) });
}

/** What `loadRead` needs of the server: its address and the plans of the statements a request ran. */
interface ExplainingServer {
  origin: string;
  resetQueries(): Promise<void>;
  explain(match?: string): Promise<{ sql: string; plan: string }[]>;
}

/**
 * A read judged under load: `path`, as the person of `token`, warmed up then loaded with
 * `connections` connections. When its p99 is at or over `limit`, one more request of it is explained
 * (the plans of its statements on `table`), so a failing budget comes with its diagnosis.
 */
export async function loadRead(
  server: ExplainingServer,
  read: { path: string; token: string; connections: number; durationS: number; limit: number; table: string },
): Promise<{ result: LoadResult; plans: unknown }> {
  const options = {
    url: server.origin + read.path,
    headers: { authorization: `Bearer ${read.token}` },
    connections: read.connections,
    durationS: read.durationS,
  };
  await warm(options);
  const result = await load(options);
  let plans: unknown;
  if (result.p99 >= read.limit) {
    await server.resetQueries();
    await fetch(options.url, { headers: options.headers }).then((answer) => answer.text());
    plans = await server.explain(read.table).catch((err: unknown) => String(err));
  }
  return { result, plans };
}
