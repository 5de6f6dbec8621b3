import { useMemo } from 'react';
import type { ReportQuery, TrafficReport } from '@guardian/contract';
import { BarTable } from '../../components/charts/bar-table';
import { formatBytes, formatCount, formatShare } from '../../components/charts/format';
import { TimeSeriesChart } from '../../components/charts/time-series-chart';
import { useReportQuery } from '../../api/reports/report-query';
import { ByZone } from './components/by-zone';
import { ReportPage } from './components/report-page';
import { TopValues } from './components/top-values';
import { Totals } from './components/totals';
import { bucketTimes, seriesOfFields } from './lib/series';

const EMPTY = 'No requests in this range';
/** What every bar table of the report shares: its count's header and the words of an empty one. */
const BAR_TABLES = { countLabel: 'Requests', empty: EMPTY };
const useTrafficReport = (query: ReportQuery) => useReportQuery('traffic', query);

/** Reports > Traffic (/reports/traffic): requests, bandwidth, cache and visitors of the person's zones. */
export default function TrafficReportScreen() {
  return (
    <ReportPage
      title="Traffic"
      description="Requests of your zones from Cloudflare's analytics: how many, how much, how much was cached."
      useReport={useTrafficReport}
    >
      {(report) => <TrafficView report={report} />}
    </ReportPage>
  );
}

function TrafficView({ report }: { report: TrafficReport }) {
  const times = useMemo(() => bucketTimes(report.scope), [report.scope]);
  const requests = useMemo(
    () =>
      seriesOfFields(
        report.over_time.map((row) => ({ ...row, uncached: row.requests - row.cached_requests })),
        [
          { field: 'cached_requests', label: 'Cached' },
          { field: 'uncached', label: 'Not cached' },
        ],
        times,
      ),
    [report.over_time, times],
  );
  const bandwidth = useMemo(
    () => seriesOfFields(report.over_time, [{ field: 'bytes', label: 'Bandwidth' }], times),
    [report.over_time, times],
  );
  const visits = useMemo(
    () => seriesOfFields(report.over_time, [{ field: 'visits', label: 'Visits' }], times),
    [report.over_time, times],
  );
  // What every chart of the report shares: its buckets and the words of an empty one.
  const overTime = { times, bucket: report.scope.bucket, empty: EMPTY };
  const { totals } = report;
  return (
    <>
      <Totals
        items={[
          { label: 'Requests', value: formatCount(totals.requests) },
          {
            label: 'Cached',
            value: totals.requests === 0 ? '—' : formatShare(totals.cached_requests / totals.requests),
          },
          { label: 'Bandwidth', value: formatBytes(totals.bytes) },
          { label: 'Visits', value: formatCount(totals.visits) },
        ]}
      />
      <TimeSeriesChart
        {...overTime}
        title="Requests over time"
        description="Cached and not cached"
        series={requests}
        stacked
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <TimeSeriesChart {...overTime} title="Bandwidth over time" series={bandwidth} format={formatBytes} />
        <TimeSeriesChart
          {...overTime}
          title="Visitors over time"
          description="Visits: requests that began a visit (Cloudflare's count)"
          series={visits}
        />
        <BarTable
          title="By cache status"
          rows={report.by_cache_status}
          rowKey={(row) => row.cache_status}
          columns={[
            { header: 'Cache status', cell: (row) => row.cache_status },
            { header: 'Cached', cell: (row) => (row.cached ? 'Yes' : 'No') },
          ]}
          count={(row) => row.count}
          {...BAR_TABLES}
        />
        <BarTable
          title="By status class"
          rows={report.by_status_class}
          rowKey={(row) => row.status_class}
          columns={[{ header: 'Status', cell: (row) => row.status_class }]}
          count={(row) => row.count}
          {...BAR_TABLES}
        />
        <TopValues title="Top countries" header="Country" rows={report.top_countries} {...BAR_TABLES} />
        <TopValues title="Top hosts" header="Host" rows={report.top_hosts} {...BAR_TABLES} kind="host" />
      </div>
      <ByZone
        rows={report.by_zone}
        more={report.by_zone_more}
        columns={[
          {
            header: 'Cached',
            cell: (row) => (row.requests === 0 ? '—' : formatShare(row.cached_requests / row.requests)),
          },
          { header: 'Bandwidth', cell: (row) => formatBytes(row.bytes) },
          { header: 'Visits', cell: (row) => formatCount(row.visits) },
        ]}
        count={(row) => row.requests}
        {...BAR_TABLES}
      />
      <TopValues title="Top paths" header="Path" rows={report.top_paths} {...BAR_TABLES} kind="path" />
    </>
  );
}
