import type { ErrorBody, SecurityReport, TrafficReport } from '@guardian/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../config';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { accountWithZones } from '../../test/zone';

/*
 * Progressive reports: a report whose queries take longer than the first-answer time answers with what
 * is read so far, goes on reading, and is complete a little later, for the same queries as read whole.
 * Cloudflare is held by hand here: a report query past the first waits until the test lets it go.
 */

/** Report queries (not settings ones) the network lets through before it holds the rest. */
let passing = Number.POSITIVE_INFINITY;
const held: (() => void)[] = [];
let reportQueries = 0;

const release = () => {
  passing = Number.POSITIVE_INFINITY;
  for (const go of held.splice(0)) go();
};

const heldNetwork: typeof fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  const body = typeof init?.body === 'string' ? init.body : '';
  if (url.endsWith('/graphql') && /query (Traffic|Security)Report/.test(body)) {
    reportQueries += 1;
    if (reportQueries > passing) await new Promise<void>((go) => held.push(go));
  }
  return fetch(input, init);
};

const graphqlCalls = (ctx: CloudflareTestContext, token: string) =>
  ctx.sandbox.control.callLog().filter((call) => call.path === '/graphql' && call.token === token).length;

describe('progressive reports: the first answer within a moment, the rest read on', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let bob: TestUser;
  let twelve: Awaited<ReturnType<typeof accountWithZones>>;
  let bobs: Awaited<ReturnType<typeof accountWithZones>>;

  const ask = async <T>(user: TestUser, kind: string, query: Record<string, string>) => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/reports/${kind}`,
      query,
      headers: user.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };

  /** Asks until `done` holds of the answer, as the page does while a report is partial. */
  const askUntil = async <T>(
    user: TestUser,
    kind: string,
    query: Record<string, string>,
    done: (answer: T) => boolean,
  ) => {
    for (let attempt = 0; attempt < 200; attempt++) {
      const answer = await ask<T>(user, kind, query);
      if (done(answer)) return answer;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the report never got there');
  };

  beforeAll(async () => {
    ctx = await createCloudflareTestContext({
      config: {
        reportFirstAnswerMs: 150,
        cloudflare: { timeoutMs: 30_000, fetch: heldNetwork } as Config['cloudflare'],
      },
    });
    alice = await ctx.createUser();
    bob = await ctx.createUser();
    twelve = await accountWithZones(ctx, alice, 'enterprise', 12, 'progressive');
    bobs = await accountWithZones(ctx, bob, 'enterprise', 3, 'progressive');
  });
  afterAll(async () => {
    release();
    await ctx.close();
  });
  beforeEach(() => {
    release();
    reportQueries = 0;
    ctx.sandbox.control.resetCalls();
  });

  it('answers with the zones read so far, complete: false, then the whole report for the same queries', async () => {
    passing = 1;
    const query = { account_id: twelve.account.account_id, range: '24h' };
    const first = await ask<TrafficReport>(alice, 'traffic', query);
    expect(first.scope).toMatchObject({ complete: false, zone_count: 12 });
    expect(first.scope.zones_read).toBeLessThan(12);

    // The first report query's zones are in while the second is held.
    const partial = await askUntil<TrafficReport>(alice, 'traffic', query, (a) => a.scope.zones_read > 0);
    expect(partial.scope.complete).toBe(false);
    expect([2, 10]).toContain(partial.scope.zones_read);
    expect(partial.by_zone).toHaveLength(partial.scope.zones_read);
    expect(partial.totals.requests).toBeGreaterThan(0);
    expect(partial.over_time.length).toBeGreaterThan(0);

    release();
    const whole = await askUntil<TrafficReport>(alice, 'traffic', query, (a) => a.scope.complete);
    expect(whole.scope).toMatchObject({ complete: true, zones_read: 12, zone_count: 12 });
    expect(whole.by_zone).toHaveLength(12);
    expect(whole.totals.requests).toBeGreaterThan(partial.totals.requests);
    // No query more than a report read whole: two settings queries and two report queries.
    expect(graphqlCalls(ctx, twelve.account.tokenValue)).toBe(4);
    expect(reportQueries).toBe(2);
    // Complete, it is kept: asked again, it costs nothing.
    const kept = await ask<TrafficReport>(alice, 'traffic', query);
    expect(kept.scope).toMatchObject({ complete: true, cloudflare_queries: 0 });
    expect(kept.totals).toEqual(whole.totals);
    expect(graphqlCalls(ctx, twelve.account.tokenValue)).toBe(4);
  });

  it('one reading for asks at once and asks meanwhile: one set of queries', async () => {
    passing = 1;
    const query = { account_id: twelve.account.account_id, range: '7d' };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => ask<SecurityReport>(alice, 'security', query)),
    );
    for (const answer of answers) expect(answer.scope.complete).toBe(false);
    // The page asking again while the report is partial starts no reading of its own.
    await ask<SecurityReport>(alice, 'security', query);
    release();
    const whole = await askUntil<SecurityReport>(alice, 'security', query, (a) => a.scope.complete);
    expect(whole.scope.zones_read).toBe(12);
    expect(reportQueries).toBe(2);
    // The settings were kept an hour by the test before: only the two report queries were sent.
    expect(graphqlCalls(ctx, twelve.account.tokenValue)).toBe(2);
  });

  it("another person's report reads only their zones, partial or whole", async () => {
    passing = 0;
    const first = await ask<SecurityReport>(bob, 'security', { range: '24h' });
    expect(first.scope).toMatchObject({ complete: false, zone_count: 3, zones_read: 0 });
    expect(first.top_source_ips).toEqual([]);
    release();
    const whole = await askUntil<SecurityReport>(bob, 'security', { range: '24h' }, (a) => a.scope.complete);
    expect(whole.scope).toMatchObject({ zone_count: 3, zones_read: 3 });
    expect(whole.top_rules.every((rule) => bobs.zoneIds.includes(rule.zone_id))).toBe(true);
    expect(graphqlCalls(ctx, twelve.account.tokenValue)).toBe(0);
    expect(graphqlCalls(ctx, bobs.account.tokenValue)).toBe(2);
    // Alice's account is still not found for Bob while readings go on.
    const refused = await ctx.app.inject({
      method: 'GET',
      url: '/api/reports/security',
      query: { account_id: twelve.account.account_id },
      headers: bob.headers,
    });
    expect(refused.statusCode).toBe(404);
  });

  it('at most four readings of one person at once: a fifth report waits its turn with a clear 429', async () => {
    passing = 0;
    // None of them read yet (Bob's security report of 24 hours is kept from the test before).
    const asks = [
      ['security', '7d'],
      ['security', '30d'],
      ['traffic', '24h'],
      ['traffic', '30d'],
    ] as const;
    for (const [kind, range] of asks) {
      const answer = await ask<TrafficReport>(bob, kind, { range });
      expect(answer.scope.complete).toBe(false);
    }
    const fifth = await ctx.app.inject({
      method: 'GET',
      url: '/api/reports/errors',
      query: { range: '7d' },
      headers: bob.headers,
    });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json<ErrorBody>().message).toBe(
      '4 of your reports are still being read from Cloudflare: try again in a moment.',
    );
    // Another person is not held back by Bob's readings.
    const alices = await ask<TrafficReport>(alice, 'errors', {
      account_id: twelve.account.account_id,
      range: '24h',
    });
    expect(alices.scope.zone_count).toBe(12);
    release();
    for (const [kind, range] of asks)
      await askUntil<TrafficReport>(bob, kind, { range }, (answer) => answer.scope.complete);
    const later = await askUntil<TrafficReport>(bob, 'errors', { range: '7d' }, (a) => a.scope.complete);
    expect(later.scope.zones_read).toBe(3);
  });

  it('a failure after the first answer is the next ask’s clear error, not a partial report forever', async () => {
    passing = 0;
    const query = { account_id: twelve.account.account_id, range: '30d' };
    const first = await ask<TrafficReport>(alice, 'traffic', query);
    expect(first.scope.complete).toBe(false);
    ctx.sandbox.control.setTokenStatus(twelve.account.tokenValue, 'disabled');
    try {
      release();
      let response = await ctx.app.inject({
        method: 'GET',
        url: '/api/reports/traffic',
        query,
        headers: alice.headers,
      });
      for (let attempt = 0; response.statusCode === 200 && attempt < 100; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        response = await ctx.app.inject({
          method: 'GET',
          url: '/api/reports/traffic',
          query,
          headers: alice.headers,
        });
      }
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.json<ErrorBody>().message).toMatch(/Cloudflare/);
    } finally {
      ctx.sandbox.control.setTokenStatus(twelve.account.tokenValue, 'active');
    }
  });
});
