import type { ActivityReport, AuditPage, ErrorBody, PerformanceReport } from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { addMirroredZone } from '../../test/zone';

/*
 * The two reports of Guardian's own data: Activity (the audit trail as charts) and Performance (the
 * zones' response times from Cloudflare's analytics, the person's jobs and their tokens' budgets).
 */

const HOUR = 3_600_000;
const PATIENT = { cloudflare: { timeoutMs: 30_000 } as Config['cloudflare'] };

function get(ctx: CloudflareTestContext, user: TestUser, kind: string, query: Record<string, string> = {}) {
  return ctx.app.inject({ method: 'GET', url: `/api/reports/${kind}`, query, headers: user.headers });
}

/** A change in the trail, `hoursAgo` before now. */
async function trail(
  ctx: CloudflareTestContext,
  user: { id: number | null; email: string },
  action: string,
  outcome: 'success' | 'refused' | 'failed',
  hoursAgo: number,
  accountId: string | null = null,
) {
  await ctx.db.query(
    `INSERT INTO audit_events (at, user_id, actor, address, action, request, account_id, zone_id, target, outcome, status, message, summary)
     VALUES ($1, $2, $3, '192.0.2.1', $4, 'POST /api/x', $5, NULL, '{}', $6, $7, NULL, '')`,
    [
      new Date(Date.now() - hoursAgo * HOUR),
      user.id,
      user.email,
      action,
      accountId,
      outcome,
      outcome === 'success' ? 200 : outcome === 'refused' ? 409 : 502,
    ],
  );
}

async function job(
  ctx: CloudflareTestContext,
  userId: number,
  kind: string,
  state: 'succeeded' | 'failed' | 'cancelled' | 'running',
  hoursAgo: number,
) {
  const at = new Date(Date.now() - hoursAgo * HOUR);
  await ctx.db.query(
    `INSERT INTO jobs (id, kind, user_id, state, created_at, finished_at)
     VALUES (gen_random_uuid(), $1, $2, $3, $4, $5)`,
    [kind, userId, state, at, state === 'running' ? null : at],
  );
}

/** GraphQL queries the sandbox received with this token. */
const graphqlCalls = (ctx: CloudflareTestContext, token: string) =>
  ctx.sandbox.control.callLog().filter((call) => call.path === '/graphql' && call.token === token).length;

