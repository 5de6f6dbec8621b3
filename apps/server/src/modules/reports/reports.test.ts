import {
  alertEndpoints,
  apiKeyEndpoints,
  serverApiEndpoints,
  serverEndpoints,
  type ErrorBody,
  type ErrorsReport,
  type OverviewReport,
  type SecurityReport,
  type TrafficReport,
} from '@guardian/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../config';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { requestTo } from '../../test/request';
import { call } from '../../test/security';
import { accountWithZones } from '../../test/zone';

type Account = Awaited<ReturnType<CloudflareTestContext['addAccount']>>;

function report(
  ctx: CloudflareTestContext,
  user: TestUser,
  kind: string,
  query: Record<string, string> = {},
) {
  return ctx.app.inject({ method: 'GET', url: `/api/reports/${kind}`, query, headers: user.headers });
}

/** GraphQL queries the sandbox received with this token. */
const graphqlCalls = (ctx: CloudflareTestContext, token: string) =>
  ctx.sandbox.control.callLog().filter((call) => call.path === '/graphql' && call.token === token).length;

/** Long enough that a loaded machine never retries a query: the tests count the queries sent. */
const PATIENT = { cloudflare: { timeoutMs: 30_000 } as Config['cloudflare'] };

const ATTACKER_LISTED = '198.51.100.77';
const ATTACKER_NEW = '192.0.2.200';

