import { createHash } from 'node:crypto';
import Cloudflare from 'cloudflare';
import { SlidingWindowThrottle, type RequestThrottle } from './throttle';

export interface CloudflareOptions {
  /** Cloudflare's API v4 base, or the sandbox's. */
  baseUrl: string;
  /** One attempt's time, from sending to the last byte of the answer. */
  timeoutMs: number;
  maxRetries: number;
  /** The per-token budget the console keeps under (Cloudflare: 1,200 per 5 minutes). */
  rateLimit: { requests: number; windowMs: number };
  /**
   * The per-token budget of GraphQL Analytics queries (Cloudflare: 300 per 5 minutes, on top of the
   * REST budget, which each query also spends).
   */
  analyticsRateLimit?: { requests: number; windowMs: number };
  /** The largest GraphQL Analytics answer read; a larger one is not used (502). */
  maxAnalyticsAnswerBytes?: number;
  /** A 429 asking to wait longer than this is not waited for; the person sees the rate-limit message. */
  maxRetryAfterMs: number;
  /** One call's whole time, every retry and wait included: a person is waiting on it. */
  deadlineMs?: number;
  /** The largest answer read from Cloudflare; a larger one is not used (502). */
  maxAnswerBytes?: number;
  /** The network underneath (default: the global fetch); tests wrap it to lose answers. */
  fetch?: typeof fetch;
  /**
   * The budget of one token (by its hash), shared by every process on the database in the server
   * (`DatabaseRequestBudget`); default: counted in this process's memory.
   */
  throttleFor?: (tokenKey: string, rateLimit: { requests: number; windowMs: number }) => RequestThrottle;
}

export const CLOUDFLARE_DEFAULTS: Omit<Required<CloudflareOptions>, 'baseUrl' | 'fetch' | 'throttleFor'> = {
  timeoutMs: 30_000,
  maxRetries: 3,
  // A margin under Cloudflare's 1,200 leaves room for the person's own scripts on the same token.
  rateLimit: { requests: 1_100, windowMs: 5 * 60_000 },
  maxRetryAfterMs: 20_000,
  deadlineMs: 30_000,
  // Room for 1,000 custom rules at their 4,096-character maximum, or 3,500 DNS records of 2 KB.
  maxAnswerBytes: 8 * 1024 * 1024,
  // The same margin under Cloudflare's 300 GraphQL queries per 5 minutes.
  analyticsRateLimit: { requests: 280, windowMs: 5 * 60_000 },
  // A report's widest query (10 zones, a few hundred rows per part) is well under 1 MiB.
  maxAnalyticsAnswerBytes: 4 * 1024 * 1024,
};

/** Cloudflare blocks a token for at most 5 minutes; a longer retry-after is not believed. */
export const MAX_BLOCK_MS = 5 * 60_000;

/**
 * Answers the console makes up itself (a refused or unusable answer, a lost connection): their
 * message is the console's own, told apart from Cloudflare's by the identity of their headers.
 */
const localAnswers = new WeakSet<Headers>();

export function isLocalAnswer(headers: Headers | undefined): boolean {
  return headers !== undefined && localAnswers.has(headers);
}

/**
 * Failed answers to writes that Cloudflare may have applied all the same: an attempt was sent and its
 * answer was lost, timed out, or was a 5xx or 408 (a retry answered 409 or 429 may follow one that
 * landed). Told by the identity of their headers, as local answers are.
 */
const uncertainAnswers = new WeakSet<Headers>();

/** Whether a failed answer to a write leaves its outcome unknown (see uncertainAnswers). */
export function isUncertainAnswer(headers: Headers | undefined): boolean {
  return headers !== undefined && uncertainAnswers.has(headers);
}

