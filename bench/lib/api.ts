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
/** 503s in a row a read rides out (each after its retry-after) before it gives up. */
const MAX_UNAVAILABLE_IN_A_ROW = 10;
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
  /**
   * A GET's answer, asked again after a 503 (its retry-after later, at most 10 in a row), as a screen
   * does: a busy embedded database answers a read 503 when a statement ahead of it outlasts the read's
   * bound (5 s), such as a 500,000-item sync's trigram index build on a slower machine.
   */
  read<T = unknown>(path: string): Promise<T>;
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
  const read = async <T>(path: string): Promise<T> => {
    for (let unavailable = 0; ; unavailable++) {
      const { status, headers, text } = await raw('GET', path);
      if (status === 503 && unavailable < MAX_UNAVAILABLE_IN_A_ROW) {
        await new Promise((resolve) => setTimeout(resolve, retryAfterMs(headers)));
        continue;
      }
      if (status !== 200) throw new ApiError(status, 'GET', path, text);
      return JSON.parse(text) as T;
    }
  };
  return {
    origin,
    token,
    raw,
    read,
    async request<T>(method: string, path: string, body?: unknown): Promise<T> {
      const { status, text } = await raw(method, path, body);
      if (status >= 300) throw new ApiError(status, method, path, text);
      const answer: unknown = text === '' ? undefined : JSON.parse(text);
      if (status !== 202) return answer as T;
      let job = answer as { id: string; state: string; result: unknown; error: string | null };
      while (job.state === 'queued' || job.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
        job = await read<typeof job>(`/api/jobs/${encodeURIComponent(job.id)}`);
      }
      if (job.state !== 'succeeded')
        throw new ApiError(status, method, path, `job ${job.state}: ${job.error}`);
      return job.result as T;
    },
  };
}