describe('reports from Cloudflare analytics (GET /api/reports/*)', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let bob: TestUser;
  let enterprise: { account: Account; zoneIds: string[] };
  let pro: { account: Account; zoneIds: string[] };
  let attackersListId: string;

  beforeAll(async () => {
    ctx = await createCloudflareTestContext({ config: PATIENT });
    alice = await ctx.createUser();
    bob = await ctx.createUser();
    enterprise = await accountWithZones(ctx, alice, 'enterprise', 2, 'report');
    pro = await accountWithZones(ctx, alice, 'pro', 1, 'report');
    // One attacker is already in one of Alice's lists, the other in none.
    const list = ctx.sandbox.control.addList(enterprise.account.account_id, {
      name: 'attackers',
      kind: 'ip',
    });
    attackersListId = list.id;
    ctx.sandbox.control.seedListItems(enterprise.account.account_id, list.id, [
      { ip: ATTACKER_LISTED, comment: 'seen before' },
    ]);
    const update = await ctx.app.inject({
      method: 'POST',
      url: '/api/cloudflare/banlists/update',
      headers: alice.headers,
    });
    expect(update.statusCode).toBe(200);
    const sync = await ctx.app.inject({
      method: 'POST',
      url: `/api/cloudflare/banlists/${list.id}/sync`,
      headers: alice.headers,
    });
    expect(sync.statusCode).toBe(200);
    ctx.sandbox.control.addSecurityEvents([
      { zoneId: enterprise.zoneIds[0]!, clientIP: ATTACKER_LISTED, action: 'block', count: 10_000 },
      { zoneId: enterprise.zoneIds[1]!, clientIP: ATTACKER_LISTED, action: 'block', count: 10_000 },
      {
        zoneId: enterprise.zoneIds[0]!,
        clientIP: ATTACKER_NEW,
        action: 'managed_challenge',
        source: 'securitylevel',
        count: 9_000,
      },
    ]);
  });
  afterAll(() => ctx.close());
  beforeEach(() => ctx.sandbox.control.resetCalls());

  it("the security report: events by action, source and top tables, each source IP marked by the person's lists", async () => {
    const response = await report(ctx, alice, 'security', { account_id: enterprise.account.account_id });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<SecurityReport>();
    expect(body.scope).toMatchObject({ range: '24h', bucket: 'hour', zone_count: 2, left_out: [] });
    // One settings query and one report query: two zones fit one query each.
    expect(body.scope.cloudflare_queries).toBe(2);
    expect(graphqlCalls(ctx, enterprise.account.tokenValue)).toBe(2);

    expect(body.top_source_ips[0]).toMatchObject({
      ip: ATTACKER_LISTED,
      listed_in: [{ account_id: enterprise.account.account_id, list_name: 'attackers' }],
    });
    expect(body.top_source_ips[0]!.count).toBeGreaterThanOrEqual(20_000);
    const unlisted = body.top_source_ips.find((row) => row.ip === ATTACKER_NEW);
    expect(unlisted).toMatchObject({ listed_in: [] });
    expect(body.by_action.find((row) => row.action === 'block')!.count).toBeGreaterThanOrEqual(20_000);
    expect(body.by_source.map((row) => row.source)).toContain('securitylevel');
    expect(body.total).toBe(body.by_action.reduce((sum, row) => sum + row.count, 0));
    expect(body.over_time.length).toBeGreaterThan(0);
    expect(
      body.over_time.every((point) => Date.parse(point.time) >= Date.parse(body.scope.since) - 3_600_000),
    ).toBe(true);
    expect(body.top_countries.length).toBeGreaterThan(0);
    expect(body.top_rules.every((rule) => enterprise.zoneIds.includes(rule.zone_id))).toBe(true);
    expect(body.recent_events.length).toBeGreaterThan(0);
    expect(body.recent_events.length).toBeLessThanOrEqual(50);
    expect(body.recent_events[0]).toMatchObject({ sampled: false, sample_interval: 1 });
    const times = body.recent_events.map((event) => event.time);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('a kept security answer reads the lists again: an attacker banned since shows as listed at once', async () => {
    const query = { account_id: enterprise.account.account_id, range: '7d' };
    const first = await report(ctx, alice, 'security', query);
    expect(first.statusCode, first.body).toBe(200);
    const before = first.json<SecurityReport>().top_source_ips.find((row) => row.ip === ATTACKER_NEW);
    expect(before).toMatchObject({ listed_in: [] });

    const add = await ctx.app.inject({
      method: 'POST',
      url: `/api/cloudflare/banlists/${attackersListId}/items`,
      headers: alice.headers,
      payload: { ip: ATTACKER_NEW, comment: 'From the security report' },
    });
    expect(add.statusCode, add.body).toBe(201);

    const again = await report(ctx, alice, 'security', query);
    const body = again.json<SecurityReport>();
    // Cloudflare was not asked again; the lists were.
    expect(body.scope.cloudflare_queries).toBe(0);
    expect(body.top_source_ips.find((row) => row.ip === ATTACKER_NEW)).toMatchObject({
      listed_in: [
        { account_id: enterprise.account.account_id, list_id: attackersListId, list_name: 'attackers' },
      ],
    });
    // Unlisted again for the tests after this one (the overview counts the unlisted attackers).
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/cloudflare/banlists/${attackersListId}/items/${add.json<{ id: number }>().id}`,
      headers: alice.headers,
    });
    expect(removed.statusCode, removed.body).toBe(204);
  });

  it('keeps an answer for a short while: the same report again asks Cloudflare nothing', async () => {
    const first = await report(ctx, alice, 'errors', { account_id: enterprise.account.account_id });
    expect(first.statusCode, first.body).toBe(200);
    const again = await report(ctx, alice, 'errors', { account_id: enterprise.account.account_id });
    expect(again.json<ErrorsReport>().scope.cloudflare_queries).toBe(0);
    expect(again.json<ErrorsReport>().totals).toEqual(first.json<ErrorsReport>().totals);
    // The settings were kept too: only the first call asked Cloudflare, and only its report query.
    expect(graphqlCalls(ctx, enterprise.account.tokenValue)).toBe(1);
  });

  it('asks Cloudflare once for the same report asked ten times at once, before any answer is kept', async () => {
    const query = { account_id: enterprise.account.account_id, range: '7d' };
    const before = graphqlCalls(ctx, enterprise.account.tokenValue);
    const answers = await Promise.all(Array.from({ length: 10 }, () => report(ctx, alice, 'traffic', query)));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const sent = answers.map((answer) => answer.json<TrafficReport>().scope.cloudflare_queries);
    // One of them read the report; the other nine shared its reading and say they sent nothing.
    expect(sent.filter((queries) => queries > 0)).toHaveLength(1);
    expect(graphqlCalls(ctx, enterprise.account.tokenValue) - before).toBe(Math.max(...sent));
  });

  it('the traffic and errors reports: requests over time, cached share, status classes, errors by status', async () => {
    const traffic = await report(ctx, alice, 'traffic', { zone_id: enterprise.zoneIds[0]!, range: '7d' });
    expect(traffic.statusCode, traffic.body).toBe(200);
    const body = traffic.json<TrafficReport>();
    expect(body.scope).toMatchObject({ range: '7d', zone_count: 1 });
    expect(body.totals.requests).toBeGreaterThan(0);
    expect(body.totals.cached_requests).toBeGreaterThan(0);
    expect(body.totals.cached_requests).toBeLessThan(body.totals.requests);
    expect(body.over_time.reduce((sum, point) => sum + point.requests, 0)).toBe(body.totals.requests);
    expect(body.by_status_class.map((row) => row.status_class)).toEqual(
      expect.arrayContaining(['2xx', '4xx']),
    );
    expect(body.by_cache_status.find((row) => row.cache_status === 'hit')).toMatchObject({ cached: true });
    expect(body.top_paths.length).toBeLessThanOrEqual(20);

    const errors = await report(ctx, alice, 'errors', { zone_id: enterprise.zoneIds[0]!, range: '30d' });
    expect(errors.statusCode, errors.body).toBe(200);
    const errorsBody = errors.json<ErrorsReport>();
    expect(errorsBody.scope.bucket).toBe('day');
    expect(errorsBody.totals.client_errors).toBeGreaterThan(0);
    expect(errorsBody.totals.server_errors).toBe(
      errorsBody.totals.origin_errors + errorsBody.totals.edge_errors,
    );
    expect(errorsBody.by_status.every((row) => row.status >= 400)).toBe(true);
    expect(errorsBody.totals.requests).toBeGreaterThan(errorsBody.totals.client_errors);
  });

  it('traffic and errors by zone: each of the zones named, its figures adding up to the totals, no query more', async () => {
    const domains = new Map(
      ctx.sandbox.control.getZones(enterprise.account.account_id).map((zone) => [zone.id, zone.name]),
    );
    const query = { account_id: enterprise.account.account_id };
    const traffic = await report(ctx, alice, 'traffic', query);
    expect(traffic.statusCode, traffic.body).toBe(200);
    const body = traffic.json<TrafficReport>();
    // Both zones in one query (zoneTag_in), as before the report had its by-zone part.
    expect(graphqlCalls(ctx, enterprise.account.tokenValue)).toBe(body.scope.cloudflare_queries);
    expect(body.scope.cloudflare_queries).toBeLessThanOrEqual(2);
    expect(body.by_zone.map((row) => row.zone_id).sort()).toEqual([...enterprise.zoneIds].sort());
    expect(body.by_zone_more).toBe(0);
    for (const row of body.by_zone) {
      expect(row.domain).toBe(domains.get(row.zone_id));
      expect(row.requests).toBeGreaterThan(0);
      expect(row.cached_requests).toBeLessThanOrEqual(row.requests);
    }
    expect(body.by_zone[0]!.requests).toBeGreaterThanOrEqual(body.by_zone[1]!.requests);
    for (const field of ['requests', 'cached_requests', 'bytes', 'visits'] as const)
      expect(body.by_zone.reduce((sum, row) => sum + row[field], 0)).toBe(body.totals[field]);

    const errors = await report(ctx, alice, 'errors', query);
    expect(errors.statusCode, errors.body).toBe(200);
    const errorsBody = errors.json<ErrorsReport>();
    expect(errorsBody.by_zone.map((row) => row.domain).sort()).toEqual(
      enterprise.zoneIds.map((id) => domains.get(id)).sort(),
    );
    for (const field of [
      'requests',
      'client_errors',
      'server_errors',
      'origin_errors',
      'edge_errors',
    ] as const)
      expect(errorsBody.by_zone.reduce((sum, row) => sum + row[field], 0)).toBe(errorsBody.totals[field]);
    const errorsOf = (row: ErrorsReport['by_zone'][number]) => row.client_errors + row.server_errors;
    expect(errorsOf(errorsBody.by_zone[0]!)).toBeGreaterThanOrEqual(errorsOf(errorsBody.by_zone[1]!));
  });

  it("refuses a range the zone's plan does not keep, and leaves such zones out of a wider report", async () => {
    const refused = await report(ctx, alice, 'security', { zone_id: pro.zoneIds[0]!, range: '7d' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ErrorBody>().message).toMatch(/keeps the security event analytics of .* for 3 days/);

    const all = await report(ctx, alice, 'security', { range: '7d' });
    expect(all.statusCode, all.body).toBe(200);
    const scope = all.json<SecurityReport>().scope;
    expect(scope.zone_count).toBe(2);
    expect(scope.left_out).toEqual([
      expect.objectContaining({ zone_id: pro.zoneIds[0], reason: 'range_beyond_retention' }),
    ]);
    // The pro zone's report query was never sent.
    expect(graphqlCalls(ctx, pro.account.tokenValue)).toBeLessThanOrEqual(1);

    const bad = await report(ctx, alice, 'security', { range: '90d' });
    expect(bad.statusCode).toBe(400);
  });

  it("never reads another person's zones: their zone or account is not found, their report is their own", async () => {
    const queries: Record<string, string>[] = [
      { zone_id: enterprise.zoneIds[0]! },
      { account_id: enterprise.account.account_id },
    ];
    for (const query of queries) {
      const response = await report(ctx, bob, 'security', query);
      expect(response.statusCode).toBe(404);
    }
    const own = await report(ctx, bob, 'security');
    expect(own.statusCode, own.body).toBe(200);
    const body = own.json<SecurityReport>();
    expect(body.scope.zone_count).toBe(0);
    expect(body.top_source_ips).toEqual([]);
    expect(graphqlCalls(ctx, enterprise.account.tokenValue)).toBe(0);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/reports/security' })).statusCode).toBe(401);
  });

  it('N zones cost ceil(N/10) queries: 12 zones, two a report', async () => {
    const carol = await ctx.createUser();
    const { account } = await accountWithZones(ctx, carol, 'enterprise', 12, 'report');
    const first = await report(ctx, carol, 'traffic');
    expect(first.statusCode, first.body).toBe(200);
    // Two settings queries (kept an hour) and two report queries.
    expect(first.json<TrafficReport>().scope).toMatchObject({ zone_count: 12, cloudflare_queries: 4 });
    // Each of the 12 zones by name from the same two queries.
    expect(first.json<TrafficReport>().by_zone).toHaveLength(12);
    expect(graphqlCalls(ctx, account.tokenValue)).toBe(4);
    ctx.sandbox.control.resetCalls();
    const second = await report(ctx, carol, 'security');
    expect(second.json<SecurityReport>().scope.cloudflare_queries).toBe(2);
    expect(graphqlCalls(ctx, account.tokenValue)).toBe(2);
  });

  it('the overview: live tiles, and plain words where there is no source', async () => {
    const overviewOf = async (user: TestUser) => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/reports/overview',
        headers: user.headers,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<OverviewReport>();
    };
    const before = await overviewOf(alice);
    expect(before.active_servers).toEqual({
      value: 0,
      unit: 'count',
      detail: 'Servers that reported in the last 24 hours',
      unavailable: null,
    });

    // A server that reports in counts at once, and a new API key raises an alert: neither waits for
    // the minute the analytics are kept.
    const group = await call(ctx, alice, serverEndpoints.groupCreate, {
      payload: { name: 'Web hosts', list_ids: [attackersListId] },
    });
    const server = await call(ctx, alice, serverEndpoints.create, {
      payload: { name: 'web-1', group_id: group.json<{ id: number }>().id, integration: 'fail2ban' },
    });
    const beat = await ctx.app.inject({
      ...requestTo(serverApiEndpoints.heartbeat, { payload: {} }),
      headers: { authorization: `Bearer ${server.json<{ key: string }>().key}` },
    });
    expect(beat.statusCode, beat.body).toBe(200);
    await call(ctx, alice, apiKeyEndpoints.create, { payload: { name: 'Overview', access: 'read' } });
    const open = (await call(ctx, alice, alertEndpoints.summary)).json<{ open: number }>().open;
    expect(open).toBeGreaterThan(before.security_alerts.value ?? 0);

    const body = await overviewOf(alice);
    expect(body.active_servers.value).toBe(1);
    expect(body.security_alerts).toMatchObject({ value: open, unavailable: null });
    // The unlisted attacker is among the top sources; the listed one is not counted.
    const [, unlisted] = /; (\d+) of the \d+ top attacking addresses/.exec(body.security_alerts.detail) ?? [];
    expect(Number(unlisted)).toBeGreaterThanOrEqual(1);
    expect(body).not.toHaveProperty('protected_zones');
    expect(body.blocked_threats.unavailable).toBeNull();
    expect(body.blocked_threats.value).toBeGreaterThanOrEqual(29_000);
    // The unlisted attacker is among the top sources; the listed one is not counted.
    expect(body.system_health.checks.map((check) => check.name)).toEqual([
      'Account API tokens valid',
      'Cloudflare reachable',
      'Jobs succeeding',
    ]);
    expect(body.system_health.value).toBe(
      Math.round((body.system_health.checks.filter((c) => c.passed).length / 3) * 1000) / 10,
    );

    const bobBody = await overviewOf(bob);
    expect(bobBody.active_servers.value).toBe(0);
    expect(bobBody.security_alerts.detail).toBe('Open alerts');
    expect(bobBody.blocked_threats).toMatchObject({ value: null });
    expect(bobBody.blocked_threats.unavailable).toContain('No zones yet');
  });
});

/** Cloudflare answers many GraphQL refusals with HTTP 200: the sandbox's refusals passed on so. */
const graphqlAs200: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const url = input instanceof Request ? input.url : String(input);
  if (!url.endsWith('/graphql') || response.ok) return response;
  return new Response(await response.text(), { status: 200, headers: response.headers });
};

describe('reports when Cloudflare refuses', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  beforeAll(async () => {
    ctx = await createCloudflareTestContext({
      config: {
        cloudflare: {
          ...PATIENT.cloudflare,
          fetch: graphqlAs200,
          analyticsRateLimit: { requests: 3, windowMs: 300_000 },
          // The sandbox's address is filled in by the test context.
        } as Config['cloudflare'],
      },
    });
    alice = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  it('a GraphQL error that comes with HTTP 200 is a clear error, not an empty report', async () => {
    const { account } = await accountWithZones(ctx, alice, 'enterprise', 1, 'report');
    ctx.sandbox.control.setTokenStatus(account.tokenValue, 'disabled');
    const response = await report(ctx, alice, 'traffic', { account_id: account.account_id });
    expect(response.statusCode).toBe(403);
    expect(response.json<ErrorBody>().message).toContain(
      "Cloudflare did not let this account's API token read",
    );
  });

  it("keeps to the token's budget of GraphQL queries: past it nothing is sent", async () => {
    const { account } = await accountWithZones(ctx, alice, 'enterprise', 12, 'report');
    // 12 zones: 2 settings queries and 2 report queries, one past the budget of 3.
    const response = await report(ctx, alice, 'security', { account_id: account.account_id });
    expect(response.statusCode).toBe(429);
    expect(response.json<ErrorBody>().message).toContain(
      "Guardian's own limit of 3 GraphQL Analytics queries to Cloudflare per 5 minutes",
    );
    // Never past the budget. A report query may start while another still holds a slot it reserved
    // (DatabaseRequestBudget hands a busy token's callers slots in batches), so the budget may be
    // spent with one query fewer sent, never one more.
    const sent = graphqlCalls(ctx, account.tokenValue);
    expect(sent).toBeLessThanOrEqual(3);
    expect(sent).toBeGreaterThanOrEqual(2);
  });
});
