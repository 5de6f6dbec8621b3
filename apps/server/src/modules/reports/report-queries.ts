import { z } from 'zod';
import { MAX_ZONES_PER_QUERY } from '../../cloudflare';

/*
 * The GraphQL Analytics queries of the reports, one per 10 zones and time window, each asking every
 * part of its report at once under aliases (Cloudflare counts queries, not parts). Only the bucket
 * dimension (an identifier chosen here) is written into the text; every other value is a variable.
 */

/** The time dimension of a series: an hour, or a day for 30 days. */
export type BucketDimension = 'datetimeHour' | 'date';

/** Rows asked per zone for a top table: more than shown, so merging zones and windows ranks well. */
export const TOP_ROWS_PER_ZONE = 50;

/** What every query declares (each variable is used: GraphQL refuses a declared one left unused). */
const BASE_VARIABLES = '$zoneTags: [string!], $since: Time!, $until: Time!';
/** What a query with a series declares. */
const VARIABLES = `${BASE_VARIABLES}, $seriesLimit: uint64!`;
const RANGE = 'datetime_geq: $since, datetime_lt: $until';

const grouped = (
  dataset: string,
  alias: string,
  filter: string,
  limit: string,
  order: string,
  body: string,
) => `${alias}: ${dataset}(filter: { ${filter} }, limit: ${limit}, orderBy: [${order}]) { ${body} }`;

function zonesQuery(name: string, variables: string, parts: string[]): string {
  return `query ${name}(${variables}) {
  viewer {
    zones(filter: { zoneTag_in: $zoneTags }) {
      zoneTag
      ${parts.join('\n      ')}
    }
  }
}`;
}

const security = (alias: string, limit: string, order: string, body: string, filter = RANGE) =>
  grouped('firewallEventsAdaptiveGroups', alias, filter, limit, order, body);
const top = TOP_ROWS_PER_ZONE;

/** The security report's parts; the sampled events only in the newest window's query. */
export function securityQuery(bucket: BucketDimension, withEvents: boolean): string {
  const parts = [
    security('overTime', '$seriesLimit', `${bucket}_ASC`, `count dimensions { ${bucket} action }`),
    security('byAction', String(top), 'count_DESC', 'count dimensions { action }'),
    security('bySource', String(top), 'count_DESC', 'count dimensions { source }'),
    security(
      'topIps',
      String(top),
      'count_DESC',
      'count dimensions { clientIP clientCountryName clientAsn }',
    ),
    security('topAsns', String(top), 'count_DESC', 'count dimensions { clientAsn clientASNDescription }'),
    security('topCountries', String(top), 'count_DESC', 'count dimensions { clientCountryName }'),
    security('topHosts', String(top), 'count_DESC', 'count dimensions { clientRequestHTTPHost }'),
    security('topPaths', String(top), 'count_DESC', 'count dimensions { clientRequestPath }'),
    security('topRules', String(top), 'count_DESC', 'count dimensions { ruleId source description }'),
  ];
  if (withEvents)
    parts.push(
      `events: firewallEventsAdaptive(filter: { datetime_geq: $eventsSince, datetime_lt: $until }, limit: $eventsLimit, orderBy: [datetime_DESC]) {
        datetime action source clientIP clientCountryName clientAsn clientRequestHTTPHost
        clientRequestHTTPMethodName clientRequestPath ruleId description rayName sampleInterval
      }`,
    );
  const variables = withEvents ? `${VARIABLES}, $eventsSince: Time!, $eventsLimit: uint64!` : VARIABLES;
  return zonesQuery('SecurityReport', variables, parts);
}

const http = (alias: string, limit: string, order: string, body: string, filter = RANGE) =>
  grouped('httpRequestsAdaptiveGroups', alias, filter, limit, order, body);

export function trafficQuery(bucket: BucketDimension): string {
  return zonesQuery('TrafficReport', VARIABLES, [
    http(
      'overTime',
      '$seriesLimit',
      `${bucket}_ASC`,
      `count sum { edgeResponseBytes visits } dimensions { ${bucket} cacheStatus }`,
    ),
    http('byCache', String(top), 'count_DESC', 'count dimensions { cacheStatus }'),
    http('byStatus', String(top * 4), 'count_DESC', 'count dimensions { edgeResponseStatus }'),
    http('topCountries', String(top), 'count_DESC', 'count dimensions { clientCountryName }'),
    http('topHosts', String(top), 'count_DESC', 'count dimensions { clientRequestHTTPHost }'),
    http('topPaths', String(top), 'count_DESC', 'count dimensions { clientRequestPath }'),
  ]);
}

