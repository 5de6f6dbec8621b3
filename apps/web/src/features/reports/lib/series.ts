import type { ReportScope } from '@guardian/contract';
import type { TimeSeries } from '../../../components/charts/time-series-chart';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** A bound on the buckets drawn, whatever the scope says (30 days of hours at most). */
const BUCKETS_MAX = 30 * 24;

/**
 * Every bucket of the report's range, oldest first, as ISO times: a bucket Cloudflare had no row for
 * is a 0 on the chart, not a line drawn across the gap. Hours start on the hour, days at midnight UTC
 * (as Cloudflare's `date` dimension counts them).
 */
export function bucketTimes(scope: Pick<ReportScope, 'since' | 'until' | 'bucket'>): string[] {
  const step = scope.bucket === 'hour' ? HOUR_MS : DAY_MS;
  const since = Date.parse(scope.since);
  const until = Date.parse(scope.until);
  if (Number.isNaN(since) || Number.isNaN(until)) return [];
  const times: string[] = [];
  for (let at = Math.floor(since / step) * step; at <= until && times.length < BUCKETS_MAX; at += step)
    times.push(new Date(at).toISOString());
  return times;
}

/** Rows of (time, kind, count) as one series per kind over `times`, the largest kind first. */
export function seriesByKind<R extends { time: string; count: number }>(
  rows: readonly R[],
  kindOf: (row: R) => string,
  times: string[],
  labelOf: (kind: string) => string = (kind) => kind,
): TimeSeries[] {
  const index = new Map(times.map((time, i) => [Date.parse(time), i]));
  const byKind = new Map<string, number[]>();
  for (const row of rows) {
    const at = index.get(Date.parse(row.time));
    if (at === undefined) continue;
    const kind = kindOf(row);
    const values = byKind.get(kind) ?? times.map(() => 0);
    values[at] = (values[at] ?? 0) + row.count;
    byKind.set(kind, values);
  }
  const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0);
  return [...byKind.entries()]
    .sort((a, b) => total(b[1]) - total(a[1]))
    .map(([kind, values]) => ({ label: labelOf(kind), values }));
}

/** Rows with several counts per time as one series per field over `times`. */
export function seriesOfFields<R extends { time: string }, F extends keyof R & string>(
  rows: readonly R[],
  fields: { field: F; label: string }[],
  times: string[],
): TimeSeries[] {
  const index = new Map(times.map((time, i) => [Date.parse(time), i]));
  return fields.map(({ field, label }) => {
    const values = times.map(() => 0);
    for (const row of rows) {
      const at = index.get(Date.parse(row.time));
      if (at !== undefined) values[at] = (values[at] ?? 0) + Number(row[field]);
    }
    return { label, values };
  });
}
