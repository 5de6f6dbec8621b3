import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { CallLog, type CallRecord } from './call-log';
import type { ResolvedOptions, SandboxContext } from './context';
import { createControl, registerControlRoutes, type SandboxControl } from './control';
import { CloudflareError, fail } from './envelope';
import {
  FaultInjector,
  hostilePayload,
  hostileQuery,
  oversizedAnswer,
  seededRandom,
  trickle,
  type HostileAnswer,
} from './faults';
import { loadStateFile, StateSaver } from './persistence';
import { RateLimiter } from './rate-limit';
import { registerAccountRoutes } from './resources/accounts';
import { BulkOperationRunner } from './bulk-operation-runner';
import { registerBulkOperationRoutes } from './resources/bulk-operations';
import { registerDnsRoutes } from './resources/dns';
import { registerGraphqlRoutes } from './resources/graphql';
import { Analytics } from './analytics/analytics';
import { registerListRoutes } from './resources/lists';
import { registerPageRuleRoutes } from './resources/pagerules';
import { registerRulesetRoutes } from './resources/rulesets';
import { bearerToken, registerTokenRoutes } from './resources/tokens';
import { registerZoneSettingRoutes } from './resources/zone-settings';
import { registerZoneRoutes, scheduleActivation } from './resources/zones';
import { SandboxState } from './state';

export const API_PREFIX = '/client/v4';
export const CONTROL_PREFIX = '/__sandbox';

export interface SandboxOptions {
  /** Load the state from this file at start (when it exists) and save it there after changes and on close. */
  stateFile?: string;
  /** How long after a change the state file is written (default 250 ms). */
  persistDebounceMs?: number;
  /** Delay of each bulk operation step, pending to running to done (default 0: the next event-loop turn). */
  operationDelayMs?: number;
  /** Pending zones turn active after this delay; default: never on their own (use `activateZone`). */
  zoneActivationDelayMs?: number | null;
  /** Per-token rate limit (default 1,200 requests per 300,000 ms); `false` turns it off. */
  rateLimit?: { limit?: number; windowMs?: number } | false;
  /**
   * Per-token limit of GraphQL Analytics queries (default 300 per 300,000 ms, on top of `rateLimit`);
   * `false` turns it off. Without it, `rateLimit: false` turns this one off too.
   */
  graphqlRateLimit?: { limit?: number; windowMs?: number } | false;
  /** The call log keeps at most this many calls (default 200,000). */
  callLogLimit?: number;
  /** Seed of the random draws of `fraction` faults (default: time-based). */
  faultSeed?: number;
  /** Largest request body accepted, in bytes (default 64 MiB: a full 500,000-item list replace fits). */
  bodyLimit?: number;
  /** Fastify's logger (default off). */
  logger?: boolean;
  /**
   * The secret the HTTP control API (/__sandbox) asks for in `x-sandbox-control-secret`; default: a
   * random one for this run (`Sandbox.controlSecret`). The in-process `control` needs none.
   */
  controlSecret?: string;
}

export interface Sandbox {
  /** The Fastify instance: `sandbox.app.inject(...)` works without listening. */
  app: FastifyInstance;
  control: SandboxControl;
  /** What a caller of the HTTP control API sends in `x-sandbox-control-secret`. */
  readonly controlSecret: string;
  /** Starts listening; resolves to the base URL for the SDK, e.g. http://127.0.0.1:8787/client/v4. */
  listen(port?: number, host?: string): Promise<string>;
  /** The base URL once listening, else null. */
  readonly baseUrl: string | null;
  /** Finishes queued list operations, saves the state file, stops timers and the server. */
  close(): Promise<void>;
}

