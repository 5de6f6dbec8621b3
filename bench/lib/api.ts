/** A signed-in person's calls to the Guardian API, with errors that say what was missing. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly method: string,
    readonly path: string,
    readonly body: string,
  ) {
    super(`${method} ${path} answered ${status}: ${body.slice(0, 300)}`);
  }

  /** 404 from the server's not-found handler: the route is not registered (its module has not landed). */
  get routeMissing(): boolean {
    return this.status === 404 && this.body.includes('Not found:');
  }
}

/** How often a 202's job is asked about: often, so that a wall time includes little waiting. */
const JOB_POLL_MS = 50;
/** 503s in a row a job's follower rides out (each after its retry-after) before it gives up. */
export const MAX_UNAVAILABLE_IN_A_ROW = 10;
const retryAfterMs = (headers: Record<string, string>) =>
  Math.min(Math.max(Number(headers['retry-after']) || 1, 1), 30) * 1_000;

export interface Api {
  origin: string;
  token: string;
  /**
   * The answer of a call that succeeded. A long operation answers 202 with its job: that is followed
   * until it ends, and its result is the answer (a failed or cancelled job is an ApiError).
   */
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** The raw answer: status, headers, body text and how long it took (ms). */
  raw(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; headers: Record<string, string>; text: string; ms: number }>;
}

export function api(origin: string, token: string): Api {
  const raw = async (method: string, path: string, body?: unknown) => {
    const start = performance.now();
    const response = await fetch(origin + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    return { status: response.status, headers, text, ms: performance.now() - start };
  };
  return {
    origin,
    token,
    raw,
    async request<T>(method: string, path: string, body?: unknown): Promise<T> {
      const { status, text } = await raw(method, path, body);
      if (status >= 300) throw new ApiError(status, method, path, text);
      const answer: unknown = text === '' ? undefined : JSON.parse(text);
      if (status !== 202) return answer as T;
      let job = answer as { id: string; state: string; result: unknown; error: string | null };
      let unavailable = 0;
      while (job.state === 'queued' || job.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
        const polled = await raw('GET', `/api/jobs/${encodeURIComponent(job.id)}`);
        // A busy embedded database answers a read 503 with retry-after (its read bound): a screen asks
        // again then, and so does the benchmark, a bounded number of times in a row.
        if (polled.status === 503 && unavailable < MAX_UNAVAILABLE_IN_A_ROW) {
          unavailable += 1;
          await new Promise((resolve) => setTimeout(resolve, retryAfterMs(polled.headers)));
          continue;
        }
        if (polled.status !== 200)
          throw new ApiError(polled.status, 'GET', `/api/jobs/${job.id}`, polled.text);
        unavailable = 0;
        job = JSON.parse(polled.text) as typeof job;
      }
      if (job.state !== 'succeeded')
        throw new ApiError(status, method, path, `job ${job.state}: ${job.error}`);
      return job.result as T;
    },
  };
}