const ERRORS = `${RANGE}, edgeResponseStatus_geq: 400`;

export function errorsQuery(bucket: BucketDimension): string {
  return zonesQuery('ErrorsReport', VARIABLES, [
    http('total', '1', 'count_DESC', 'count'),
    http(
      'overTime',
      '$seriesLimit',
      `${bucket}_ASC`,
      `count dimensions { ${bucket} edgeResponseStatus }`,
      ERRORS,
    ),
    http(
      'byStatus',
      String(top * 4),
      'count_DESC',
      'count dimensions { edgeResponseStatus originResponseStatus }',
      ERRORS,
    ),
    http('topPaths', String(top), 'count_DESC', 'count dimensions { clientRequestPath }', ERRORS),
    http('topHosts', String(top), 'count_DESC', 'count dimensions { clientRequestHTTPHost }', ERRORS),
  ]);
}

/** Percentiles asked of a response time: Cloudflare's `quantiles` fields are `<measure>P50`... */
const PERCENTILES = ['P50', 'P95', 'P99'] as const;
const quantilesOf = (measure: string) => PERCENTILES.map((level) => `${measure}${level}`).join(' ');
const EDGE_TIMES = `count avg { edgeTimeToFirstByteMs } quantiles { ${quantilesOf('edgeTimeToFirstByteMs')} }`;
const ORIGIN_TIMES = `count avg { originResponseDurationMs } quantiles { ${quantilesOf('originResponseDurationMs')} }`;
/** The origin's times only over requests it answered: a cache hit's 0 ms would read as a fast origin. */
const REACHED_ORIGIN = `${RANGE}, originResponseStatus_gt: 0`;
const CACHED = `${RANGE}, cacheStatus_in: $cached`;

/**
 * The Performance report's parts: the edge's time to first byte over every request, the origin's over
 * the requests that reached it, and the cached requests; each over the whole window (per zone) and per
 * bucket.
 */
export function performanceQuery(bucket: BucketDimension): string {
  const overTime = (alias: string, body: string, filter?: string) =>
    http(alias, '$seriesLimit', `${bucket}_ASC`, `${body} dimensions { ${bucket} }`, filter);
  return zonesQuery('PerformanceReport', `${VARIABLES}, $cached: [string!]`, [
    http('edge', '1', 'count_DESC', EDGE_TIMES),
    http('origin', '1', 'count_DESC', ORIGIN_TIMES, REACHED_ORIGIN),
    http('cached', '1', 'count_DESC', 'count', CACHED),
    overTime('edgeOverTime', EDGE_TIMES),
    overTime('originOverTime', ORIGIN_TIMES, REACHED_ORIGIN),
    overTime('cachedOverTime', 'count', CACHED),
  ]);
}

/** The actions that stopped a request: what the overview counts as a blocked threat. */
export const BLOCKING_ACTIONS = [
  'block',
  'challenge',
  'managed_challenge',
  'js_challenge',
  'jschallenge',
  'connection_close',
] as const;

/** The overview's last 24 hours: threats blocked, and the top sources to check against the lists. */
export const OVERVIEW_QUERY = zonesQuery('Overview', `${BASE_VARIABLES}, $blocking: [string!]`, [
  security('blocked', '1', 'count_DESC', 'count', `${RANGE}, action_in: $blocking`),
  security('topIps', String(top), 'count_DESC', 'count dimensions { clientIP }'),
]);

// The answers. Text is bounded where it is read (report rows cut it); arrays by the limits asked.
const str = z.string().max(4096);
const num = z.number().nonnegative();
/** Cloudflare's numbers; some clients' scalars arrive as strings. */
const uint = z.union([
  num,
  z
    .string()
    .regex(/^\d{1,20}$/)
    .transform(Number),
]);
const rows = <T extends z.ZodType>(row: T, max = 10_000) => z.array(row).max(max);
const countRow = <T extends z.ZodRawShape>(dimensions: T) =>
  z.object({ count: uint, dimensions: z.object(dimensions) });
