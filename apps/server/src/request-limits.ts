import rateLimit from '@fastify/rate-limit';
import { signInRoutes } from '@guardian/contract';
import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { pipeline, Transform } from 'node:stream';
import type { Config, RequestLimits } from './config';
import { AppError } from './app-error';
import { isApiPath } from './route-table';

/** Who a request counts against: the signed-in person, or before signing in the client's address. */
function requesterOf(request: FastifyRequest): string {
  return request.user ? `user:${request.user.id}` : `address:${request.ip}`;
}

const SIGN_IN_PATHS = new Set<string>([signInRoutes.login.path, signInRoutes.loginTwoFactor.path]);

/**
 * A sign-in counts against the e-mail (or the second step's challenge) at its address, read from the
 * body: the sign-in limiter lets people already seen from an address sign in whatever else comes
 * from it, and a flood of other e-mails from there must not use up their minute either.
 */
function signInRequesterOf(request: FastifyRequest): string {
  const body = request.body as { email?: string; challenge_token?: string };
  return `sign-in:${request.ip} ${body.email?.toLowerCase() ?? body.challenge_token}`;
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

/**
 * At most `perAddress` connections open from one client address: past it a new one is closed at once,
 * before anything is read, so one address cannot hold every file descriptor with slow requests.
 * Counted only while connections are open: the map holds no more entries than open connections.
 */
export function limitConnectionsPerAddress(server: Server, perAddress: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > perAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/**
 * Request bodies in flight, in bytes, per person and in all: a body counts from before it is read
 * until its answer is sent, as what is parsed from it and the work on it live that long. Past either
 * bound a 429, so two people sending ten 14 MB imports each at once cannot run the heap out.
 */
export class BodiesInFlight {
  private readonly people = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: Config['bodiesInFlight']) {}

  /** Counts `bytes` more of the requester's bodies, or throws a 429 when that would pass a bound. */
  take(requester: string, bytes: number): void {
    const held = this.people.get(requester) ?? 0;
    if (held + bytes > this.limits.perPersonBytes || this.total + bytes > this.limits.totalBytes) {
      const megabytes = (bytes: number) => `${Math.round(bytes / 1_000_000)} MB`;
      throw new AppError(
        'RATE_LIMITED',
        `Too much being sent at once: at most ${megabytes(this.limits.perPersonBytes)} of requests a person ` +
          `and ${megabytes(this.limits.totalBytes)} in all are read at a time; please try again in a moment.`,
        { retryAfterSeconds: 2 },
      );
    }
    this.people.set(requester, held + bytes);
    this.total += bytes;
  }

  /** The requester's `bytes` are answered. */
  give(requester: string, bytes: number): void {
    if (bytes === 0) return;
    const held = (this.people.get(requester) ?? 0) - bytes;
    if (held > 0) this.people.set(requester, held);
    else this.people.delete(requester);
    this.total -= bytes;
  }
}

/**
 * Counts each request's body in `bodies` before it is read (before parsing, after the auth guard knows
 * the person): by its Content-Length, or chunk by chunk as a chunked one arrives. A body past its
 * route's limit is left to Fastify's 413 without being read. Given back once the answer is sent or the
 * connection closes.
 */
function countBodies(app: FastifyInstance, bodies: BodiesInFlight): void {
  app.addHook('preParsing', (request, reply, payload, done) => {
    const length = request.headers['content-length'];
    const chunked = request.headers['transfer-encoding'] !== undefined;
    if (length === undefined && !chunked) return done(null, payload);
    const requester = requesterOf(request);
    let held = 0;
    const take = (bytes: number) => {
      bodies.take(requester, bytes);
      held += bytes;
    };
    reply.raw.once('close', () => bodies.give(requester, held));
    if (!chunked) {
      const bytes = Number(length);
      try {
        if (bytes <= request.routeOptions.bodyLimit) take(bytes);
      } catch (err) {
        return done(err as AppError);
      }
      return done(null, payload);
    }
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        try {
          take(chunk.length);
          next(null, chunk);
        } catch (err) {
          next(err as AppError);
        }
      },
    });
    done(
      null,
      pipeline(payload, counted, () => undefined),
    );
  });
}

/** The window of the per-person limit (`perMinute`): a minute. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * Per-person limits on the API, after the auth guard (registered before any route, after
 * registerAuthGuard, so its hooks run after the guard's): `perMinute` requests a minute, keyed by the
 * signed-in user (by address on the public routes), answered with the contract's 429 RATE_LIMITED and
 * Retry-After; and the routes of endpoints declared `costly` (their cost grows with the data) through
 * a CostlyRequestQueue per person: PGlite runs one statement at a time, so one person's searches in
 * parallel would otherwise queue everyone else behind them. A GET's HEAD route is as costly as it.
 */
export async function registerRequestLimits(
  app: FastifyInstance,
  limits: RequestLimits,
  bodiesInFlight: Config['bodiesInFlight'],
): Promise<void> {
  countBodies(app, new BodiesInFlight(bodiesInFlight));
  // Before the plugin's own onRoute hook, which reads a route's `rateLimit`: counted once the body is read.
  app.addHook('onRoute', (route) => {
    if (route.method === 'POST' && SIGN_IN_PATHS.has(route.url))
      route.config = { ...route.config, rateLimit: { hook: 'preHandler', keyGenerator: signInRequesterOf } };
  });
  await app.register(rateLimit, {
    max: limits.perMinute,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    keyGenerator: requesterOf,
    // The web app's files are not API work (a page load fetches several).
    allowList: (request) => !isApiPath(request.url),
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new AppError(
        'RATE_LIMITED',
        `Too many requests: at most ${context.max} a minute. Please try again in ${seconds} s.`,
        { retryAfterSeconds: seconds },
      );
    },
  });

  const queue = new CostlyRequestQueue(limits);
  app.addHook('onRoute', (route) => {
    if (!route.config?.costly) return;
    const handler = route.handler as (...args: Parameters<RouteHandlerMethod>) => unknown;
    route.handler = function (this: FastifyInstance, request, reply) {
      const answer = handler.bind(this, request, reply);
      const place = queue.enter(requesterOf(request));
      return typeof place === 'function'
        ? inPlace(place, answer)
        : place.then((leave) => inPlace(leave, answer));
    };
  });
}

/**
 * A handler's answer given in its place, which it leaves once the answer is ready: at once for an
 * answer given without a promise (a kept page), so that one takes no promise here either.
 */
function inPlace(leave: () => void, answer: () => unknown): unknown {
  let answered: unknown;
  try {
    answered = answer();
  } catch (err) {
    leave();
    throw err;
  }
  if (answered instanceof Promise) return answered.finally(leave);
  leave();
  return answered;
}
