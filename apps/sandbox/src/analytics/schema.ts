import { buildSchema, GraphQLInt, GraphQLSchema, GraphQLString } from 'graphql';
import { DATASETS } from './datasets';

/**
 * The subset of Cloudflare's GraphQL Analytics schema the sandbox serves, written as SDL from the
 * field tables below. Type and scalar names are Cloudflare's (`string`, `Time`, `uint64`,
 * `Zone...Filter_InputObject`); the unprefixed filter names of Cloudflare's own tutorial are accepted as
 * aliases. Filters take every field with the operator suffixes Cloudflare's filtering page lists.
 */

type FieldType = 'string' | 'uint16' | 'Time' | 'Date';

/** Fields of one sampled security event (`firewallEventsAdaptive`). */
export const SECURITY_EVENT_FIELDS: Record<string, FieldType> = {
  action: 'string',
  clientASNDescription: 'string',
  clientAsn: 'string',
  clientCountryName: 'string',
  clientIP: 'string',
  clientRequestHTTPHost: 'string',
  clientRequestHTTPMethodName: 'string',
  clientRequestPath: 'string',
  clientRequestQuery: 'string',
  description: 'string',
  edgeResponseStatus: 'uint16',
  rayName: 'string',
  ruleId: 'string',
  rulesetId: 'string',
  source: 'string',
  userAgent: 'string',
};

/** Time dimensions of the grouped datasets, each the start of its bucket. */
export const TIME_DIMENSIONS: Record<string, { type: FieldType; bucketMs: number }> = {
  datetime: { type: 'Time', bucketMs: 1000 },
  datetimeMinute: { type: 'Time', bucketMs: 60_000 },
  datetimeFiveMinutes: { type: 'Time', bucketMs: 300_000 },
  datetimeFifteenMinutes: { type: 'Time', bucketMs: 900_000 },
  datetimeHour: { type: 'Time', bucketMs: 3_600_000 },
  date: { type: 'Date', bucketMs: 86_400_000 },
};

const SECURITY_GROUP_DIMENSIONS: Record<string, FieldType> = Object.fromEntries(
  Object.entries(SECURITY_EVENT_FIELDS).filter(([name]) => name !== 'rayName'),
);

export const HTTP_REQUEST_DIMENSIONS: Record<string, FieldType> = {
  cacheStatus: 'string',
  clientCountryName: 'string',
  clientRequestHTTPHost: 'string',
  clientRequestPath: 'string',
  edgeResponseStatus: 'uint16',
  originResponseStatus: 'uint16',
  requestSource: 'string',
};

export const HTTP_REQUEST_SUMS = ['edgeResponseBytes', 'visits'] as const;
export const HTTP_REQUEST_AVERAGES = [
  'edgeTimeToFirstByteMs',
  'originResponseDurationMs',
  'sampleInterval',
] as const;

/**
 * The measures of `quantiles` (Cloudflare's `ZoneHttpRequestsAdaptiveGroupsQuantiles`), each as
 * `<measure>P50`, `P95` and `P99`: the percentile over the group's requests.
 */
export const HTTP_REQUEST_QUANTILE_MEASURES = ['edgeTimeToFirstByteMs', 'originResponseDurationMs'] as const;
export const QUANTILE_LEVELS = { P50: 0.5, P95: 0.95, P99: 0.99 } as const;
export const HTTP_REQUEST_QUANTILES = HTTP_REQUEST_QUANTILE_MEASURES.flatMap((measure) =>
  Object.keys(QUANTILE_LEVELS).map((level) => `${measure}${level}`),
);

const fieldLines = (fields: Record<string, FieldType>) =>
  Object.entries(fields).map(([name, type]) => `  ${name}: ${type}!`);

const orderValues = (names: string[]) => names.flatMap((name) => [`${name}_ASC`, `${name}_DESC`]);