const bucketShape = { datetimeHour: str.optional(), date: str.optional() };

function zonesAnswer<T extends z.ZodRawShape>(parts: T) {
  return z.object({
    viewer: z.object({
      zones: z.array(z.object({ zoneTag: z.string().max(64), ...parts })).max(MAX_ZONES_PER_QUERY),
    }),
  });
}

const topOf = (name: string) => rows(countRow({ [name]: str }), TOP_ROWS_PER_ZONE * 4);

export const securityAnswerSchema = zonesAnswer({
  overTime: rows(countRow({ ...bucketShape, action: str })),
  byAction: topOf('action'),
  bySource: topOf('source'),
  topIps: rows(countRow({ clientIP: str, clientCountryName: str, clientAsn: str }), TOP_ROWS_PER_ZONE),
  topAsns: rows(countRow({ clientAsn: str, clientASNDescription: str }), TOP_ROWS_PER_ZONE),
  topCountries: topOf('clientCountryName'),
  topHosts: topOf('clientRequestHTTPHost'),
  topPaths: topOf('clientRequestPath'),
  topRules: rows(countRow({ ruleId: str, source: str, description: str }), TOP_ROWS_PER_ZONE),
  events: rows(
    z.object({
      datetime: str,
      action: str,
      source: str,
      clientIP: str,
      clientCountryName: str,
      clientAsn: str,
      clientRequestHTTPHost: str,
      clientRequestHTTPMethodName: str,
      clientRequestPath: str,
      ruleId: str,
      description: str,
      rayName: str,
      sampleInterval: uint,
    }),
    1_000,
  ).optional(),
});
export type SecurityAnswer = z.infer<typeof securityAnswerSchema>;

export const trafficAnswerSchema = zonesAnswer({
  overTime: rows(
    z.object({
      count: uint,
      sum: z.object({ edgeResponseBytes: uint, visits: uint }),
      dimensions: z.object({ ...bucketShape, cacheStatus: str }),
    }),
  ),
  byCache: topOf('cacheStatus'),
  byStatus: rows(countRow({ edgeResponseStatus: uint }), TOP_ROWS_PER_ZONE * 4),
  topCountries: topOf('clientCountryName'),
  topHosts: topOf('clientRequestHTTPHost'),
  topPaths: topOf('clientRequestPath'),
});
export type TrafficAnswer = z.infer<typeof trafficAnswerSchema>;

export const errorsAnswerSchema = zonesAnswer({
  total: rows(z.object({ count: uint }), 1),
  overTime: rows(countRow({ ...bucketShape, edgeResponseStatus: uint })),
  byStatus: rows(countRow({ edgeResponseStatus: uint, originResponseStatus: uint }), TOP_ROWS_PER_ZONE * 4),
  topPaths: topOf('clientRequestPath'),
  topHosts: topOf('clientRequestHTTPHost'),
});
export type ErrorsAnswer = z.infer<typeof errorsAnswerSchema>;

export const overviewAnswerSchema = zonesAnswer({
  blocked: rows(z.object({ count: uint }), 1),
  topIps: rows(countRow({ clientIP: str }), TOP_ROWS_PER_ZONE),
});
export type OverviewAnswer = z.infer<typeof overviewAnswerSchema>;

const timesRow = (measure: 'edgeTimeToFirstByteMs' | 'originResponseDurationMs') =>
  z.object({
    count: uint,
    avg: z.object({ [measure]: num }),
    quantiles: z.object(Object.fromEntries(PERCENTILES.map((level) => [`${measure}${level}`, num]))),
  });
const timesOverTime = (measure: 'edgeTimeToFirstByteMs' | 'originResponseDurationMs') =>
  rows(timesRow(measure).extend({ dimensions: z.object(bucketShape) }));

export const performanceAnswerSchema = zonesAnswer({
  edge: rows(timesRow('edgeTimeToFirstByteMs'), 1),
  origin: rows(timesRow('originResponseDurationMs'), 1),
  cached: rows(z.object({ count: uint }), 1),
  edgeOverTime: timesOverTime('edgeTimeToFirstByteMs'),
  originOverTime: timesOverTime('originResponseDurationMs'),
  cachedOverTime: rows(countRow(bucketShape)),
});
export type PerformanceAnswer = z.infer<typeof performanceAnswerSchema>;
