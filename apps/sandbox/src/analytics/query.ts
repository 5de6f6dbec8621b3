import { eventsWithin, eventTime, hash, type Batch } from './batches';
import { HTTP_REQUEST_QUANTILE_MEASURES, QUANTILE_LEVELS, TIME_DIMENSIONS } from './schema';

/**
 * A refusal in Cloudflare's GraphQL error shape: the message Cloudflare's error page lists, the HTTP
 * status it gives for it, and `extensions.code` where Cloudflare documents one.
 */
export class AnalyticsRefusal extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

export const parsingError = (detail: string) => new AnalyticsRefusal(`error parsing args: ${detail}`, 400);

type Filter = Record<string, unknown>;
const OPERATORS = ['gt', 'lt', 'geq', 'leq', 'neq', 'in', 'notin', 'like', 'notlike'] as const;
type Operator = (typeof OPERATORS)[number] | 'eq';

function splitKey(key: string): { field: string; op: Operator } {
  const at = key.lastIndexOf('_');
  const suffix = key.slice(at + 1);
  if (at > 0 && (OPERATORS as readonly string[]).includes(suffix))
    return { field: key.slice(0, at), op: suffix as Operator };
  return { field: key, op: 'eq' };
}

/** Cloudflare's `Time` (RFC 3339) or `Date` (YYYY-MM-DD) as milliseconds. */
function timeValue(field: string, value: unknown): number {
  const text = String(value);
  const ms =
    field === 'date'
      ? /^\d{4}-\d{2}-\d{2}$/.test(text)
        ? Date.parse(`${text}T00:00:00Z`)
        : Number.NaN
      : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text)
        ? Date.parse(text)
        : Number.NaN;
  if (Number.isNaN(ms))
    throw parsingError(`${field}: cannot parse "${text}" as ${field === 'date' ? 'Date' : 'Time'}`);
  return ms;
}

export interface TimeRange {
  /** Inclusive bounds in milliseconds; undefined when the filter sets none. */
  lo?: number;
  hi?: number;
}

/**
 * The time bounds of a filter, from its top level and its AND lists. A time field compares the start of
 * its bucket (`datetimeHour_leq: 10:00` takes events up to 10:59:59.999). Time inside OR is refused: the
 * sandbox reads a query's range before filtering, as Cloudflare checks retention and width first.
 */
export function timeRange(filter: Filter | undefined, timeFields: readonly string[]): TimeRange {
  const range: TimeRange = {};
  const raise = (lo: number) => (range.lo = range.lo === undefined ? lo : Math.max(range.lo, lo));
  const lower = (hi: number) => (range.hi = range.hi === undefined ? hi : Math.min(range.hi, hi));
  const visit = (node: Filter, insideOr: boolean) => {
    for (const [key, value] of Object.entries(node)) {
      if (value === undefined || value === null) continue;
      if (key === 'AND' || key === 'OR') {
        for (const child of value as Filter[]) visit(child, insideOr || key === 'OR');
        continue;
      }
      const { field, op } = splitKey(key);
      if (!timeFields.includes(field)) continue;
      if (insideOr) throw parsingError(`${key}: the sandbox takes time bounds at the top level or in AND`);
      const bucket = TIME_DIMENSIONS[field]?.bucketMs ?? 1000;
      const at = timeValue(field, value);
      const floor = Math.floor(at / bucket) * bucket;
      const ceil = Math.ceil(at / bucket) * bucket;
      if (op === 'geq') raise(ceil);
      else if (op === 'gt') raise(floor + bucket);
      else if (op === 'leq') lower(floor + bucket - 1);
      else if (op === 'lt') lower(ceil - 1);
      else if (op === 'eq') {
        raise(floor);
        lower(floor + bucket - 1);
      } else throw parsingError(`${key}: unknown operator for a time field`);
    }
  };
  if (filter) visit(filter, false);
  return range;
}

function likeToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replaceAll('%', '.*').replaceAll('_', '.')}$`, 's');
}

type Value = string | number;

function comparator(op: Operator, expected: unknown): (actual: Value) => boolean {
  switch (op) {
    case 'eq':
      return (actual) => actual === expected;
    case 'neq':
      return (actual) => actual !== expected;
    case 'gt':
      return (actual) => actual > (expected as Value);
    case 'lt':
      return (actual) => actual < (expected as Value);
    case 'geq':
      return (actual) => actual >= (expected as Value);
    case 'leq':
      return (actual) => actual <= (expected as Value);
    case 'in':
      return (actual) => (expected as unknown[]).includes(actual);
    case 'notin':
      return (actual) => !(expected as unknown[]).includes(actual);
    case 'like': {
      const pattern = likeToRegExp(String(expected));
      return (actual) => pattern.test(String(actual));
    }
    case 'notlike': {
      const pattern = likeToRegExp(String(expected));
      return (actual) => !pattern.test(String(actual));
    }
  }
}

type Fields = Batch['fields'];

function compile(filter: Filter, timeFields: readonly string[]): (fields: Fields) => boolean {
  const checks: ((fields: Fields) => boolean)[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null) continue;
    if (key === 'AND' || key === 'OR') {
      const parts = (value as Filter[]).map((child) => compile(child, timeFields));
      if (key === 'AND') checks.push((fields) => parts.every((part) => part(fields)));
      else if (parts.length > 0) checks.push((fields) => parts.some((part) => part(fields)));
      continue;
    }
    const { field, op } = splitKey(key);
    if (timeFields.includes(field)) continue;
    const test = comparator(op, value);
    checks.push((fields) => {
      const actual = fields[field];
      return actual !== undefined && test(actual);
    });
  }
  return (fields) => checks.every((check) => check(fields));
}

/**
 * The filter's non-time conditions (time is applied by `timeRange`) as a test of a batch's fields,
 * remembered per fields object: generated batches share theirs, so most tests are a lookup.
 */
export function fieldTest(
  filter: Filter | undefined,
  timeFields: readonly string[],
): (fields: Fields) => boolean {
  if (!filter) return () => true;
  const test = compile(filter, timeFields);
  const seen = new Map<Fields, boolean>();
  return (fields) => {
    let passes = seen.get(fields);
    if (passes === undefined) {
      passes = test(fields);
      seen.set(fields, passes);
    }
    return passes;
  };
}

/** Cloudflare's Time without fractions, and Date. */
export const formatTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const formatBucket = (name: string, ms: number) => {
  const bucket = TIME_DIMENSIONS[name]!.bucketMs;
  const start = Math.floor(ms / bucket) * bucket;
  return name === 'date' ? formatTime(start).slice(0, 10) : formatTime(start);
};

interface Ordering {
  key: string;
  descending: boolean;
}

function orderingOf(orderBy: readonly string[] | undefined): Ordering[] {
  return (orderBy ?? []).map((value) => ({
    key: value.slice(0, value.lastIndexOf('_')),
    descending: value.endsWith('_DESC'),
  }));
}

function sortBy<T>(rows: T[], orderings: Ordering[], valueOf: (row: T, key: string) => string | number) {
  if (orderings.length === 0) return;
  rows.sort((a, b) => {
    for (const { key, descending } of orderings) {
      const x = valueOf(a, key);
      const y = valueOf(b, key);
      if (x !== y) return (x < y ? -1 : 1) * (descending ? -1 : 1);
    }
    return 0;
  });
}

/** `firewallEventsAdaptive`: single events, each with its time and a ray id. */
export function listEvents(
  batches: readonly Batch[],
  lo: number,
  hi: number,
  filter: Filter | undefined,
  timeFields: readonly string[],
  orderBy: readonly string[] | undefined,
  limit: number,
): Record<string, string | number>[] {
  const picked: { batch: Batch; index: number; time: number }[] = [];
  const passes = fieldTest(filter, timeFields);
  for (const batch of batches) {
    if (!passes(batch.fields)) continue;
    const { from, to } = eventsWithin(batch, lo, hi);
    for (let index = from; index < to; index++) picked.push({ batch, index, time: eventTime(batch, index) });
  }
  sortBy(picked, orderingOf(orderBy), (event, key) =>
    key === 'datetime' ? event.time : (event.batch.fields[key] ?? ''),
  );
  return picked.slice(0, limit).map(({ batch, index, time }) => ({
    ...batch.fields,
    datetime: formatTime(time),
    rayName:
      hash(`${batch.key}:${index}`).toString(16).padStart(8, '0') + batch.key.toString(16).padStart(8, '0'),
    sampleInterval: 1,
  }));
}

export interface GroupRow {
  count: number;
  dimensions: Record<string, string | number>;
  sum: Record<string, number>;
  avg: Record<string, number>;
  /** Percentiles of the group's requests (`edgeTimeToFirstByteMsP95`...): only datasets with quantiles. */
  quantiles: Record<string, number>;
}

/**
 * The value below which `level` of the requests fall, each batch's requests at the batch's mean (the
 * generator gives a batch one time): the smallest value whose requests, with the smaller ones', reach
 * the level.
 */
function percentile(values: { value: number; count: number }[], level: number): number {
  const total = values.reduce((sum, entry) => sum + entry.count, 0);
  if (total === 0) return 0;
  const sorted = [...values].sort((a, b) => a.value - b.value);
  let seen = 0;
  for (const entry of sorted) {
    seen += entry.count;
    if (seen >= level * total) return entry.value;
  }
  return sorted[sorted.length - 1]!.value;
}

/**
 * The `...Groups` datasets: counts (and sums, averages) grouped by the selected dimensions. A batch
 * inside one bucket of every selected time dimension adds in one step; only a finer time dimension than
 * the batch's span walks its events.
 */
export function groupEvents(
  batches: readonly Batch[],
  lo: number,
  hi: number,
  filter: Filter | undefined,
  timeFields: readonly string[],
  dimensions: readonly string[],
  orderBy: readonly string[] | undefined,
  limit: number,
  /** Whether the query selects `quantiles`: their spreads are gathered only then. */
  withQuantiles = true,
): GroupRow[] {
  // Time dimensions key on their bucket number; the text form is made once per group.
  const selected = dimensions.map((name) => ({ name, bucketMs: TIME_DIMENSIONS[name]?.bucketMs }));
  const timeBuckets = selected.flatMap(({ bucketMs }) => (bucketMs === undefined ? [] : [bucketMs]));
  const sameBuckets = (a: number, b: number) =>
    timeBuckets.every((bucketMs) => Math.floor(a / bucketMs) === Math.floor(b / bucketMs));
  const groups = new Map<
    string,
    {
      count: number;
      dimensions: Record<string, string | number>;
      totals: Record<string, number>;
      /** Per measure with quantiles, each batch's mean and how many requests it counts here. */
      spread: Record<string, { value: number; count: number }[]>;
    }
  >();
  // The non-time part of a group's key, once per (shared) fields object.
  const fieldKeys = new Map<Fields, string>();
  const add = (batch: Batch, at: number, count: number) => {
    let key = fieldKeys.get(batch.fields);
    if (key === undefined) {
      key = selected
        .map(({ name, bucketMs }) => (bucketMs === undefined ? batch.fields[name] : ''))
        .join('\u0001');
      fieldKeys.set(batch.fields, key);
    }
    for (const bucketMs of timeBuckets) key += `\u0001${Math.floor(at / bucketMs)}`;
    let group = groups.get(key);
    if (!group) {
      const values: Record<string, string | number> = {};
      for (const { name, bucketMs } of selected)
        values[name] = bucketMs === undefined ? batch.fields[name]! : formatBucket(name, at);
      group = { count: 0, dimensions: values, totals: {}, spread: {} };
      groups.set(key, group);
    }
    group.count += count;
    for (const name in batch.totals)
      group.totals[name] = (group.totals[name] ?? 0) + (batch.totals[name]! * count) / batch.count;
    if (withQuantiles)
      for (const measure of HTTP_REQUEST_QUANTILE_MEASURES) {
        const total = batch.totals[measure];
        if (total !== undefined) (group.spread[measure] ??= []).push({ value: total / batch.count, count });
      }
  };
  const passes = fieldTest(filter, timeFields);
  for (const batch of batches) {
    if (!passes(batch.fields)) continue;
    const { from, to } = eventsWithin(batch, lo, hi);
    if (to <= from) continue;
    const first = eventTime(batch, from);
    if (sameBuckets(first, eventTime(batch, to - 1))) {
      add(batch, first, to - from);
      continue;
    }
    // The events cross buckets of a time dimension finer than the batch: split it at the bucket edges
    // of the finest one (the coarser ones nest in it), a binary search per bucket, not a walk per event.
    const finest = Math.min(...timeBuckets);
    for (let index = from; index < to;) {
      const at = eventTime(batch, index);
      const edge = (Math.floor(at / finest) + 1) * finest;
      const next = Math.min(to, eventsWithin(batch, edge, Number.POSITIVE_INFINITY).from);
      add(batch, at, next - index);
      index = next;
    }
  }
  const rows: GroupRow[] = [...groups.values()].map((group) => ({
    count: group.count,
    dimensions: group.dimensions,
    sum: Object.fromEntries(Object.entries(group.totals).map(([name, total]) => [name, Math.round(total)])),
    avg: Object.fromEntries(Object.entries(group.totals).map(([name, total]) => [name, total / group.count])),
    quantiles: Object.fromEntries(
      Object.entries(group.spread).flatMap(([measure, values]) =>
        Object.entries(QUANTILE_LEVELS).map(([suffix, level]) => [
          `${measure}${suffix}`,
          percentile(values, level),
        ]),
      ),
    ),
  }));
  const orderings = orderingOf(orderBy);
  for (const { key } of orderings) {
    const dimension = !['count'].includes(key) && !key.startsWith('sum_') && !key.startsWith('avg_');
    if (dimension && !dimensions.includes(key))
      throw parsingError(`orderBy ${key}: order by a dimension the query selects`);
  }
  sortBy(rows, orderings, (row, key) =>
    key === 'count'
      ? row.count
      : key.startsWith('sum_')
        ? (row.sum[key.slice(4)] ?? 0)
        : key.startsWith('avg_')
          ? (row.avg[key.slice(4)] ?? 0)
          : (row.dimensions[key] ?? ''),
  );
  return rows.slice(0, limit);
}