/** A filter input: each field bare and with Cloudflare's operators, plus AND/OR of the same input. */
function filterInput(name: string, fields: Record<string, FieldType>, time: string[]): string {
  const lines: string[] = [];
  for (const [field, type] of Object.entries(fields)) {
    lines.push(`  ${field}: ${type}`);
    for (const op of ['gt', 'lt', 'geq', 'leq', 'neq']) lines.push(`  ${field}_${op}: ${type}`);
    for (const op of ['in', 'notin']) lines.push(`  ${field}_${op}: [${type}!]`);
    if (type === 'string') for (const op of ['like', 'notlike']) lines.push(`  ${field}_${op}: string`);
  }
  for (const field of time) {
    const type = TIME_DIMENSIONS[field]?.type ?? 'Time';
    lines.push(`  ${field}: ${type}`);
    for (const op of ['gt', 'lt', 'geq', 'leq']) lines.push(`  ${field}_${op}: ${type}`);
  }
  lines.push(`  AND: [${name}!]`, `  OR: [${name}!]`);
  return `input ${name} {\n${lines.join('\n')}\n}`;
}

const FILTERS = {
  firewallEventsAdaptive: 'ZoneFirewallEventsAdaptiveFilter_InputObject',
  firewallEventsAdaptiveGroups: 'ZoneFirewallEventsAdaptiveGroupsFilter_InputObject',
  httpRequestsAdaptiveGroups: 'ZoneHttpRequestsAdaptiveGroupsFilter_InputObject',
} as const;

/** Filter fields that bound time (datetime and its buckets, date), per dataset. */
export const TIME_FILTER_FIELDS: Record<(typeof DATASETS)[number], string[]> = {
  firewallEventsAdaptive: ['datetime'],
  firewallEventsAdaptiveGroups: ['datetime', 'date', 'datetimeHour'],
  httpRequestsAdaptiveGroups: ['datetime', 'date', 'datetimeHour'],
};

function sdl(): string {
  const eventFields = { ...SECURITY_EVENT_FIELDS };
  const securityDimensions = { ...SECURITY_GROUP_DIMENSIONS };
  const httpDimensions = { ...HTTP_REQUEST_DIMENSIONS };
  const timeDimensionLines = Object.entries(TIME_DIMENSIONS).map(([name, { type }]) => `  ${name}: ${type}!`);
  const filters: string[] = [];
  const aliases: string[] = [];
  const filterFields = {
    firewallEventsAdaptive: eventFields,
    firewallEventsAdaptiveGroups: securityDimensions,
    httpRequestsAdaptiveGroups: httpDimensions,
  };
  for (const dataset of DATASETS) {
    filters.push(filterInput(FILTERS[dataset], filterFields[dataset], TIME_FILTER_FIELDS[dataset]));
    // Cloudflare's tutorials name the same inputs without the Zone prefix.
    const alias = FILTERS[dataset].replace(/^Zone/, '');
    aliases.push(filterInput(alias, filterFields[dataset], TIME_FILTER_FIELDS[dataset]));
  }
  const settingsLines = DATASETS.map((dataset) => `  ${dataset}: SettingsNode`);
  return `
scalar string
scalar Time
scalar Date
scalar uint16
scalar uint64
scalar int
scalar int64
scalar float64

type Query {
  viewer: Viewer!
}

type Viewer {
  zones(filter: ZoneFilter_InputObject, limit: uint64): [Zone!]!
}

input ZoneFilter_InputObject {
  zoneTag: string
  zoneTag_gt: string
  zoneTag_in: [string!]
}

type Zone {
  zoneTag: string!
  settings: Settings!
  firewallEventsAdaptive(
    filter: ZoneFirewallEventsAdaptiveFilter_InputObject
    limit: uint64!
    orderBy: [ZoneFirewallEventsAdaptiveOrderBy!]
  ): [ZoneFirewallEventsAdaptive!]!
  firewallEventsAdaptiveGroups(
    filter: ZoneFirewallEventsAdaptiveGroupsFilter_InputObject
    limit: uint64!
    orderBy: [ZoneFirewallEventsAdaptiveGroupsOrderBy!]
  ): [ZoneFirewallEventsAdaptiveGroups!]!
  httpRequestsAdaptiveGroups(
    filter: ZoneHttpRequestsAdaptiveGroupsFilter_InputObject
    limit: uint64!
    orderBy: [ZoneHttpRequestsAdaptiveGroupsOrderBy!]
  ): [ZoneHttpRequestsAdaptiveGroups!]!
}

type Settings {
${settingsLines.join('\n')}
}

type SettingsNode {
  enabled: Boolean!
  availableFields: [string!]!
  maxDuration: uint64!
  maxNumberOfFields: uint64!
  maxPageSize: uint64!
  notOlderThan: uint64!
}

type ZoneFirewallEventsAdaptive {
${fieldLines(eventFields).join('\n')}
  datetime: Time!
  sampleInterval: uint64!
}

enum ZoneFirewallEventsAdaptiveOrderBy {
  ${orderValues([...Object.keys(eventFields), 'datetime']).join('\n  ')}
}

type ZoneFirewallEventsAdaptiveGroups {
  count: uint64!
  avg: ZoneFirewallEventsAdaptiveGroupsAvg
  dimensions: ZoneFirewallEventsAdaptiveGroupsDimensions
}

type ZoneFirewallEventsAdaptiveGroupsAvg {
  sampleInterval: float64!
}

type ZoneFirewallEventsAdaptiveGroupsDimensions {
${fieldLines(securityDimensions).join('\n')}
${timeDimensionLines.join('\n')}
}

enum ZoneFirewallEventsAdaptiveGroupsOrderBy {
  ${orderValues(['count', 'avg_sampleInterval', ...Object.keys(securityDimensions), ...Object.keys(TIME_DIMENSIONS)]).join('\n  ')}
}

type ZoneHttpRequestsAdaptiveGroups {
  count: uint64!
  sum: ZoneHttpRequestsAdaptiveGroupsSum
  avg: ZoneHttpRequestsAdaptiveGroupsAvg
  quantiles: ZoneHttpRequestsAdaptiveGroupsQuantiles
  dimensions: ZoneHttpRequestsAdaptiveGroupsDimensions
}

type ZoneHttpRequestsAdaptiveGroupsQuantiles {
${HTTP_REQUEST_QUANTILES.map((name) => `  ${name}: float64!`).join('\n')}
}

type ZoneHttpRequestsAdaptiveGroupsSum {
${HTTP_REQUEST_SUMS.map((name) => `  ${name}: uint64!`).join('\n')}
}

type ZoneHttpRequestsAdaptiveGroupsAvg {
${HTTP_REQUEST_AVERAGES.map((name) => `  ${name}: float64!`).join('\n')}
}

type ZoneHttpRequestsAdaptiveGroupsDimensions {
${fieldLines(httpDimensions).join('\n')}
${timeDimensionLines.join('\n')}
}

enum ZoneHttpRequestsAdaptiveGroupsOrderBy {
  ${orderValues([
    'count',
    ...HTTP_REQUEST_SUMS.map((name) => `sum_${name}`),
    ...HTTP_REQUEST_AVERAGES.map((name) => `avg_${name}`),
    ...Object.keys(httpDimensions),
    ...Object.keys(TIME_DIMENSIONS),
  ]).join('\n  ')}
}

${filters.join('\n\n')}

${aliases.join('\n\n')}
`;
}

