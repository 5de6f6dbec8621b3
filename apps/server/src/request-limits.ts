import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { RequestLimits } from './config';
import { AppError } from './app-error';
import { isApiPath } from './route-table';

/** Who a request counts against: the signed-in person, or before signing in the client's address. */
function requesterOf(request: FastifyRequest): string {
  return request.user ? `user:${request.user.id}` : `address:${request.ip}`;
}

/**
 * Costly requests per person: `running` at once, `waiting` more in line (first come, first served),
 * and past that a 429 at once. A person's own work waits for its turn instead of everyone's.
 */
export class CostlyRequestQueue {
  private readonly people = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(private readonly limits: Pick<RequestLimits, 'concurrentCostly' | 'queuedCostly'>) {}

  /**
   * The release of this request's place: at once when one is free, else a promise of it once it is
   * this request's turn (a 429 when the line is full too).
   */
  enter(requester: string): (() => void) | Promise<() => void> {
    let person = this.people.get(requester);
    if (!person) this.people.set(requester, (person = { running: 0, waiting: [] }));
    if (person.running < this.limits.concurrentCostly) {
      person.running++;
      return this.releaseOf(requester, person);
    }
    if (person.waiting.length < this.limits.queuedCostly) {
      // The place is handed over by the request that leaves it (`running` stays as it is).
      return new Promise<void>((resolve) => person.waiting.push(resolve)).then(() =>
        this.releaseOf(requester, person),
      );
    }
    throw new AppError(
      'RATE_LIMITED',
      `Too many requests at once: ${this.limits.concurrentCostly} item pages, searches or syncs run at a time ` +
        `and ${this.limits.queuedCostly} wait; please try again in a moment.`,
      { retryAfterSeconds: 1 },
    );
  }

  private releaseOf(requester: string, person: { running: number; waiting: (() => void)[] }): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = person.waiting.shift();
      if (next) next();
      else if (--person.running === 0) this.people.delete(requester);
    };
  }
}

/** Requesters whose minute is kept; past it the least recently seen start a new minute. */
const MAX_COUNTED_REQUESTERS = 5_000;
const MINUTE_MS = 60_000;

/**
 * `perMinute` requests a minute per requester: a window opens at a requester's first request and
 * counts to its end, the counting @fastify/rate-limit's local store did, with its headers
 * (x-ratelimit-limit, -remaining, -reset on every answer; retry-after on a 429). A sync hook, where
 * the plugin's awaited the key, the allow list and the store on every request.
 */
export class RequestsPerMinute {
  private readonly windows = new LRUCache<string, { count: number; openedAt: number }>({
    max: MAX_COUNTED_REQUESTERS,
  });

  constructor(private readonly perMinute: number) {}

  /** Counts the request: sets its headers and answers the 429 once past the limit. */
  count(requester: string, reply: FastifyReply): AppError | undefined {
    const now = Date.now();
    let window = this.windows.get(requester);
    if (!window || window.openedAt + MINUTE_MS <= now) {
      window = { count: 0, openedAt: now };
      this.windows.set(requester, window);
    }
    window.count++;
    const ttl = window.openedAt + MINUTE_MS - now;
    const seconds = Math.ceil(ttl / 1000);
    reply.header('x-ratelimit-limit', this.perMinute);
    if (window.count <= this.perMinute) {
      reply.header('x-ratelimit-remaining', this.perMinute - window.count);
      reply.header('x-ratelimit-reset', seconds);
      return undefined;
    }
    reply.header('x-ratelimit-remaining', 0);
    reply.header('x-ratelimit-reset', seconds);
    reply.header('retry-after', seconds);
    const wait = Math.max(1, seconds);
    return new AppError(
      'RATE_LIMITED',
      `Too many requests: at most ${this.perMinute} a minute. Please try again in ${wait} s.`,
      { retryAfterSeconds: wait },
    );
  }
}

/**
 * Per-person limits on the API, after the auth guard (registered before any route, after
 * registerAuthGuard, so its hooks run after the guard's): `perMinute` requests a minute, keyed by the
 * signed-in user (by address on the public routes), answered with the contract's 429 RATE_LIMITED and
 * Retry-After; and the routes of endpoints declared `costly` (their cost grows with the data) through
 * a CostlyRequestQueue per person: PGlite runs one statement at a time, so one person's searches in
 * parallel would otherwise queue everyone else behind them. A GET's HEAD route is as costly as it.
 * Both are attached to each route as it is registered, so a request does not look them up again.
 */
export function registerRequestLimits(app: FastifyInstance, limits: RequestLimits): void {
  const minute = new RequestsPerMinute(limits.perMinute);
  const countRequest = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    // The web app's files are not API work (a page load fetches several).
    if (!isApiPath(request.url)) return done();
    done(minute.count(requesterOf(request), reply));
  };
  const queue = new CostlyRequestQueue(limits);
  app.addHook('onRoute', (route) => {
    // A new array: a GET's HEAD route starts from the GET's options as they were declared.
    route.onRequest = [...[route.onRequest ?? []].flat(), countRequest];
    if (!route.config?.costly) return;
    const handler = route.handler as (...args: Parameters<RouteHandlerMethod>) => unknown;
    route.handler = async function (this: FastifyInstance, request, reply) {
      const place = queue.enter(requesterOf(request));
      const leave = typeof place === 'function' ? place : await place;
      try {
        return await handler.call(this, request, reply);
      } finally {
        leave();
      }
    };
  });
}
