import { createHash } from 'node:crypto';
import Cloudflare from 'cloudflare';
import { SlidingWindowThrottle } from './throttle';

export interface CloudflareOptions {
  /** Cloudflare's API v4 base, or the sandbox's. */
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  /** The per-token budget the console keeps under (Cloudflare: 1,200 per 5 minutes). */
  rateLimit: { requests: number; windowMs: number };
  /** A 429 asking to wait longer than this is not waited for; the person sees the rate-limit message. */
  maxRetryAfterMs: number;
  /** The network underneath (default: the global fetch); tests wrap it to lose answers. */
  fetch?: typeof fetch;
}

export const CLOUDFLARE_DEFAULTS: Omit<CloudflareOptions, 'baseUrl'> = {
  timeoutMs: 30_000,
  maxRetries: 3,
  // A margin under Cloudflare's 1,200 leaves room for the person's own scripts on the same token.
  rateLimit: { requests: 1_100, windowMs: 5 * 60_000 },
  maxRetryAfterMs: 20_000,
};

function retryAfterMs(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
}

/**
 * Wraps fetch for one token: waits for the throttle, and on a 429 blocks the token for as long as
 * Cloudflare asks. The SDK's own retry honours retry-after; a wait too long for a person is turned
 * into a final answer (x-should-retry: false) instead of a hanging request.
 */
function throttledFetch(
  throttle: SlidingWindowThrottle,
  maxRetryAfterMs: number,
  network: typeof fetch = fetch,
): typeof fetch {
  return async (input, init) => {
    // Held back for longer than a person would wait (after a long retry-after, or the whole budget
    // spent): answer as Cloudflare would, at once, instead of hanging every request of this token.
    const wait = await throttle.acquire(maxRetryAfterMs);
    if (wait > 0) return rateLimitedLocally(wait);
    const response = await network(input, init);
    if (response.status !== 429 && response.status !== 409) return response;
    const retryAfter = retryAfterMs(response.headers);
    if (response.status === 429 && retryAfter !== undefined) throttle.blockFor(retryAfter);
    // 409 is Cloudflare's "already exists", never a lock to wait out.
    const final = response.status === 409 || (retryAfter !== undefined && retryAfter > maxRetryAfterMs);
    if (!final) return response;
    const headers = new Headers(response.headers);
    headers.set('x-should-retry', 'false');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}

/** Cloudflare's own 429 answer, made up locally without calling it, final for the SDK's retries. */
function rateLimitedLocally(waitMs: number): Response {
  const body = {
    success: false,
    errors: [{ code: 10429, message: 'Rate limited: waiting for the per-token request budget.' }],
    messages: [],
    result: null,
  };
  return new Response(JSON.stringify(body), {
    status: 429,
    headers: {
      'content-type': 'application/json',
      'retry-after': String(Math.ceil(waitMs / 1000)),
      'x-should-retry': 'false',
    },
  });
}

/** Tokens whose clients are kept; beyond it the least recently used client is dropped. */
const MAX_CLIENTS = 1_000;

/** One SDK client per stored account token, each with its own throttle. */
export class CloudflareGateway {
  private readonly clients = new Map<string, Cloudflare>();

  constructor(private readonly options: CloudflareOptions) {}

  client(apiToken: string): Cloudflare {
    // Keyed by a hash so the map never holds a second plain copy of the token as a key.
    const key = createHash('sha256').update(apiToken).digest('base64url');
    let client = this.clients.get(key);
    if (client) {
      // Map order is insertion order: re-inserting marks the client as recently used.
      this.clients.delete(key);
    } else {
      const throttle = new SlidingWindowThrottle(
        this.options.rateLimit.requests,
        this.options.rateLimit.windowMs,
      );
      client = new Cloudflare({
        apiToken,
        baseURL: this.options.baseUrl,
        timeout: this.options.timeoutMs,
        maxRetries: this.options.maxRetries,
        fetch: throttledFetch(throttle, this.options.maxRetryAfterMs, this.options.fetch),
        logLevel: 'off',
      });
      // Rejected tokens (a failed "Add Account") must not pile up for the life of the process.
      if (this.clients.size >= MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
    }
    this.clients.set(key, client);
    return client;
  }
}