describe('the Activity report (GET /api/reports/activity)', () => {
  let ctx: CloudflareTestContext;
  let dana: TestUser;
  let erin: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await createCloudflareTestContext({ config: PATIENT });
    dana = await ctx.createUser();
    erin = await ctx.createUser();
    admin = await ctx.createUser({ level: 0 });
    await trail(ctx, dana, 'banListItems.add', 'success', 1);
    await trail(ctx, dana, 'banListItems.add', 'success', 2);
    await trail(ctx, dana, 'banListItems.remove', 'success', 2);
    await trail(ctx, dana, 'banListItems.add', 'refused', 3);
    await trail(ctx, dana, 'auth.login', 'success', 5);
    await trail(ctx, dana, 'dnsRecords.update', 'failed', 6);
    await trail(ctx, dana, 'somethingNew.happen', 'success', 7);
    // Older than a day: in 7 days only.
    await trail(ctx, dana, 'zones.sync', 'success', 50);
    await trail(ctx, erin, 'accounts.create', 'success', 1);
    await trail(ctx, erin, 'accounts.create', 'refused', 1);
    await trail(ctx, { id: null, email: 'nobody@example.com' }, 'auth.login', 'refused', 1);
  });
  afterAll(() => ctx.close());

  it("counts one's own changes by kind and outcome, over time, with links to the same changes", async () => {
    const response = await get(ctx, dana, 'activity');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<ActivityReport>();
    expect(body).toMatchObject({ range: '24h', scope: 'mine', bucket: 'hour', tz: 'UTC' });
    expect(body.totals).toEqual({ success: 5, refused: 1, failed: 1 });
    expect(body.by_kind.map((row) => [row.kind, row.success, row.refused, row.failed])).toEqual([
      ['banListItems', 3, 1, 0],
      ['auth', 1, 0, 0],
      ['dnsRecords', 0, 0, 1],
      ['other', 1, 0, 0],
    ]);
    const items = body.by_kind[0]!;
    expect(items.label).toBe('Ban list items');
    expect(items.link).toEqual({
      path: '/dashboard/activity',
      filters: { from: body.since, to: body.until, action: 'banListItems.' },
    });
    // `other` is no prefix: its link shows the whole range.
    expect(body.by_kind[3]!.link.filters.action).toBeUndefined();
    // Only the person, never another's changes.
    expect(body.by_person).toEqual([
      expect.objectContaining({ user_id: dana.id, email: dana.email, success: 5, refused: 1, failed: 1 }),
    ]);
    expect(body.by_person_more).toBe(0);
    // Hour buckets, oldest first, adding up to the totals.
    expect(body.over_time.every((point) => point.time.endsWith(':00:00.000Z'))).toBe(true);
    expect([...body.over_time].map((p) => p.time)).toEqual(body.over_time.map((p) => p.time).sort());
    expect(body.over_time.reduce((sum, point) => sum + point.success, 0)).toBe(5);

    // The link's filters, given to the Activity table's endpoint, show the same changes.
    const table = await ctx.app.inject({
      method: 'GET',
      url: '/api/audit',
      query: { ...items.link.filters, limit: '200' },
      headers: dana.headers,
    });
    expect(table.statusCode, table.body).toBe(200);
    expect(table.json<AuditPage>().events).toHaveLength(4);

    const week = (await get(ctx, dana, 'activity', { range: '7d' })).json<ActivityReport>();
    expect(week.bucket).toBe('day');
    expect(week.totals.success).toBe(6);
    expect(week.by_kind.find((row) => row.kind === 'zones')).toMatchObject({ success: 1 });
  });

  it("buckets days at the asked time zone's midnights, and refuses an unknown zone", async () => {
    const response = await get(ctx, dana, 'activity', { range: '7d', tz: 'Asia/Kolkata' });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<ActivityReport>();
    expect(body.tz).toBe('Asia/Kolkata');
    expect(body.over_time.length).toBeGreaterThan(0);
    // Kolkata is 5:30 ahead of UTC all year: its midnight is 18:30 UTC.
    expect(body.over_time.every((point) => point.time.endsWith('T18:30:00.000Z'))).toBe(true);

    for (const tz of ['Mars/Olympus_Mons', "UTC'; DROP TABLE users; --", 'x'.repeat(100)]) {
      const refused = await get(ctx, dana, 'activity', { tz });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<ErrorBody>().message).toMatch(/time zone/i);
    }
  });

  it("everyone's activity is for administrators: by person, the unknown e-mails' sign-ins apart", async () => {
    const refused = await get(ctx, dana, 'activity', { scope: 'everyone' });
    expect(refused.statusCode).toBe(403);

    const response = await get(ctx, admin, 'activity', { scope: 'everyone' });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<ActivityReport>();
    expect(body.link.path).toBe('/admin/activity');
    const people = new Map(body.by_person.map((person) => [person.user_id, person]));
    expect(people.get(dana.id)).toMatchObject({ success: 5, refused: 1, failed: 1 });
    expect(people.get(erin.id)).toMatchObject({ success: 1, refused: 1 });
    expect(people.get(erin.id)!.link!.filters.actor).toBe(erin.email);
    expect(people.get(null)).toMatchObject({ email: null, refused: 1, link: null });
    // The most first.
    expect(body.by_person[0]!.user_id).toBe(dana.id);
    expect(body.totals.success).toBeGreaterThanOrEqual(6);

    // The admin's own report is still only theirs.
    const own = (await get(ctx, admin, 'activity')).json<ActivityReport>();
    expect(own.by_person.every((person) => person.user_id === admin.id)).toBe(true);
  });

  it("an account filter: one's own account only (another's is not found), the links carry it", async () => {
    const account = await ctx.addAccount(erin);
    await trail(ctx, erin, 'banLists.create', 'success', 1, account.account_id);
    const response = await get(ctx, erin, 'activity', { account_id: account.account_id });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<ActivityReport>();
    expect(body.link.filters.account_id).toBe(account.account_id);
    const table = await ctx.app.inject({
      method: 'GET',
      url: '/api/audit',
      query: { ...body.link.filters, limit: '200' },
      headers: erin.headers,
    });
    const total = body.totals.success + body.totals.refused + body.totals.failed;
    expect(total).toBeGreaterThanOrEqual(1);
    expect(table.json<AuditPage>().events).toHaveLength(total);
    expect(body.by_kind.find((row) => row.kind === 'banLists')).toMatchObject({ success: 1 });
    expect(body.by_kind.find((row) => row.kind === 'accounts' && row.refused > 0)).toBeUndefined();

    expect((await get(ctx, dana, 'activity', { account_id: account.account_id })).statusCode).toBe(404);
    const everyone = await get(ctx, admin, 'activity', { scope: 'everyone', account_id: account.account_id });
    expect(everyone.statusCode, everyone.body).toBe(200);
    expect(everyone.json<ActivityReport>().totals).toEqual(body.totals);
    const unknown = await get(ctx, admin, 'activity', { scope: 'everyone', account_id: 'f'.repeat(32) });
    expect(unknown.statusCode).toBe(404);
    expect((await get(ctx, dana, 'activity', { account_id: 'not-an-id' })).statusCode).toBe(400);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/reports/activity' })).statusCode).toBe(401);
  });
});