function localAnswer(status: number, message: string, extraHeaders: Record<string, string> = {}): Response {
  const body = { success: false, errors: [{ code: 0, message }], messages: [], result: null };
  const response = new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...extraHeaders },
  });
  // The very Headers instance the SDK hands on to its APIError.
  localAnswers.add(response.headers);
  return response;
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} seconds`;

function retryAfterMs(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const parsed = Number(value);
  const ms = Number.isFinite(parsed) ? parsed * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.max(0, ms) : undefined;
}

/**
 * Cloudflare has no idempotency keys: a POST whose answer is lost may have been applied, so it is
 * never sent twice blindly (the services read again before re-creating). These POSTs are safe to
 * repeat: a list item append overwrites the same keys, a custom rule carries a unique `ref` that
 * Cloudflare refuses twice, and a GraphQL Analytics query only reads.
 */
const REPEATABLE_POSTS = [/\/rules\/lists\/[^/]+\/items$/, /\/rulesets\/[^/]+\/rules$/, /\/graphql$/];

function isRepeatable(method: string, url: string): boolean {
  if (method !== 'POST') return true;
  const path = new URL(url).pathname;
  return REPEATABLE_POSTS.some((pattern) => pattern.test(path));
}

/** A 2xx answer already read and parsed: the SDK's `json()` gets the value without parsing it again. */
function parsedResponse(parsed: unknown, init: ResponseInit): Response {
  const response = new Response(null, init);
  Object.defineProperty(response, 'json', { value: () => Promise.resolve(parsed) });
  return response;
}

export class AnswerTooLarge extends Error {}

/** The body, read up to `maxBytes`; past it the stream is cancelled and AnswerTooLarge thrown. */
export async function readCapped(response: Response, maxBytes: number): Promise<Buffer<ArrayBuffer>> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new AnswerTooLarge();
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

interface TransportOptions {
  throttle: RequestThrottle;
  /** The token's budget the throttle keeps, to name it when it holds a call back. */
  rateLimit: { requests: number; windowMs: number };
  /** What the budget counts, in its refusal: "calls to Cloudflare" or "GraphQL Analytics queries". */
  budgetOf: string;
  network: typeof fetch;
  timeoutMs: number;
  maxRetries: number;
  maxRetryAfterMs: number;
  deadlineMs: number;
  maxAnswerBytes: number;
}

type Attempt = { kind: 'answer'; response: Response } | { kind: 'retry'; waitMs?: number; final: Response };

/** Whether an attempt's failure leaves open that Cloudflare applied it: no answer, a 5xx or a 408. */
const mayHaveApplied = (response: Response) =>
  isLocalAnswer(response.headers)
    ? response.status >= 502
    : response.status >= 500 || response.status === 408;

const unavailable = () => localAnswer(502, 'Cloudflare is unavailable right now. Please try again.');

/**
 * The network under the SDK, which is given no retries of its own: this is where a call is throttled,
 * retried (only when repeating it cannot apply a change twice), timed out, held to one deadline with
 * its retries and waits, and where Cloudflare's answer is read within a size and checked to be JSON.
 * Every failure ends as a final answer the SDK turns into an APIError (see errors.ts).
 */
function guardedFetch(options: TransportOptions): typeof fetch {
  const { throttle, network, maxRetries, maxRetryAfterMs, deadlineMs, maxAnswerBytes } = options;

  async function attempt(
    url: string,
    init: RequestInit,
    deadline: number,
    repeatable: boolean,
  ): Promise<Attempt> {
    const remaining = deadline - Date.now();
    // Held back for longer than a person would wait (after a long retry-after, or the whole budget
    // spent): answer as Cloudflare would, at once, instead of hanging every request of this token.
    const wait = await throttle.acquire(Math.min(maxRetryAfterMs, remaining));
    if (wait > 0) {
      const response = (await throttle.heldByCloudflare())
        ? rateLimited(wait)
        : budgetUsedUp(wait, options.rateLimit, options.budgetOf);
      return { kind: 'answer', response };
    }
    const timeoutMs = Math.min(options.timeoutMs, deadline - Date.now());
    const timeout = AbortSignal.timeout(Math.max(1, timeoutMs));
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const timedOut = () =>
      localAnswer(
        504,
        `Cloudflare did not answer in time (the console waits at most ${seconds(deadlineMs)} for a call, retries included). Please try again.`,
      );
    let response: Response;
    try {
      response = await network(url, { ...init, signal });
    } catch {
      const final = timeout.aborted ? timedOut() : unavailable();
      return repeatable ? { kind: 'retry', final } : { kind: 'answer', response: final };
    }
    let body: Buffer<ArrayBuffer>;
    try {
      body = await readCapped(response, maxAnswerBytes);
    } catch (err) {
      if (err instanceof AnswerTooLarge) {
        const mb = Math.round(maxAnswerBytes / (1024 * 1024));
        return {
          kind: 'answer',
          response: localAnswer(502, `Cloudflare's answer was larger than the ${mb} MB the console reads.`),
        };
      }
      // The answer broke off (timeout or connection lost) after its status arrived.
      const final = timeout.aborted ? timedOut() : unavailable();
      return repeatable && response.ok ? { kind: 'retry', final } : { kind: 'answer', response: final };
    }
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    if (response.status === 204)
      return { kind: 'answer', response: new Response(null, { status: 204, headers }) };
    if (response.ok) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        parsed = undefined;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return {
          kind: 'answer',
          response: localAnswer(502, "Cloudflare's answer could not be read (it is not complete JSON)."),
        };
      }
      headers.set('content-type', 'application/json');
      return { kind: 'answer', response: parsedResponse(parsed, { status: response.status, headers }) };
    }
    // An error's text may echo the request (its Authorization header): never pass the token on.
    const token = new Headers(init.headers).get('authorization')?.replace(/^bearer\s+/i, '');
    const text = token ? body.toString('utf8').split(token).join('[redacted]') : body;
    const final = new Response(text, { status: response.status, statusText: response.statusText, headers });
    if (response.status === 429) {
      const retryAfter = retryAfterMs(response.headers);
      if (retryAfter !== undefined) throttle.blockFor(Math.min(retryAfter, MAX_BLOCK_MS));
      // Refused without being applied: even a POST may be sent again.
      if (retryAfter !== undefined && retryAfter > maxRetryAfterMs)
        return { kind: 'answer', response: final };
      return { kind: 'retry', waitMs: 0, final };
    }
    // 409 is Cloudflare's "already exists", never a lock to wait out; other 4xx are final too.
    if (response.status < 500 && response.status !== 408) return { kind: 'answer', response: final };
    return repeatable
      ? { kind: 'retry', waitMs: retryAfterMs(response.headers), final }
      : { kind: 'answer', response: final };
  }

  return async (input, init = {}) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const repeatable = isRepeatable(method, url);
    const deadline = Date.now() + deadlineMs;
    let uncertain = false;
    /** A write's failed answer, marked when an attempt of it may have been applied. */
    const answered = (response: Response) => {
      if (method === 'GET' || response.ok) return response;
      uncertain ||= mayHaveApplied(response);
      if (uncertain) uncertainAnswers.add(response.headers);
      return response;
    };
    for (let retry = 0; ; retry++) {
      const outcome = await attempt(url, init, deadline, repeatable);
      if (outcome.kind === 'answer') return answered(outcome.response);
      if (method !== 'GET') uncertain ||= mayHaveApplied(outcome.final);
      // Exponential backoff as the SDK's own (0.5 s doubling, at most 8 s, up to 25% jitter).
      const backoff = Math.min(500 * 2 ** retry, 8_000) * (1 - Math.random() * 0.25);
      const waitMs = outcome.waitMs ?? backoff;
      if (retry >= maxRetries || Date.now() + waitMs >= deadline) return answered(outcome.final);
      await outcome.final.body?.cancel().catch(() => undefined);
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  };
}

