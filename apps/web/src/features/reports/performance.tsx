import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Latency, PerformanceReport } from '@guardian/contract';
import { BarTable } from '../../components/charts/bar-table';
import { ChartFrame } from '../../components/charts/chart-frame';
import { formatCount, formatMilliseconds, formatShare, type Bucket } from '../../components/charts/format';
import { TimeSeriesChart, type TimeSeries } from '../../components/charts/time-series-chart';
import { DataTable, TableCell, TableRow } from '../../components/ui/table';
import { useReportQuery } from '../../api/reports/report-query';
import { counted } from '../../lib/counted';
import { ReportFilters, ReportFrame } from './components/report-page';
import { ScopeLine } from './components/scope-line';
import { Totals } from './components/totals';
import { useReportFilters } from './lib/filters';
import { bucketTimes, seriesOfFields } from './lib/series';

const NO_REQUESTS = 'No requests in this range';
const NO_JOBS = 'No jobs ended in this range';

type Zones = NonNullable<PerformanceReport['zones']>;
type Timing = Zones['totals'];

/** The share of requests answered from the edge's cache; none without requests. */
const cachedShare = (row: Timing) => (row.requests === 0 ? null : row.cached_requests / row.requests);
const shareOrDash = (row: Timing) => {
  const share = cachedShare(row);
  return share === null ? '—' : formatShare(share);
};
const msOrDash = (value: number | null) => (value === null ? '—' : formatMilliseconds(value));

const LATENCIES: { key: keyof Latency; label: string }[] = [
  { key: 'avg', label: 'Mean' },
  { key: 'p50', label: 'p50' },
  { key: 'p95', label: 'p95' },
  { key: 'p99', label: 'p99' },
];

/**
 * Values of rows over `times`, one series per field: a time without a row is a gap (null), not a 0 (a
 * bucket without requests has no response time).
 */
function gappedSeries<R extends { time: string }>(
  rows: readonly R[],
  fields: { label: string; value: (row: R) => number | null }[],
  times: string[],
): TimeSeries[] {
  const byTime = new Map(rows.map((row) => [Date.parse(row.time), row]));
  return fields.map(({ label, value }) => ({
    label,
    values: times.map((time) => {
      const row = byTime.get(Date.parse(time));
      return row ? value(row) : null;
    }),
  }));
}

const latencyFields = (field: 'edge_ttfb_ms' | 'origin_ms') =>
  LATENCIES.map(({ key, label }) => ({ label, value: (row: Timing) => row[field][key] }));

/**
 * Dashboard > Performance (/dashboard/performance): how fast the person's zones answer and how much
 * their edge caches, from Cloudflare's analytics; and how Guardian itself does: jobs and token budgets.
 */
export default function PerformanceScreen() {
  const { query, set } = useReportFilters();
  const report = useReportQuery('performance', query);
  return (
    <ReportFrame
      title="Performance"
      description="Response times and caching of your zones from Cloudflare's analytics, and how Guardian's own work goes."
      filters={<ReportFilters query={query} onChange={set} />}
      report={report}
    >
      {(data) => (
        <>
          <ZonesPart report={data} />
          <GuardianPart report={data} />
        </>
      )}
    </ReportFrame>
  );
}

/** A part of the page under its own heading. */
function Part({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-4">
      <h2 id={id} className="border-b border-line pb-1 text-lg font-semibold tracking-tight text-ink">
        {title}
      </h2>
      {children}
    </section>
  );
}

function ZonesPart({ report }: { report: PerformanceReport }) {
  const { zones } = report;
  return (
    <Part id="performance-zones" title="Your zones">
      {zones ? (
        <ZonesView zones={zones} bucket={report.bucket} />
      ) : (
        <p
          role="status"
          className="rounded-card border border-line bg-surface px-4 py-6 text-sm text-ink-muted"
        >
          {report.zones_unavailable ?? "Cloudflare's analytics of your zones could not be read."}
        </p>
      )}
    </Part>
  );
}

function ZonesView({ zones, bucket }: { zones: Zones; bucket: Bucket }) {
  const times = useMemo(() => bucketTimes(zones.scope), [zones.scope]);
  const { edge, origin, cached } = useMemo(
    () => ({
      edge: gappedSeries(zones.over_time, latencyFields('edge_ttfb_ms'), times),
      origin: gappedSeries(zones.over_time, latencyFields('origin_ms'), times),
      cached: gappedSeries(zones.over_time, [{ label: 'Cached', value: cachedShare }], times),
    }),
    [zones.over_time, times],
  );
  const estimated = zones.percentiles_estimated
    ? 'Percentiles over several zones or hours are estimates (Cloudflare gives them per zone); the mean is exact'
    : undefined;
  // What every chart of the zones shares: their buckets and the words of an empty one.
  const overTime = { times, bucket, empty: NO_REQUESTS };
  const { totals } = zones;
  return (
    <>
      <ScopeLine scope={zones.scope} />
      <Totals
        items={[
          { label: 'Requests', value: formatCount(totals.requests) },
          { label: 'Cached', value: shareOrDash(totals) },
          { label: 'Edge p95', value: msOrDash(totals.edge_ttfb_ms.p95) },
          { label: 'Origin p95', value: msOrDash(totals.origin_ms.p95) },
        ]}
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <TimeSeriesChart
          {...overTime}
          title="Edge time to first byte"
          description={estimated ?? "Cloudflare's time to the first byte of its answer"}
          series={edge}
          format={formatMilliseconds}
        />
        <TimeSeriesChart
          {...overTime}
          title="Origin response time"
          description={estimated ?? 'Your servers’ time to answer the edge, over requests that reached them'}
          series={origin}
          format={formatMilliseconds}
        />
      </div>
      <TimeSeriesChart
        {...overTime}
        title="Cached share over time"
        description="Requests the edge answered from its cache"
        series={cached}
        format={formatShare}
      />
      <BarTable
        title="Busiest zones"
        rows={zones.by_zone}
        rowKey={(row) => row.zone_id}
        columns={[
          { header: 'Zone', cell: (row) => <span className="break-all">{row.domain}</span> },
          { header: 'Cached', cell: shareOrDash, className: 'text-right tabular-nums' },
          {
            header: 'Edge p95',
            cell: (row) => msOrDash(row.edge_ttfb_ms.p95),
            className: 'text-right tabular-nums',
          },
          {
            header: 'Origin p95',
            cell: (row) => msOrDash(row.origin_ms.p95),
            className: 'text-right tabular-nums',
          },
        ]}
        count={(row) => row.requests}
        countLabel="Requests"
        empty={NO_REQUESTS}
      />
    </>
  );
}