let built: GraphQLSchema | null = null;
/**
 * Built once per process: the schema does not depend on the state. `String` and `Int` are added though
 * no field uses them, so variables declared with them (as clients commonly do) are known types.
 */
export function analyticsSchema(): GraphQLSchema {
  if (!built) {
    const config = buildSchema(sdl()).toConfig();
    built = new GraphQLSchema({ ...config, types: [...config.types, GraphQLString, GraphQLInt] });
  }
  return built;
}

/** What a dataset's `settings.availableFields` lists: its leaf fields, nested ones as `parent_field`. */
export const AVAILABLE_FIELDS: Record<(typeof DATASETS)[number], string[]> = {
  firewallEventsAdaptive: [...Object.keys(SECURITY_EVENT_FIELDS), 'datetime', 'sampleInterval'],
  firewallEventsAdaptiveGroups: [
    'count',
    'avg_sampleInterval',
    ...[...Object.keys(SECURITY_GROUP_DIMENSIONS), ...Object.keys(TIME_DIMENSIONS)].map(
      (name) => `dimensions_${name}`,
    ),
  ],
  httpRequestsAdaptiveGroups: [
    'count',
    ...HTTP_REQUEST_SUMS.map((name) => `sum_${name}`),
    ...HTTP_REQUEST_AVERAGES.map((name) => `avg_${name}`),
    ...HTTP_REQUEST_QUANTILES.map((name) => `quantiles_${name}`),
    ...[...Object.keys(HTTP_REQUEST_DIMENSIONS), ...Object.keys(TIME_DIMENSIONS)].map(
      (name) => `dimensions_${name}`,
    ),
  ],
};