/** Cloudflare's own 429 answer, made up locally without calling it. */
function rateLimited(waitMs: number): Response {
  return localAnswer(429, 'Rate limited: waiting for the per-token request budget.', {
    'retry-after': String(Math.ceil(Math.min(waitMs, MAX_BLOCK_MS) / 1000)),
  });
}

/** Answers the throttle made up because Guardian's own per-token budget is used up (not Cloudflare's 429). */
const budgetRefusals = new WeakSet<Headers>();

export function isBudgetRefusal(headers: Headers | undefined): boolean {
  return headers !== undefined && budgetRefusals.has(headers);
}

/** The call was not sent: the token has used Guardian's own budget of calls (Cloudflare refused nothing). */
function budgetUsedUp(
  waitMs: number,
  budget: { requests: number; windowMs: number },
  budgetOf: string,
): Response {
  const waitSeconds = Math.ceil(waitMs / 1000);
  const minutes = budget.windowMs / 60_000;
  const per =
    minutes === 1 ? 'minute' : Number.isInteger(minutes) ? `${minutes} minutes` : seconds(budget.windowMs);
  const when = waitSeconds < 120 ? `${waitSeconds} seconds` : `${Math.ceil(waitSeconds / 60)} minutes`;
  const response = localAnswer(
    429,
    `Guardian's own limit of ${budget.requests.toLocaleString('en-US')} ${budgetOf} per ${per} for this account's API token is used up (Cloudflare refused nothing); nothing was sent. It frees up in ${when}: please try again then.`,
    { 'retry-after': String(waitSeconds) },
  );
  budgetRefusals.add(response.headers);
  return response;
}

/** Tokens whose clients are kept; beyond it the least recently used client is dropped. */
const MAX_CLIENTS = 1_000;

/**
 * A GraphQL Analytics query spends both budgets of its token: the analytics one (300 per 5 minutes)
 * and the REST one. The analytics budget is asked first, so a query it holds back spends nothing.
 */
class AnalyticsThrottle implements RequestThrottle {
  constructor(
    private readonly analytics: RequestThrottle,
    private readonly rest: RequestThrottle,
  ) {}

  async acquire(maxWaitMs?: number): Promise<number> {
    const wait = await this.analytics.acquire(maxWaitMs);
    return wait > 0 ? wait : this.rest.acquire(maxWaitMs);
  }