describe('the Performance report (GET /api/reports/performance)', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let bob: TestUser;
  let enterprise: Awaited<ReturnType<CloudflareTestContext['addAccount']>>;
  let pro: Awaited<ReturnType<CloudflareTestContext['addAccount']>>;
  const zoneIds: string[] = [];
  // The now that ends every report range of these tests (reportClock): set where two reads are compared.
  let reportNow = Date.now();
  let proZone = '';

  beforeAll(async () => {
    ctx = await createCloudflareTestContext({ config: PATIENT, deps: { reportClock: () => reportNow } });
    alice = await ctx.createUser();
    bob = await ctx.createUser();
    enterprise = await ctx.addAccount(alice, { plan: 'enterprise' });
    pro = await ctx.addAccount(alice, { plan: 'pro' });
    zoneIds.push(
      (await addMirroredZone(ctx, enterprise, 'perf-a.example')).id,
      (await addMirroredZone(ctx, enterprise, 'perf-b.example')).id,
    );
    proZone = (await addMirroredZone(ctx, pro, 'perf-pro.example')).id;
    await job(ctx, alice.id, 'ban-list-sync', 'succeeded', 1);
    await job(ctx, alice.id, 'ban-list-sync', 'succeeded', 2);
    await job(ctx, alice.id, 'ban-everywhere', 'failed', 3);
    await job(ctx, alice.id, 'ban-everywhere', 'running', 1);
    await job(ctx, alice.id, 'zones-sync', 'failed', 72);
    await job(ctx, bob.id, 'zones-sync', 'failed', 1);
  });
  afterAll(() => ctx.close());

  it("edge and origin times and the cached share of the person's zones, 10 zones a query", async () => {
    // Both reads below end their range at the same now, the end of the last whole hour (no hour cut
    // part-way at either end of the range): the account's and one zone's figures compared.
    reportNow = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 1;
    ctx.sandbox.control.resetCalls();
    const response = await get(ctx, alice, 'performance', { account_id: enterprise.account_id });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<PerformanceReport>();
    expect(body.zones_unavailable).toBeNull();
    const zones = body.zones!;
    expect(zones.scope).toMatchObject({ zone_count: 2, bucket: 'hour', cloudflare_queries: 2 });
    expect(graphqlCalls(ctx, enterprise.tokenValue)).toBe(2);
    const { totals } = zones;
    expect(totals.requests).toBeGreaterThan(1000);
    expect(totals.cached_requests).toBeGreaterThan(0);
    expect(totals.cached_requests).toBeLessThan(totals.requests);
    const edge = totals.edge_ttfb_ms;
    expect(edge.p50).toBeGreaterThan(0);
    expect(edge.p95!).toBeGreaterThanOrEqual(edge.p50!);
    expect(edge.p99!).toBeGreaterThanOrEqual(edge.p95!);
    // The origin's times only count requests that reached it: slower than the edge's first byte.
    expect(totals.origin_ms.p50).toBeGreaterThan(edge.p50!);
    expect(zones.over_time.reduce((sum, point) => sum + point.requests, 0)).toBe(totals.requests);
    expect(zones.over_time.reduce((sum, point) => sum + point.cached_requests, 0)).toBe(
      totals.cached_requests,
    );
    expect(zones.by_zone.map((row) => row.domain).sort()).toEqual(['perf-a.example', 'perf-b.example']);
    expect(zones.by_zone.reduce((sum, row) => sum + row.requests, 0)).toBe(totals.requests);
    // Two zones merged: the percentiles are estimates, and say so.
    expect(zones.percentiles_estimated).toBe(true);

    // One zone in one window: Cloudflare's own percentiles, as the zone's row above gave them.
    const one = (await get(ctx, alice, 'performance', { zone_id: zoneIds[0]! })).json<PerformanceReport>();
    expect(one.zones!.percentiles_estimated).toBe(false);
    const row = zones.by_zone.find((zone) => zone.zone_id === zoneIds[0])!;
    expect(one.zones!.totals.edge_ttfb_ms).toEqual(row.edge_ttfb_ms);
    expect(one.zones!.totals.requests).toBe(row.requests);

    // Kept a minute: asked again, Cloudflare is not.
    ctx.sandbox.control.resetCalls();
    const again = (
      await get(ctx, alice, 'performance', { account_id: enterprise.account_id })
    ).json<PerformanceReport>();
    expect(again.zones!.scope.cloudflare_queries).toBe(0);
    expect(graphqlCalls(ctx, enterprise.tokenValue)).toBe(0);
  });

  it("the person's jobs that ended in the range, by outcome and kind; another person's never", async () => {
    const body = (await get(ctx, alice, 'performance')).json<PerformanceReport>();
    expect(body.jobs.totals).toEqual({ succeeded: 2, failed: 1, cancelled: 0 });
    expect(body.jobs.by_kind).toEqual([
      { kind: 'ban-list-sync', label: 'Update from Cloudflare', succeeded: 2, failed: 0, cancelled: 0 },
      { kind: 'ban-everywhere', label: 'Ban everywhere', succeeded: 0, failed: 1, cancelled: 0 },
    ]);
    expect(body.jobs.over_time.reduce((sum, point) => sum + point.succeeded + point.failed, 0)).toBe(3);
    expect(body.jobs.over_time.every((point) => point.time.endsWith(':00:00.000Z'))).toBe(true);

    const week = await get(ctx, alice, 'performance', { range: '7d', account_id: enterprise.account_id });
    expect(week.json<PerformanceReport>().jobs.totals).toEqual({ succeeded: 0, failed: 0, cancelled: 0 });
  });

  it("each account token's use of Guardian's REST and analytics budgets, as the database counts it", async () => {
    const body = (await get(ctx, alice, 'performance', { range: '7d' })).json<PerformanceReport>();
    expect(body.budgets.map((row) => row.account_id).sort()).toEqual(
      [enterprise.account_id, pro.account_id].sort(),
    );
    const used = body.budgets.find((row) => row.account_id === enterprise.account_id)!;
    // The queries of this file's reports spent both budgets (an analytics query is a REST call too).
    // Adding the account spent more REST calls, but they may be older than the 5-minute window by now.
    expect(used.analytics.used).toBeGreaterThanOrEqual(2);
    expect(used.rest.used).toBeGreaterThanOrEqual(used.analytics.used);
    expect(used.rest).toMatchObject({ limit: 100_000, window_seconds: 300 });
    expect(used.analytics).toMatchObject({ limit: 280, window_seconds: 300 });
    expect(used.held_until).toBeNull();
    expect(body.budgets_more).toBe(0);
    const [row] = await ctx.db.query<{ sum: number }>(
      `SELECT coalesce(sum(requests), 0)::int AS sum FROM cloudflare_budget_seconds WHERE token_key LIKE '%:analytics'
         AND second > floor(extract(epoch FROM clock_timestamp())) - 300`,
    );
    const analytics = body.budgets.reduce((sum, budget) => sum + budget.analytics.used, 0);
    expect(analytics).toBe(row!.sum);
  });

  it("a range the plan does not keep leaves the zones' part out with the reason; the rest still answers", async () => {
    const response = await get(ctx, alice, 'performance', { zone_id: proZone, range: '30d' });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<PerformanceReport>();
    expect(body.zones).toBeNull();
    expect(body.zones_unavailable).toMatch(/keeps the request analytics of perf-pro.example for 8 days/);
    expect(body.bucket).toBe('day');
    expect(body.budgets.map((row) => row.account_id)).toEqual([pro.account_id]);
  });

  it("never reads another person's zones or budgets: their zone or account is not found", async () => {
    const queries: Record<string, string>[] = [
      { zone_id: zoneIds[0]! },
      { account_id: enterprise.account_id },
    ];
    for (const query of queries) {
      const response = await get(ctx, bob, 'performance', query);
      expect(response.statusCode).toBe(404);
    }
    const own = (await get(ctx, bob, 'performance')).json<PerformanceReport>();
    expect(own.zones!.scope.zone_count).toBe(0);
    expect(own.zones!.totals.requests).toBe(0);
    expect(own.zones!.totals.edge_ttfb_ms).toEqual({ avg: null, p50: null, p95: null, p99: null });
    expect(own.budgets).toEqual([]);
    expect(own.jobs.totals).toEqual({ succeeded: 0, failed: 1, cancelled: 0 });
    expect((await get(ctx, bob, 'performance', { range: '1y' })).statusCode).toBe(400);
  });
});
