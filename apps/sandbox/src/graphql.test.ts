import { afterEach, describe, expect, it } from 'vitest';
import { CONTROL_SECRET_HEADER, type Sandbox, type SandboxOptions } from './index';
import { ACCOUNT_A, ACCOUNT_B, ACCOUNT_FREE, seededSandbox } from './testing/harness';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface GraphqlError {
  message: string;
  path: string[] | null;
  extensions: { code?: string; timestamp: string };
}
interface GroupRow {
  count: number;
  dimensions: Record<string, string | number>;
  sum?: Record<string, number>;
  avg?: Record<string, number>;
  quantiles?: Record<string, number>;
}
type ZoneData = Record<string, unknown> & { zoneTag: string };
interface GraphqlAnswer {
  status: number;
  data: { viewer: { zones: ZoneData[] } } | null;
  errors: GraphqlError[] | null;
}

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox.close();
});

async function gql(
  query: string,
  variables: Record<string, unknown> = {},
  token: string | null = 'token-a',
): Promise<GraphqlAnswer> {
  const response = await sandbox.app.inject({
    method: 'POST',
    url: '/client/v4/graphql',
    headers: {
      'content-type': 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    payload: JSON.stringify({ query, variables }),
  });
  const body = JSON.parse(response.body) as Omit<GraphqlAnswer, 'status'>;
  return { status: response.statusCode, ...body };
}

/** The answer's first zone, failing with the errors when there is none. */
function firstZone(answer: GraphqlAnswer): ZoneData {
  expect(answer.errors, JSON.stringify(answer.errors)).toBeNull();
  expect(answer.status).toBe(200);
  return answer.data!.viewer.zones[0]!;
}

const rows = (zone: ZoneData, field: string) => zone[field] as GroupRow[];
const total = (list: GroupRow[]) => list.reduce((sum, row) => sum + row.count, 0);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Account A (enterprise) with two active zones; `shop.example` has an IP list of three sources, a block
 * rule naming it and a managed-challenge rule on /admin. Account B (pro) and FREE (free) one zone each.
 */
async function analyticsSandbox(options: SandboxOptions = {}) {
  sandbox = await seededSandbox(options);
  const { control } = sandbox;
  const shop = control.addZone(ACCOUNT_A, 'shop.example', { status: 'active' });
  const blog = control.addZone(ACCOUNT_A, 'blog.example', { status: 'active' });
  const pro = control.addZone(ACCOUNT_B, 'pro.example', { status: 'active' });
  const free = control.addZone(ACCOUNT_FREE, 'free.example', { status: 'active' });
  const list = control.addList(ACCOUNT_A, { name: 'bad_sources', kind: 'ip' });
  control.seedListItems(ACCOUNT_A, list.id, [
    { ip: '192.0.2.10', comment: 'scanner' },
    { ip: '192.0.2.11', comment: 'brute force' },
    { ip: '192.0.2.12', comment: 'scraper' },
  ]);
  const rules = await sandbox.app.inject({
    method: 'PUT',
    url: `/client/v4/zones/${shop.id}/rulesets/phases/http_request_firewall_custom/entrypoint`,
    headers: { authorization: 'Bearer token-a', 'content-type': 'application/json' },
    payload: JSON.stringify({
      rules: [
        { description: 'Block bad sources', expression: 'ip.src in $bad_sources', action: 'block' },
        {
          description: 'Challenge admin area',
          expression: 'http.request.uri.path contains "/admin"',
          action: 'managed_challenge',
        },
      ],
    }),
  });
  expect(rules.statusCode).toBe(200);
  return { shop, blog, pro, free, listedIps: ['192.0.2.10', '192.0.2.11', '192.0.2.12'] };
}

const GROUPS_BY = (
  dimensions: string,
) => `query ($zoneTags: [string!], $filter: ZoneFirewallEventsAdaptiveGroupsFilter_InputObject) {
  viewer {
    zones(filter: { zoneTag_in: $zoneTags }) {
      zoneTag
      firewallEventsAdaptiveGroups(limit: 10000, filter: $filter, orderBy: [count_DESC]) {
        count
        dimensions { ${dimensions} }
      }
    }
  }
}`;

describe('GraphQL Analytics: answers', () => {
  it('answers each dataset’s limits for the zone’s plan in the settings node', async () => {
    const { shop, free } = await analyticsSandbox();
    const query = `query ($zoneTag: string) { viewer { zones(filter: { zoneTag: $zoneTag }) { settings {
      firewallEventsAdaptive { enabled maxDuration maxNumberOfFields maxPageSize notOlderThan }
      firewallEventsAdaptiveGroups { enabled maxDuration notOlderThan availableFields }
      httpRequestsAdaptiveGroups { enabled maxDuration notOlderThan maxPageSize }
    } } } }`;
    const enterprise = firstZone(await gql(query, { zoneTag: shop.id }));
    expect(enterprise.settings).toEqual({
      firewallEventsAdaptive: {
        enabled: true,
        maxDuration: 259_200,
        maxNumberOfFields: 30,
        maxPageSize: 10_000,
        notOlderThan: 2_678_400,
      },
      firewallEventsAdaptiveGroups: {
        enabled: true,
        maxDuration: 2_678_400,
        notOlderThan: 2_678_400,
        availableFields: expect.arrayContaining(['count', 'dimensions_clientIP', 'dimensions_datetimeHour']),
      },
      httpRequestsAdaptiveGroups: {
        enabled: true,
        maxDuration: 2_678_400,
        notOlderThan: 2_678_400,
        maxPageSize: 10_000,
      },
    });
    const onFree = firstZone(await gql(query, { zoneTag: free.id }, 'token-free'));
    expect(onFree.settings).toMatchObject({
      firewallEventsAdaptive: { enabled: true, maxDuration: 86_400, notOlderThan: 86_400 },
      firewallEventsAdaptiveGroups: { enabled: false, availableFields: [] },
    });
  });

  it('groups security events by any dimension with the same totals, for several zones in one query', async () => {
    const { shop, blog, listedIps } = await analyticsSandbox();
    const now = Date.now();
    const filter = { datetime_geq: iso(now - DAY), datetime_leq: iso(now) };
    const zoneTags = [shop.id, blog.id];
    const byAction = await gql(GROUPS_BY('action source'), { zoneTags, filter });
    expect(byAction.errors).toBeNull();
    const zones = byAction.data!.viewer.zones;
    expect(zones.map((zone) => zone.zoneTag)).toEqual([...zoneTags].sort());
    const shopAnswer = zones.find((zone) => zone.zoneTag === shop.id)!;
    const shopRows = rows(shopAnswer, 'firewallEventsAdaptiveGroups');
    expect(total(shopRows)).toBeGreaterThan(0);
    // Ordered by count, descending.
    expect(shopRows.map((row) => row.count)).toEqual(
      [...shopRows.map((row) => row.count)].sort((a, b) => b - a),
    );
    const actions = new Set(shopRows.map((row) => row.dimensions.action));
    const sources = new Set(shopRows.map((row) => row.dimensions.source));
    expect(actions).toContain('block');
    expect(actions).toContain('managed_challenge');
    expect(sources).toContain('firewallCustom');
    expect(sources).toContain('firewallManaged');
    expect(sources).toContain('ratelimit');

    const byHour = await gql(GROUPS_BY('datetimeHour'), { zoneTags: [shop.id], filter });
    const hours = rows(firstZone(byHour), 'firewallEventsAdaptiveGroups');
    expect(total(hours)).toBe(total(shopRows));
    expect(hours.length).toBeGreaterThanOrEqual(24);
    for (const row of hours)
      expect(String(row.dimensions.datetimeHour)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00Z$/);

    // Sources already in the account's list, and others; the block rule's hits name it.
    const bySource = rows(
      firstZone(await gql(GROUPS_BY('clientIP ruleId description action'), { zoneTags: [shop.id], filter })),
      'firewallEventsAdaptiveGroups',
    );
    expect(total(bySource)).toBe(total(shopRows));
    const ips = new Set(bySource.map((row) => row.dimensions.clientIP));
    expect([...ips].some((ip) => listedIps.includes(String(ip)))).toBe(true);
    expect([...ips].some((ip) => !listedIps.includes(String(ip)))).toBe(true);
    const rule = sandbox.control.getRules(shop.id)[0]!;
    const ruleHits = bySource.filter((row) => row.dimensions.ruleId === rule.id);
    expect(ruleHits.length).toBeGreaterThan(0);
    for (const row of ruleHits) {
      expect(row.dimensions).toMatchObject({ description: 'Block bad sources', action: 'block' });
      expect(listedIps).toContain(row.dimensions.clientIP);
    }

    // Filters narrow the totals: action_in, and the same count by a clientIP filter.
    const blocked = rows(
      firstZone(
        await gql(GROUPS_BY('action'), { zoneTags: [shop.id], filter: { ...filter, action_in: ['block'] } }),
      ),
      'firewallEventsAdaptiveGroups',
    );
    expect(blocked.map((row) => row.dimensions.action)).toEqual(['block']);
    expect(blocked[0]!.count).toBe(total(shopRows.filter((row) => row.dimensions.action === 'block')));
    const oneIp = bySource[0]!.dimensions.clientIP;
    const fromOneIp = rows(
      firstZone(
        await gql(GROUPS_BY('clientIP'), { zoneTags: [shop.id], filter: { ...filter, clientIP: oneIp } }),
      ),
      'firewallEventsAdaptiveGroups',
    );
    expect(total(fromOneIp)).toBe(total(bySource.filter((row) => row.dimensions.clientIP === oneIp)));
  });

  it('is deterministic: another sandbox with the same zones answers the same numbers', async () => {
    const { shop } = await analyticsSandbox();
    const now = Date.now();
    const filter = { datetime_geq: iso(now - 7 * DAY), datetime_leq: iso(now - HOUR) };
    const first = rows(
      firstZone(await gql(GROUPS_BY('clientIP action date'), { zoneTags: [shop.id], filter })),
      'firewallEventsAdaptiveGroups',
    );
    await sandbox.close();
    const again = await analyticsSandbox();
    const second = rows(
      firstZone(await gql(GROUPS_BY('clientIP action date'), { zoneTags: [again.shop.id], filter })),
      'firewallEventsAdaptiveGroups',
    );
    expect(second).toEqual(first);
  });

  it('has data in each day of the last 30 for an Enterprise zone', async () => {
    const { blog } = await analyticsSandbox();
    const now = Date.now();
    const filter = { datetime_geq: iso(now - 30 * DAY), datetime_leq: iso(now) };
    const days = rows(
      firstZone(await gql(GROUPS_BY('date'), { zoneTags: [blog.id], filter })),
      'firewallEventsAdaptiveGroups',
    );
    expect(days.length).toBeGreaterThanOrEqual(30);
    for (const day of days) expect(day.count).toBeGreaterThan(0);
  });

  it('answers response-time percentiles of HTTP requests: ordered, cached faster, the origin only where reached', async () => {
    const { shop } = await analyticsSandbox();
    const now = Date.now();
    const query = `query ($zoneTag: string, $filter: ZoneHttpRequestsAdaptiveGroupsFilter_InputObject) {
      viewer { zones(filter: { zoneTag: $zoneTag }) {
        all: httpRequestsAdaptiveGroups(limit: 1, filter: $filter) {
          count avg { edgeTimeToFirstByteMs }
          quantiles { edgeTimeToFirstByteMsP50 edgeTimeToFirstByteMsP95 edgeTimeToFirstByteMsP99 originResponseDurationMsP50 }
        }
        byCache: httpRequestsAdaptiveGroups(limit: 100, filter: $filter) {
          count dimensions { cacheStatus } quantiles { edgeTimeToFirstByteMsP50 edgeTimeToFirstByteMsP99 }
        }
        origin: httpRequestsAdaptiveGroups(limit: 1, filter: { AND: [$filter, { originResponseStatus_gt: 0 }] }) {
          count quantiles { originResponseDurationMsP50 originResponseDurationMsP99 }
        }
      } }
    }`;
    const zone = firstZone(
      await gql(query, { zoneTag: shop.id, filter: { datetime_geq: iso(now - DAY), datetime_lt: iso(now) } }),
    );
    const [all] = rows(zone, 'all');
    const q = all!.quantiles!;
    expect(q.edgeTimeToFirstByteMsP50).toBeGreaterThan(0);
    expect(q.edgeTimeToFirstByteMsP95).toBeGreaterThanOrEqual(q.edgeTimeToFirstByteMsP50!);
    expect(q.edgeTimeToFirstByteMsP99).toBeGreaterThanOrEqual(q.edgeTimeToFirstByteMsP95!);
    // Most requests are cache hits (tens of ms), the rest hundreds: the mean sits above the median.
    expect(all!.avg!.edgeTimeToFirstByteMs).toBeGreaterThan(q.edgeTimeToFirstByteMsP50!);
    const byCache = new Map(rows(zone, 'byCache').map((row) => [row.dimensions.cacheStatus, row.quantiles!]));
    expect(byCache.get('hit')!.edgeTimeToFirstByteMsP99).toBeLessThan(
      byCache.get('dynamic')!.edgeTimeToFirstByteMsP50!,
    );
    // Over every request the origin's median is a cache hit's 0; over those that reached it, it is not.
    expect(q.originResponseDurationMsP50).toBe(0);
    const [origin] = rows(zone, 'origin');
    expect(origin!.count).toBeLessThan(all!.count);
    expect(origin!.quantiles!.originResponseDurationMsP50).toBeGreaterThan(0);
    expect(origin!.quantiles!.originResponseDurationMsP99).toBeGreaterThanOrEqual(
      origin!.quantiles!.originResponseDurationMsP50!,
    );

    const unknown = await gql(
      `{ viewer { zones(filter: { zoneTag: "${shop.id}" }) {
        httpRequestsAdaptiveGroups(limit: 1, filter: { datetime_geq: "${iso(now - HOUR)}", datetime_lt: "${iso(now)}" }) {
          quantiles { edgeTimeToFirstByteMsP42 }
        } } } }`,
    );
    expect(unknown.data).toBeNull();
    expect(unknown.errors![0]!.message).toContain('edgeTimeToFirstByteMsP42');
  });

  it('answers HTTP traffic with sums, averages, errors and cache statuses that add up', async () => {
    const { shop } = await analyticsSandbox();
    const now = Date.now();
    const query = `query ($zoneTag: string, $filter: ZoneHttpRequestsAdaptiveGroupsFilter_InputObject) {
      viewer { zones(filter: { zoneTag: $zoneTag }) {
        all: httpRequestsAdaptiveGroups(limit: 10, filter: $filter) {
          count sum { edgeResponseBytes visits } avg { edgeTimeToFirstByteMs originResponseDurationMs sampleInterval }
        }
        byCache: httpRequestsAdaptiveGroups(limit: 100, filter: $filter, orderBy: [count_DESC]) {
          count sum { edgeResponseBytes } dimensions { cacheStatus }
        }
        errors: httpRequestsAdaptiveGroups(limit: 100, filter: { AND: [$filter, { edgeResponseStatus_geq: 400 }] }) {
          count dimensions { edgeResponseStatus originResponseStatus }
        }
        byHour: httpRequestsAdaptiveGroups(limit: 1000, filter: $filter, orderBy: [datetimeHour_ASC]) {
          count dimensions { datetimeHour }
        }
      } }
    }`;
    const zone = firstZone(
      await gql(query, { zoneTag: shop.id, filter: { datetime_geq: iso(now - DAY), datetime_lt: iso(now) } }),
    );
    const [all] = rows(zone, 'all');
    expect(all!.count).toBeGreaterThan(1000);
    expect(all!.sum!.edgeResponseBytes).toBeGreaterThan(0);
    expect(all!.sum!.visits).toBeGreaterThan(0);
    expect(all!.avg!.sampleInterval).toBe(1);
    expect(all!.avg!.edgeTimeToFirstByteMs).toBeGreaterThan(0);
    const byCache = rows(zone, 'byCache');
    expect(total(byCache)).toBe(all!.count);
    expect(byCache.reduce((sum, row) => sum + row.sum!.edgeResponseBytes!, 0)).toBeCloseTo(
      all!.sum!.edgeResponseBytes!,
      -2,
    );
    const statuses = new Set(byCache.map((row) => row.dimensions.cacheStatus));
    expect(statuses).toContain('hit');
    expect(statuses).toContain('miss');
    expect(statuses).toContain('dynamic');
    const errors = rows(zone, 'errors');
    const codes = errors.map((row) => Number(row.dimensions.edgeResponseStatus));
    expect(codes.every((code) => code >= 400)).toBe(true);
    expect(codes.some((code) => code >= 500)).toBe(true);
    expect(codes.some((code) => code < 500)).toBe(true);
    // A 502 is the edge's own answer: no origin status.
    expect(
      errors.find((row) => row.dimensions.edgeResponseStatus === 502)?.dimensions.originResponseStatus,
    ).toBe(0);
    const byHour = rows(zone, 'byHour');
    expect(total(byHour)).toBe(all!.count);
    const hours = byHour.map((row) => String(row.dimensions.datetimeHour));
    expect(hours).toEqual([...hours].sort());
  });

  it('splits hours into finer buckets with the same totals, and cuts a range inside an hour', async () => {
    const { shop } = await analyticsSandbox();
    const end = Math.floor(Date.now() / HOUR) * HOUR - 1;
    const query = `query ($zoneTag: string, $filter: ZoneHttpRequestsAdaptiveGroupsFilter_InputObject) {
      viewer { zones(filter: { zoneTag: $zoneTag }) {
        quarters: httpRequestsAdaptiveGroups(limit: 1000, filter: $filter) { count dimensions { datetimeFifteenMinutes } }
        hours: httpRequestsAdaptiveGroups(limit: 1000, filter: $filter) { count dimensions { datetimeHour } }
      } }
    }`;
    const filter = { datetime_geq: iso(end + 1 - 6 * HOUR), datetime_leq: iso(end) };
    const zone = firstZone(await gql(query, { zoneTag: shop.id, filter }));
    const quarters = rows(zone, 'quarters');
    const hours = rows(zone, 'hours');
    expect(hours).toHaveLength(6);
    expect(quarters).toHaveLength(24);
    expect(total(quarters)).toBe(total(hours));
    for (const row of quarters)
      expect(String(row.dimensions.datetimeFifteenMinutes)).toMatch(/:(00|15|30|45):00Z$/);
    // Half an hour holds the two quarters' requests.
    const half = { datetime_geq: iso(end + 1 - HOUR), datetime_lt: iso(end + 1 - HOUR / 2) };
    const halfHour = rows(firstZone(await gql(query, { zoneTag: shop.id, filter: half })), 'hours');
    const lastHour = quarters.filter(
      (row) => Date.parse(String(row.dimensions.datetimeFifteenMinutes)) >= end + 1 - HOUR,
    );
    const firstTwo = lastHour
      .filter((row) => Date.parse(String(row.dimensions.datetimeFifteenMinutes)) < end + 1 - HOUR / 2)
      .reduce((sum, row) => sum + row.count, 0);
    expect(total(halfHour)).toBe(firstTwo);
  });

  it('lists sampled security events newest first, filtered, with Cloudflare’s fields', async () => {
    const { shop } = await analyticsSandbox();
    const now = Date.now();
    const query = `query ($zoneTag: string, $filter: ZoneFirewallEventsAdaptiveFilter_InputObject) {
      viewer { zones(filter: { zoneTag: $zoneTag }) {
        firewallEventsAdaptive(limit: 20, filter: $filter, orderBy: [datetime_DESC]) {
          action source clientIP clientAsn clientASNDescription clientCountryName clientRequestHTTPHost
          clientRequestPath ruleId description datetime rayName edgeResponseStatus
        }
      } }
    }`;
    const filter = { datetime_geq: iso(now - 6 * HOUR), datetime_leq: iso(now) };
    const events = firstZone(await gql(query, { zoneTag: shop.id, filter })).firewallEventsAdaptive as Record<
      string,
      string | number
    >[];
    expect(events).toHaveLength(20);
    const times = events.map((event) => Date.parse(String(event.datetime)));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const time of times) expect(time).toBeGreaterThanOrEqual(now - 6 * HOUR - 1000);
    expect(events[0]).toMatchObject({
      clientIP: expect.any(String),
      clientAsn: expect.stringMatching(/^\d+$/),
      clientCountryName: expect.stringMatching(/^[A-Z]{2}$/),
      clientRequestHTTPHost: expect.stringContaining('shop.example'),
      rayName: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    const ip = String(events[0]!.clientIP);
    const fromIp = firstZone(await gql(query, { zoneTag: shop.id, filter: { ...filter, clientIP: ip } }))
      .firewallEventsAdaptive as Record<string, unknown>[];
    expect(fromIp.length).toBeGreaterThan(0);
    for (const event of fromIp) expect(event.clientIP).toBe(ip);
  });

  it('accepts variables typed as clients commonly send them, and the tutorial’s filter type name', async () => {
    const { shop } = await analyticsSandbox();
    const now = Date.now();
    const query = `query ($zoneTag: String!, $since: String!, $limit: Int!, $filter: FirewallEventsAdaptiveGroupsFilter_InputObject) {
      viewer { zones(filter: { zoneTag: $zoneTag }) {
        firewallEventsAdaptiveGroups(limit: $limit, filter: { AND: [{ datetime_geq: $since }, $filter] }) { count }
      } }
    }`;
    // A closed range, so both answers count the same events whatever the clock does between them.
    const since = iso(now - 24 * HOUR);
    const filter = { action: 'block', datetime_leq: iso(now - 60_000) };
    const answer = await gql(query, { zoneTag: shop.id, since, limit: 1, filter });
    expect(answer.errors ?? null).toBeNull();
    // The same question typed as Cloudflare's schema types it.
    const typed = await gql(
      `query ($zoneTags: [string!], $filter: ZoneFirewallEventsAdaptiveGroupsFilter_InputObject, $limit: uint64!) {
        viewer { zones(filter: { zoneTag_in: $zoneTags }) {
          firewallEventsAdaptiveGroups(limit: $limit, filter: $filter) { count }
        } }
      }`,
      { zoneTags: [shop.id], filter: { AND: [{ datetime_geq: since }, filter] }, limit: 1 },
    );
    expect(rows(firstZone(answer), 'firewallEventsAdaptiveGroups')).toEqual(
      rows(firstZone(typed), 'firewallEventsAdaptiveGroups'),
    );
  });
});

describe('GraphQL Analytics: refusals, as Cloudflare answers them', () => {
  const groupsQuery = `query ($zoneTags: [string!], $filter: ZoneFirewallEventsAdaptiveGroupsFilter_InputObject, $limit: uint64!) {
    viewer { zones(filter: { zoneTag_in: $zoneTags }) {
      firewallEventsAdaptiveGroups(limit: $limit, filter: $filter) { count }
    } }
  }`;

  function expectRefusal(answer: GraphqlAnswer, status: number, message: string | RegExp, code?: string) {
    expect(answer.status).toBe(status);
    expect(answer.data).toBeNull();
    expect(answer.errors).toHaveLength(1);
    const [error] = answer.errors!;
    if (typeof message === 'string') expect(error!.message).toBe(message);
    else expect(error!.message).toMatch(message);
    expect(error!.extensions.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    expect(error!.extensions.code).toBe(code);
    return error!;
  }

  it('refuses data older than the plan keeps, naming the zone’s index in the path', async () => {
    const { shop } = await analyticsSandbox();
    const now = Date.now();
    const answer = await gql(groupsQuery, {
      zoneTags: [shop.id],
      limit: 10,
      filter: { datetime_geq: iso(now - 40 * DAY), datetime_leq: iso(now - 35 * DAY) },
    });
    const error = expectRefusal(answer, 400, 'cannot request data older than 2678400s');
    expect(error.path).toEqual(['viewer', 'zones', '0', 'firewallEventsAdaptiveGroups']);
  });

  it('refuses a range wider than maxDuration and a limit above maxPageSize', async () => {
    const { shop, pro } = await analyticsSandbox();
    const now = Date.now();
    // Pro keeps 3 days of grouped events, and a query spans at most 3 days: 4 days is refused.
    const wide = await gql(
      groupsQuery,
      {
        zoneTags: [pro.id],
        limit: 10,
        filter: { datetime_geq: iso(now - 2 * DAY), datetime_leq: iso(now + 2 * DAY) },
      },
      'token-b',
    );
    expectRefusal(wide, 400, 'query time range is too large, the widest range allowed is 259200s');
    const tooMany = await gql(groupsQuery, {
      zoneTags: [shop.id],
      limit: 10_001,
      filter: { datetime_geq: iso(now - HOUR) },
    });
    expectRefusal(tooMany, 400, 'limit must be positive number and not greater than 10000');
    const zero = await gql(groupsQuery, {
      zoneTags: [shop.id],
      limit: 0,
      filter: { datetime_geq: iso(now - HOUR) },
    });
    expectRefusal(zero, 400, 'limit must be positive number and not greater than 10000');
  });

  it('refuses more than 10 zones in one query', async () => {
    await analyticsSandbox();
    const zoneTags = Array.from(
      { length: 11 },
      (_, i) => sandbox.control.addZone(ACCOUNT_A, `zone-${i}.example`, { status: 'active' }).id,
    );
    const answer = await gql(groupsQuery, {
      zoneTags,
      limit: 10,
      filter: { datetime_geq: iso(Date.now() - HOUR) },
    });
    const error = expectRefusal(
      answer,
      429,
      'in combination, your request queries too many nodes, zones and accounts',
    );
    expect(error.path).toEqual(['viewer', 'zones']);
    const ten = await gql(groupsQuery, {
      zoneTags: zoneTags.slice(0, 10),
      limit: 10,
      filter: { datetime_geq: iso(Date.now() - HOUR) },
    });
    expect(ten.errors).toBeNull();
    expect(ten.data!.viewer.zones).toHaveLength(10);
  });

  it('refuses a dataset the zone’s plan lacks, and too many fields', async () => {
    const { shop, free } = await analyticsSandbox();
    const now = Date.now();
    const onFree = await gql(
      groupsQuery,
      { zoneTags: [free.id], limit: 10, filter: { datetime_geq: iso(now - HOUR) } },
      'token-free',
    );
    expectRefusal(onFree, 403, `zone '${free.id}' does not have access to the path`, 'authz');
    const fields = Array.from({ length: 31 }, (_, i) => `f${i}: action`).join(' ');
    const wide = await gql(
      `query ($zoneTag: string) { viewer { zones(filter: { zoneTag: $zoneTag }) {
        firewallEventsAdaptive(limit: 1, filter: { datetime_geq: "${iso(now - HOUR)}" }) { ${fields} }
      } } }`,
      { zoneTag: shop.id },
    );
    expectRefusal(wide, 400, "number of fields can't be more than 30");
  });

  it('refuses zones the token cannot read (unknown ones alike), a bad token and a malformed query', async () => {
    const { shop, pro } = await analyticsSandbox();
    const filter = { datetime_geq: iso(Date.now() - HOUR) };
    const foreign = await gql(groupsQuery, { zoneTags: [shop.id, pro.id], limit: 10, filter });
    expectRefusal(foreign, 403, `zones [${pro.id}] are not authorized`, 'authz');
    const unknown = await gql(groupsQuery, {
      zoneTags: ['0123456789abcdef0123456789abcdef'],
      limit: 10,
      filter,
    });
    expectRefusal(unknown, 403, 'zones [0123456789abcdef0123456789abcdef] are not authorized', 'authz');
    const both = await gql(groupsQuery, { zoneTags: [shop.id, pro.id], limit: 10, filter }, 'token-ab');
    expect(both.errors).toBeNull();

    for (const token of ['no-such-token', null]) {
      const refused = await gql(groupsQuery, { zoneTags: [shop.id], limit: 10, filter }, token);
      const error = expectRefusal(refused, 401, 'Unauthorized');
      expect(error.path).toBeNull();
    }
    sandbox.control.setTokenStatus('token-a', 'disabled');
    expectRefusal(await gql(groupsQuery, { zoneTags: [shop.id], limit: 10, filter }), 401, 'Unauthorized');

    const unknownField = await gql(`{ viewer { zones { nonsense } } }`, {}, 'token-b');
    expectRefusal(unknownField, 400, /nonsense/);
    const badTime = await gql(
      groupsQuery,
      { zoneTags: [pro.id], limit: 10, filter: { datetime_geq: 'yesterday' } },
      'token-b',
    );
    expectRefusal(badTime, 400, /^error parsing args: datetime/);
  });

  it('limits each token to its GraphQL budget (300 per 5 minutes by default) and says so', async () => {
    const { shop, pro } = await analyticsSandbox({ graphqlRateLimit: { limit: 3 } });
    const query = `query ($zoneTag: string) { viewer { zones(filter: { zoneTag: $zoneTag }) { zoneTag } } }`;
    for (let i = 0; i < 3; i++) expect((await gql(query, { zoneTag: shop.id })).errors).toBeNull();
    const refused = await gql(query, { zoneTag: shop.id });
    expectRefusal(refused, 429, 'rate limiter budget depleted, try again after 5 minutes', 'budget');
    // Another token has its own budget; a reset gives the first one back.
    expect((await gql(query, { zoneTag: pro.id }, 'token-b')).errors).toBeNull();
    sandbox.control.resetRateLimits();
    expect((await gql(query, { zoneTag: shop.id })).errors).toBeNull();
  });
});

describe('GraphQL Analytics: events added through the control API', () => {
  const countQuery = `query ($zoneTag: string, $filter: ZoneFirewallEventsAdaptiveGroupsFilter_InputObject) {
    viewer { zones(filter: { zoneTag: $zoneTag }) {
      firewallEventsAdaptiveGroups(limit: 100, filter: $filter) { count dimensions { clientIP action source } }
      firewallEventsAdaptive(limit: 1, filter: $filter, orderBy: [datetime_DESC]) { clientIP action clientRequestPath }
    } }
  }`;

  it('counts a fresh attack at once, in aggregates and in the sampled events', async () => {
    const { shop } = await analyticsSandbox();
    const filter = { datetime_geq: iso(Date.now() - HOUR), clientIP: '198.51.100.77' };
    const before = firstZone(await gql(countQuery, { zoneTag: shop.id, filter }));
    expect(rows(before, 'firewallEventsAdaptiveGroups')).toEqual([]);

    expect(
      sandbox.control.addSecurityEvents([
        {
          zoneId: shop.id,
          clientIP: '198.51.100.77',
          action: 'block',
          count: 25,
          clientRequestPath: '/wp-login.php',
        },
      ]),
    ).toBe(1);
    const after = firstZone(await gql(countQuery, { zoneTag: shop.id, filter }));
    expect(rows(after, 'firewallEventsAdaptiveGroups')).toEqual([
      { count: 25, dimensions: { clientIP: '198.51.100.77', action: 'block', source: 'firewallCustom' } },
    ]);
    expect(after.firewallEventsAdaptive).toEqual([
      { clientIP: '198.51.100.77', action: 'block', clientRequestPath: '/wp-login.php' },
    ]);
  });

  it('takes events over HTTP with the run’s secret, bounded and validated', async () => {
    const { shop } = await analyticsSandbox();
    const post = (payload: unknown) =>
      sandbox.app.inject({
        method: 'POST',
        url: '/__sandbox/analytics/events',
        headers: {
          [CONTROL_SECRET_HEADER]: sandbox.controlSecret,
          'content-type': 'application/json',
          host: '127.0.0.1',
        },
        payload: JSON.stringify(payload),
      });
    const added = await post([
      { zoneId: shop.id, clientIP: '2001:db8:ff01::9', action: 'managed_challenge', source: 'securitylevel' },
    ]);
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ added: 1 });
    const filter = { datetime_geq: iso(Date.now() - HOUR), clientIP: '2001:db8:ff01::9' };
    expect(
      rows(firstZone(await gql(countQuery, { zoneTag: shop.id, filter })), 'firewallEventsAdaptiveGroups'),
    ).toEqual([
      {
        count: 1,
        dimensions: { clientIP: '2001:db8:ff01::9', action: 'managed_challenge', source: 'securitylevel' },
      },
    ]);

    const tooMany = await post(
      Array.from({ length: 1001 }, () => ({ zoneId: shop.id, clientIP: '192.0.2.1' })),
    );
    expect(tooMany.statusCode).toBe(400);
    const badIp = await post([
      { zoneId: shop.id, clientIP: '192.0.2.1' },
      { zoneId: shop.id, clientIP: 'not-an-ip' },
    ]);
    expect(badIp.statusCode).toBe(400);
    expect(badIp.json()).toEqual({ error: 'events[1]: clientIP must be an IPv4 or IPv6 address' });
    const future = await post([{ zoneId: shop.id, clientIP: '192.0.2.1', datetime: iso(Date.now() + DAY) }]);
    expect(future.statusCode).toBe(400);
    const noSecret = await sandbox.app.inject({
      method: 'POST',
      url: '/__sandbox/analytics/events',
      payload: [],
    });
    expect(noSecret.statusCode).toBe(403);
    // Nothing of the refused calls was added.
    const from192 = { datetime_geq: iso(Date.now() - HOUR), clientIP: '192.0.2.1' };
    expect(
      rows(
        firstZone(await gql(countQuery, { zoneTag: shop.id, filter: from192 })),
        'firewallEventsAdaptiveGroups',
      ),
    ).toEqual([]);
  });

  it('forgets added events on reset', async () => {
    const { shop } = await analyticsSandbox();
    sandbox.control.addSecurityEvents([{ zoneId: shop.id, clientIP: '198.51.100.78' }]);
    sandbox.control.reset();
    expect(() => sandbox.control.addSecurityEvents([{ zoneId: shop.id, clientIP: '198.51.100.78' }])).toThrow(
      /zoneId must name an existing zone/,
    );
  });
});

describe('GraphQL Analytics: plans', () => {
  it('reads Pro and Free zones within their own limits', async () => {
    const { pro, free } = await analyticsSandbox();
    const now = Date.now();
    const query = `query ($zoneTag: string, $since: Time) { viewer { zones(filter: { zoneTag: $zoneTag }) {
      httpRequestsAdaptiveGroups(limit: 10, filter: { datetime_geq: $since }) { count }
    } } }`;
    const proAnswer = firstZone(await gql(query, { zoneTag: pro.id, since: iso(now - 3 * DAY) }, 'token-b'));
    expect(rows(proAnswer, 'httpRequestsAdaptiveGroups')[0]!.count).toBeGreaterThan(0);
    const freeWide = await gql(query, { zoneTag: free.id, since: iso(now - 2 * DAY) }, 'token-free');
    expect(freeWide.status).toBe(400);
    expect(freeWide.errors![0]!.message).toBe(
      'query time range is too large, the widest range allowed is 86400s',
    );
    const freeDay = firstZone(await gql(query, { zoneTag: free.id, since: iso(now - DAY) }, 'token-free'));
    expect(rows(freeDay, 'httpRequestsAdaptiveGroups')[0]!.count).toBeGreaterThan(0);
  });
});