  /** Cloudflare's 429 to a query: its analytics budget (a REST 429 also holds the REST calls' throttle). */
  blockFor(ms: number): void {
    this.analytics.blockFor(ms);
  }

  async heldByCloudflare(): Promise<boolean> {
    return (await this.analytics.heldByCloudflare()) || (await this.rest.heldByCloudflare());
  }
}

/** A token's SDK clients: its REST calls, and its GraphQL Analytics queries (made when first asked). */
interface TokenClients {
  rest: Cloudflare;
  throttle: RequestThrottle;
  analytics?: Cloudflare;
}

/** One SDK client per stored account token, each with its own throttle. */
export class CloudflareGateway {
  private readonly clients = new Map<string, TokenClients>();
  private readonly options: Required<Omit<CloudflareOptions, 'fetch' | 'throttleFor'>> &
    Pick<CloudflareOptions, 'fetch' | 'throttleFor'>;

  constructor(options: CloudflareOptions) {
    this.options = { ...CLOUDFLARE_DEFAULTS, ...options };
  }

  client(apiToken: string): Cloudflare {
    return this.clientsOf(apiToken).rest;
  }

  /**
   * The client for `POST /graphql` (the SDK has no GraphQL method: its generic `post` is used, see
   * analytics.ts): the same transport, with the analytics budget too and a smaller answer bound.
   */
  analyticsClient(apiToken: string): Cloudflare {
    const clients = this.clientsOf(apiToken);
    if (!clients.analytics) {
      const { analyticsRateLimit, maxAnalyticsAnswerBytes } = this.options;
      const key = tokenKey(apiToken);
      // Its own key in the shared count: the analytics budget is a second count of the same token.
      const analytics =
        this.options.throttleFor?.(`${key}:analytics`, analyticsRateLimit) ??
        new SlidingWindowThrottle(analyticsRateLimit.requests, analyticsRateLimit.windowMs);
      clients.analytics = this.sdkClient(apiToken, {
        throttle: new AnalyticsThrottle(analytics, clients.throttle),
        rateLimit: analyticsRateLimit,
        budgetOf: 'GraphQL Analytics queries to Cloudflare',
        maxAnswerBytes: maxAnalyticsAnswerBytes,
      });
    }
    return clients.analytics;
  }

  /**
   * Where a token's two budgets are counted (their keys in `cloudflare_budget`, as the throttles take
   * them) and how large they are: what the Performance report reads of a token's use.
   */
  budgetsOf(
    apiToken: string,
  ): Record<'rest' | 'analytics', { key: string; requests: number; windowMs: number }> {
    const key = tokenKey(apiToken);
    return {
      rest: { key, ...this.options.rateLimit },
      analytics: { key: `${key}:analytics`, ...this.options.analyticsRateLimit },
    };
  }

  private clientsOf(apiToken: string): TokenClients {
    // Keyed by a hash so the map never holds a second plain copy of the token as a key.
    const key = tokenKey(apiToken);
    let clients = this.clients.get(key);
    if (clients) {
      // Map order is insertion order: re-inserting marks the client as recently used.
      this.clients.delete(key);
    } else {
      const { rateLimit, maxAnswerBytes } = this.options;
      const throttle =
        this.options.throttleFor?.(key, rateLimit) ??
        new SlidingWindowThrottle(rateLimit.requests, rateLimit.windowMs);
      clients = {
        rest: this.sdkClient(apiToken, {
          throttle,
          rateLimit,
          budgetOf: 'calls to Cloudflare',
          maxAnswerBytes,
        }),
        throttle,
      };
      // Rejected tokens (a failed "Add Account") must not pile up for the life of the process.
      if (this.clients.size >= MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
    }
    this.clients.set(key, clients);
    return clients;
  }

  private sdkClient(
    apiToken: string,
    transport: Pick<TransportOptions, 'throttle' | 'rateLimit' | 'budgetOf' | 'maxAnswerBytes'>,
  ): Cloudflare {
    const { deadlineMs, timeoutMs } = this.options;
    return new Cloudflare({
      apiToken,
      baseURL: this.options.baseUrl,
      // The transport times every attempt and the deadline; the SDK's own timer is only a backstop.
      timeout: Math.max(deadlineMs, timeoutMs) + 5_000,
      maxRetries: 0,
      fetch: guardedFetch({ ...this.options, ...transport, network: this.options.fetch ?? fetch }),
      logLevel: 'off',
    });
  }
}

const tokenKey = (apiToken: string) => createHash('sha256').update(apiToken).digest('base64url');
