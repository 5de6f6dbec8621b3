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

export interface Api {
  origin: string;
  token: string;
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
      return (text === '' ? undefined : JSON.parse(text)) as T;
    },
  };
}
