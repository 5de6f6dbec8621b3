import { createSandbox, type Sandbox } from '@guardian/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../app-error';
import { AnalyticsRefusal, queryAnalytics, zoneAnalyticsSettings } from './analytics';
import { CloudflareGateway, type CloudflareOptions } from './client';
import { cloudflareErrorToAppError } from './errors';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

const COUNT_QUERY = `query Count($zoneTags: [string!], $since: Time!, $until: Time!) {
  viewer {
    zones(filter: { zoneTag_in: $zoneTags }) {
      zoneTag
      firewallEventsAdaptiveGroups(filter: { datetime_geq: $since, datetime_lt: $until }, limit: 1) { count }
    }
  }
}`;
const countSchema = z.object({
  viewer: z.object({
    zones: z.array(
      z.object({
        zoneTag: z.string(),
        firewallEventsAdaptiveGroups: z.array(z.object({ count: z.number() })),
      }),
    ),
  }),
});

async function failure(call: Promise<unknown>): Promise<AppError> {
  const err = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

describe('GraphQL Analytics through the gateway, against the sandbox', () => {
  let sandbox: Sandbox;
  let baseUrl: string;
  const token = 'analytics-test-token-0123456789';
  const freeToken = 'analytics-free-token-0123456789';
  let zoneIds: string[];
  let freeZoneId: string;

  const gateway = (options: Partial<CloudflareOptions> = {}) =>
    new CloudflareGateway({
      baseUrl,
      // Long enough that a loaded machine never retries: the tests count the queries sent.
      timeoutMs: 30_000,
      maxRetries: 1,
      rateLimit: { requests: 10_000, windowMs: 60_000 },
      maxRetryAfterMs: 1_000,
      ...options,
    });
  const graphqlCalls = () => sandbox.control.callLog().filter((call) => call.path === '/graphql');
  const lastHour = () => ({ since: iso(Date.now() - HOUR), until: iso(Date.now()) });

  beforeAll(async () => {
    sandbox = await createSandbox({ rateLimit: false });
    baseUrl = await sandbox.listen(0, '127.0.0.1');
    const account = sandbox.control.addAccount({ name: 'Analytics', plan: 'enterprise' });
    sandbox.control.addToken({ value: token, accountIds: [account.id] });
    zoneIds = Array.from(
      { length: 12 },
      (_, index) => sandbox.control.addZone(account.id, `zone-${index}.example`, { status: 'active' }).id,
    );
    const free = sandbox.control.addAccount({ name: 'Free', plan: 'free' });
    sandbox.control.addToken({ value: freeToken, accountIds: [free.id] });
    freeZoneId = sandbox.control.addZone(free.id, 'free.example', { status: 'active' }).id;
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    sandbox.control.clearFaults();
    sandbox.control.resetCalls();
  });

  it("reads each zone's dataset limits, 10 zones a query", async () => {
    const settings = await zoneAnalyticsSettings(gateway().analyticsClient(token), zoneIds);
    expect([...settings.keys()].sort()).toEqual([...zoneIds].sort());
    expect(settings.get(zoneIds[0]!)!.firewallEventsAdaptiveGroups).toMatchObject({
      enabled: true,
      notOlderThan: 31 * 86_400,
    });
    // 12 zones: ceil(12 / 10) queries.
    expect(graphqlCalls()).toHaveLength(2);

    const free = await zoneAnalyticsSettings(gateway().analyticsClient(freeToken), [freeZoneId]);
    expect(free.get(freeZoneId)!.firewallEventsAdaptiveGroups?.enabled).toBe(false);
  });

  it("answers a query's data, checked by its schema", async () => {
    const data = await queryAnalytics(
      gateway().analyticsClient(token),
      COUNT_QUERY,
      { zoneTags: zoneIds.slice(0, 3), ...lastHour() },
      countSchema,
    );
    expect(data.viewer.zones.map((zone) => zone.zoneTag).sort()).toEqual(zoneIds.slice(0, 3).sort());
  });

  it("turns Cloudflare's refusals into clear errors: a range older than the plan keeps", async () => {
    const err = await failure(
      queryAnalytics(
        gateway().analyticsClient(freeToken),
        COUNT_QUERY.replace('firewallEventsAdaptiveGroups', 'httpRequestsAdaptiveGroups').replace(
          'firewallEventsAdaptiveGroups',
          'httpRequestsAdaptiveGroups',
        ),
        {
          zoneTags: [freeZoneId],
          since: iso(Date.now() - 20 * 24 * HOUR),
          until: iso(Date.now() - 19 * 24 * HOUR),
        },
        z.unknown(),
      ),
    );
    expect(err).toBeInstanceOf(AnalyticsRefusal);
    expect((err as AnalyticsRefusal).reason).toBe('range');
    expect(err.status).toBe(400);
    expect(err.message).toContain('cannot request data older than');
  });

  it('a dataset not on the plan and a zone of another account are refusals of their own kind', async () => {
    const plan = await failure(
      queryAnalytics(
        gateway().analyticsClient(freeToken),
        COUNT_QUERY,
        { zoneTags: [freeZoneId], ...lastHour() },
        z.unknown(),
      ),
    );
    expect((plan as AnalyticsRefusal).reason).toBe('plan');
    const access = await failure(
      queryAnalytics(
        gateway().analyticsClient(freeToken),
        COUNT_QUERY,
        { zoneTags: [zoneIds[0]], ...lastHour() },
        z.unknown(),
      ),
    );
    expect((access as AnalyticsRefusal).reason).toBe('access');
    expect(access.status).toBe(403);
  });

  it('reads GraphQL errors that come with HTTP 200 as refusals, not as data', async () => {
    // Cloudflare answers many refusals with 200: the sandbox's 400 passed on as such.
    const as200: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      return new Response(await response.text(), { status: 200, headers: response.headers });
    };
    const err = await failure(
      queryAnalytics(
        gateway({ fetch: as200 }).analyticsClient(token),
        COUNT_QUERY,
        { zoneTags: [zoneIds[0]], since: iso(Date.now() - 40 * 24 * HOUR), until: iso(Date.now()) },
        countSchema,
      ),
    );
    expect(err).toBeInstanceOf(AnalyticsRefusal);
    expect((err as AnalyticsRefusal).reason).toBe('range');
    expect(err.status).toBe(400);
  });

  it('an answer of another shape is not used', async () => {
    const err = await failure(
      queryAnalytics(
        gateway().analyticsClient(token),
        COUNT_QUERY,
        { zoneTags: [zoneIds[0]], ...lastHour() },
        z.object({ viewer: z.object({ accounts: z.array(z.unknown()) }) }),
      ),
    );
    expect(err.status).toBe(502);
    expect(err.message).toContain('not in the expected shape');
  });

  it('keeps to its own budget of analytics queries, apart from the REST budget, and sends nothing past it', async () => {
    const client = gateway({ analyticsRateLimit: { requests: 2, windowMs: 60_000 } });
    const analytics = client.analyticsClient(token);
    for (let i = 0; i < 2; i++)
      await queryAnalytics(analytics, COUNT_QUERY, { zoneTags: [zoneIds[0]], ...lastHour() }, countSchema);
    const err = await failure(
      queryAnalytics(analytics, COUNT_QUERY, { zoneTags: [zoneIds[0]], ...lastHour() }, countSchema),
    );
    expect(err.code).toBe('RATE_LIMITED');
    expect(err.message).toContain(
      "Guardian's own limit of 2 GraphQL Analytics queries to Cloudflare per minute",
    );
    expect(graphqlCalls()).toHaveLength(2);
    // The REST calls of the same token still go.
    await client.client(token).zones.list();
  });

  it('each query spends the REST budget too', async () => {
    const client = gateway({ rateLimit: { requests: 1, windowMs: 60_000 } });
    await queryAnalytics(
      client.analyticsClient(token),
      COUNT_QUERY,
      { zoneTags: [zoneIds[0]], ...lastHour() },
      countSchema,
    );
    const err = await client
      .client(token)
      .zones.list()
      .then(
        () => undefined,
        (error: unknown) => cloudflareErrorToAppError(error),
      );
    expect(err?.code).toBe('RATE_LIMITED');
  });

  it("Cloudflare's own budget refusal is a rate limit with its wait", async () => {
    const limited = await createSandbox({ graphqlRateLimit: { limit: 1, windowMs: 300_000 } });
    const limitedUrl = await limited.listen(0, '127.0.0.1');
    try {
      const account = limited.control.addAccount({ name: 'Limited', plan: 'enterprise' });
      limited.control.addToken({ value: token, accountIds: [account.id] });
      const zone = limited.control.addZone(account.id, 'limited.example', { status: 'active' });
      const client = new CloudflareGateway({
        baseUrl: limitedUrl,
        timeoutMs: 2_000,
        maxRetries: 0,
        rateLimit: { requests: 1_000, windowMs: 60_000 },
        maxRetryAfterMs: 1_000,
      }).analyticsClient(token);
      await queryAnalytics(client, COUNT_QUERY, { zoneTags: [zone.id], ...lastHour() }, countSchema);
      const err = await failure(
        queryAnalytics(client, COUNT_QUERY, { zoneTags: [zone.id], ...lastHour() }, countSchema),
      );
      expect((err as AnalyticsRefusal).reason).toBe('budget');
      expect(err.status).toBe(429);
      expect((err as AppError).details.retryAfterSeconds).toBe(300);
    } finally {
      await limited.close();
    }
  });

  it('refuses an answer larger than its bound', async () => {
    const err = await failure(
      queryAnalytics(
        gateway({ maxAnalyticsAnswerBytes: 200 }).analyticsClient(token),
        COUNT_QUERY,
        { zoneTags: zoneIds.slice(0, 10), ...lastHour() },
        countSchema,
      ),
    );
    expect(err.status).toBe(502);
    expect(err.message).toContain('larger than');
  });
});