function resolveOptions(options: SandboxOptions): ResolvedOptions {
  const rateLimit =
    options.rateLimit === false
      ? null
      : { limit: options.rateLimit?.limit ?? 1200, windowMs: options.rateLimit?.windowMs ?? 300_000 };
  const graphql = options.graphqlRateLimit ?? (options.rateLimit === false ? false : {});
  const graphqlRateLimit =
    graphql === false ? null : { limit: graphql.limit ?? 300, windowMs: graphql.windowMs ?? 300_000 };
  return {
    operationDelayMs: options.operationDelayMs ?? 0,
    zoneActivationDelayMs: options.zoneActivationDelayMs ?? null,
    rateLimit,
    graphqlRateLimit,
    callLogLimit: options.callLogLimit ?? 200_000,
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Cloudflare-shaped answers for Fastify's own errors (bad JSON, too large a body, wrong media type). */
function toCloudflareError(error: FastifyError): CloudflareError {
  if (error instanceof CloudflareError) return error;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return fail(413, 10013, 'Request body is too large');
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return fail(400, 6003, 'Invalid request headers', [
      {
        code: 6105,
        message: 'Invalid Content-Type header, valid values are application/json,multipart/form-data',
      },
    ]);
  }
  if (error.statusCode !== undefined && error.statusCode < 500)
    return fail(error.statusCode, 10001, error.message);
  return fail(500, 10002, 'An unknown error has occurred');
}

export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const resolved = resolveOptions(options);
  const state = new SandboxState();
  const timers = new Set<NodeJS.Timeout>();
  const immediates = new Set<NodeJS.Immediate>();
  const schedule = (callback: () => void, delayMs: number) => {
    if (delayMs <= 0) {
      const handle = setImmediate(() => {
        immediates.delete(handle);
        callback();
      });
      immediates.add(handle);
      return;
    }
    const handle = setTimeout(() => {
      timers.delete(handle);
      callback();
    }, delayMs);
    timers.add(handle);
  };
  const operations = new BulkOperationRunner(state, () => resolved.operationDelayMs, schedule);
  const analytics = new Analytics(state);
  const context: SandboxContext = { state, options: resolved, operations, schedule, analytics };

  let saver: StateSaver | null = null;
  const persistDebounceMs = options.persistDebounceMs ?? 250;
  state.onChange(() => saver?.schedule());
  if (options.stateFile) {
    loadStateFile(state, options.stateFile);
    saver = new StateSaver(state, options.stateFile, persistDebounceMs);
    for (const zone of state.zones.values()) scheduleActivation(context, zone);
  }

  const faults = new FaultInjector(seededRandom(options.faultSeed ?? Date.now()));
  const calls = new CallLog(resolved.callLogLimit);
  const rateLimiter = resolved.rateLimit
    ? new RateLimiter(resolved.rateLimit.limit, resolved.rateLimit.windowMs)
    : null;
  const graphqlRateLimiter = resolved.graphqlRateLimit
    ? new RateLimiter(resolved.graphqlRateLimit.limit, resolved.graphqlRateLimit.windowMs)
    : null;

  const app = Fastify({ logger: options.logger ?? false, bodyLimit: options.bodyLimit ?? 64 * 1024 * 1024 });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(fail(400, 6007, 'Malformed JSON in request body'), undefined);
    }
  });

  const callOf = new WeakMap<FastifyRequest, CallRecord>();
  /** Requests answered by a hostile fault: their real answer is rewritten on its way out. */
  const hostileOf = new WeakMap<
    FastifyRequest,
    { answer: HostileAnswer; trickleMs?: number; page?: unknown }
  >();

  await app.register(
    async (api) => {
      api.addHook('onRequest', async (request, reply) => {
        const [rawPath = '', query = ''] = request.url.split('?');
        const path = rawPath.slice(API_PREFIX.length) || '/';
        const token = bearerToken(request);
        const call: CallRecord = { method: request.method, path, query, token, status: 0, at: Date.now() };
        calls.add(call);
        callOf.set(request, call);

        const fault = faults.decide(request.method, path);
        if (fault) {
          if (fault.latencyMs > 0) await sleep(fault.latencyMs);
          if (fault.drop) {
            reply.hijack();
            request.raw.socket?.destroy();
            request.raw.destroy();
            return reply;
          }
          if (fault.status !== undefined) {
            const error =
              fault.status === 429
                ? fail(429, 10429, 'Rate limited. Please wait and consider throttling your request speed')
                : fail(fault.status, 10002, 'An unknown error has occurred');
            if (fault.status === 429) void reply.header('retry-after', String(fault.retryAfterSeconds ?? 1));
            else if (fault.retryAfterSeconds !== undefined)
              void reply.header('retry-after', String(fault.retryAfterSeconds));
            return reply.status(error.status).send(error.body());
          }
          if (fault.answer === 'oversized') {
            return reply.type('application/json').send(oversizedAnswer(fault.bytes));
          }
          if (fault.answer === 'echo') {
            const echoed = hostilePayload('echo', '', { authorization: request.headers.authorization });
            return reply.status(400).type('application/json').send(echoed);
          }
          if (fault.answer) {
            const query = request.query as Record<string, unknown>;
            hostileOf.set(request, { answer: fault.answer, trickleMs: fault.trickleMs, page: query.page });
            (request as { query: unknown }).query = hostileQuery(fault.answer, query);
          }
        }

        if (rateLimiter && token !== null) {
          const retryAfter = rateLimiter.hit(token);
          if (retryAfter !== null) {
            const error = fail(
              429,
              10429,
              'Rate limited. Please wait and consider throttling your request speed',
            );
            return reply.status(429).header('retry-after', String(retryAfter)).send(error.body());
          }
        }
      });
      api.addHook('onSend', async (request, reply, payload) => {
        const hostile = hostileOf.get(request);
        if (!hostile || reply.statusCode >= 300 || typeof payload !== 'string') return payload;
        const rewritten = hostilePayload(hostile.answer, payload, { page: hostile.page });
        return hostile.answer === 'slow' ? trickle(rewritten, hostile.trickleMs) : rewritten;
      });
      api.addHook('onResponse', async (request, reply) => {
        const call = callOf.get(request);
        if (call) call.status = reply.statusCode;
      });
      api.setErrorHandler((error: FastifyError, request, reply) => {
        const cloudflareError = toCloudflareError(error);
        if (cloudflareError.status >= 500) request.log.error(error);
        void reply
          .status(cloudflareError.status)
          .headers(cloudflareError.headers)
          .send(cloudflareError.body());
      });
      api.setNotFoundHandler(async (_request, reply) => {
        const error = fail(404, 7000, 'No route for that URI');
        return reply.status(404).send(error.body());
      });

      registerTokenRoutes(api, context);
      registerAccountRoutes(api, context);
      registerZoneRoutes(api, context);
      registerZoneSettingRoutes(api, context);
      registerDnsRoutes(api, context);
      registerBulkOperationRoutes(api, context);
      registerListRoutes(api, context);
      registerRulesetRoutes(api, context);
      registerPageRuleRoutes(api, context);
      registerGraphqlRoutes(api, context, graphqlRateLimiter);
    },
    { prefix: API_PREFIX },
  );

  const persistTo = async (file: string) => {
    saver = new StateSaver(state, file, persistDebounceMs);
    await saver.save();
  };
  const control = createControl({ context, faults, calls, rateLimiter, graphqlRateLimiter, persistTo });
  const controlSecret = options.controlSecret ?? randomBytes(24).toString('base64url');
  await app.register(async (controlApi) => registerControlRoutes(controlApi, control, controlSecret), {
    prefix: CONTROL_PREFIX,
  });
  await app.ready();

  let baseUrl: string | null = null;
  return {
    app,
    control,
    controlSecret,
    get baseUrl() {
      return baseUrl;
    },
    async listen(port = 0, host = '127.0.0.1') {
      await app.listen({ port, host });
      const address = app.server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      const urlHost = host.includes(':') ? `[${host}]` : host;
      baseUrl = `http://${urlHost}:${actualPort}${API_PREFIX}`;
      return baseUrl;
    },
    async close() {
      // Bounded: a list operation still waiting after a few seconds is abandoned rather than blocking close.
      await Promise.race([operations.settle(), sleep(5000)]);
      for (const handle of timers) clearTimeout(handle);
      for (const handle of immediates) clearImmediate(handle);
      timers.clear();
      immediates.clear();
      if (saver) await saver.save();
      await app.close();
      baseUrl = null;
    },
  };
}