const JOB_FIELDS = [
  { field: 'succeeded' as const, label: 'Done' },
  { field: 'failed' as const, label: 'Failed' },
  { field: 'cancelled' as const, label: 'Cancelled' },
];
const jobsEnded = (row: { succeeded: number; failed: number; cancelled: number }) =>
  row.succeeded + row.failed + row.cancelled;

function GuardianPart({ report }: { report: PerformanceReport }) {
  const times = useMemo(() => bucketTimes(report), [report]);
  const jobs = useMemo(
    () => seriesOfFields(report.jobs.over_time, JOB_FIELDS, times),
    [report.jobs.over_time, times],
  );
  const { totals } = report.jobs;
  return (
    <Part id="performance-guardian" title="Guardian">
      <Totals
        items={[
          { label: 'Jobs ended', value: formatCount(jobsEnded(totals)) },
          ...JOB_FIELDS.map(({ field, label }) => ({
            label: `Jobs ${label.toLowerCase()}`,
            value: formatCount(totals[field]),
          })),
        ]}
      />
      <TimeSeriesChart
        title="Jobs over time"
        description="Your jobs by when they ended"
        times={times}
        series={jobs}
        bucket={report.bucket}
        empty={NO_JOBS}
        stacked
      />
      <BarTable
        title="Jobs by kind"
        description={
          <Link to="/dashboard/jobs" className="font-medium text-brand hover:underline">
            Open your jobs
          </Link>
        }
        rows={report.jobs.by_kind}
        rowKey={(row) => row.kind}
        columns={[
          { header: 'Kind', cell: (row) => row.label },
          ...JOB_FIELDS.map(({ field, label }) => ({
            header: label,
            cell: (row: Record<typeof field, number>) => formatCount(row[field]),
            className: 'text-right tabular-nums',
          })),
        ]}
        count={jobsEnded}
        countLabel="Jobs"
        empty={NO_JOBS}
      />
      <Budgets report={report} />
    </Part>
  );
}

/** A budget's window in words: 300 → "5 minutes". */
function windowWords(seconds: number): string {
  if (seconds % 3600 === 0) return counted(seconds / 3600, 'hour');
  if (seconds % 60 === 0) return counted(seconds / 60, 'minute');
  return counted(seconds, 'second');
}

const heldAt = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** A budget's use: how many of how many in its window, and a bar of its share. */
function BudgetUse({ use }: { use: PerformanceReport['budgets'][number]['rest'] }) {
  const share = use.limit === 0 ? 0 : Math.min(1, use.used / use.limit);
  return (
    <span className="grid gap-1">
      <span className="tabular-nums">
        {formatCount(use.used)} of {formatCount(use.limit)}{' '}
        <span className="text-ink-muted">per {windowWords(use.window_seconds)}</span>
      </span>
      <span aria-hidden="true" className="block h-2 w-full max-w-48 overflow-hidden rounded-full bg-canvas">
        <span
          className={
            share >= 0.9 ? 'block h-full rounded-full bg-danger' : 'block h-full rounded-full bg-brand'
          }
          style={{ width: `${share * 100}%` }}
        />
      </span>
    </span>
  );
}

/** Each account token's use of Guardian's budgets of Cloudflare calls, now. */
function Budgets({ report }: { report: PerformanceReport }) {
  const title = 'Request budgets per token';
  return (
    <ChartFrame
      title={title}
      description={
        <>
          Calls Guardian made with each account&apos;s token in the budget&apos;s window, now: REST calls and
          GraphQL analytics queries. Accounts sharing a token show the same use.
          {report.budgets_more > 0 && ` ${counted(report.budgets_more, 'more account')} not shown.`}
        </>
      }
    >
      <DataTable
        caption={title}
        columns={['Account', 'REST calls', 'Analytics queries', 'Held by Cloudflare']}
        rows={report.budgets}
        loadingText="Loading..."
        empty="You have no Cloudflare accounts yet."
      >
        {(row) => (
          <TableRow key={row.account_id}>
            <TableCell label="Account">{row.account_name}</TableCell>
            <TableCell label="REST calls">
              <BudgetUse use={row.rest} />
            </TableCell>
            <TableCell label="Analytics queries">
              <BudgetUse use={row.analytics} />
            </TableCell>
            <TableCell label="Held by Cloudflare">
              {row.held_until ? (
                <>
                  Until <time dateTime={row.held_until}>{heldAt.format(new Date(row.held_until))}</time>
                </>
              ) : (
                'No'
              )}
            </TableCell>
          </TableRow>
        )}
      </DataTable>
    </ChartFrame>
  );
}
