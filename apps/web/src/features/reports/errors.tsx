import { useMemo } from 'react';
import type { ErrorsReport, ReportQuery } from '@guardian/contract';
import { BarTable } from '../../components/charts/bar-table';
import { formatCount, formatShare } from '../../components/charts/format';
import { TimeSeriesChart } from '../../components/charts/time-series-chart';
import { useReportQuery } from '../../api/reports/report-query';
import { ByZone } from './components/by-zone';
import { ReportPage } from './components/report-page';
import { TopHostsAndPaths } from './components/top-values';
import { Totals } from './components/totals';
import { bucketTimes, seriesOfFields } from './lib/series';

const EMPTY = 'No errors in this range';
const useErrorsReport = (query: ReportQuery) => useReportQuery('errors', query);

/** Reports > Errors (/reports/errors): the 4xx and 5xx answers of the person's zones. */
export default function ErrorsReportScreen() {
  return (
    <ReportPage
      title="Errors"
      description="4xx and 5xx answers of your zones from Cloudflare's analytics, and whether the edge or the origin failed."
      useReport={useErrorsReport}
    >
      {(report) => <ErrorsView report={report} />}
    </ReportPage>
  );
}

function ErrorsView({ report }: { report: ErrorsReport }) {
  const times = useMemo(() => bucketTimes(report.scope), [report.scope]);
  const overTime = useMemo(
    () =>
      seriesOfFields(
        report.over_time,
        [
          { field: 'client_errors', label: '4xx' },
          { field: 'server_errors', label: '5xx' },
        ],
        times,
      ),
    [report.over_time, times],
  );
  const { totals } = report;
  const share = (part: number) => (totals.requests === 0 ? '—' : formatShare(part / totals.requests));
  return (
    <>
      <Totals
        items={[
          { label: 'Requests', value: formatCount(totals.requests) },
          { label: '4xx', value: `${formatCount(totals.client_errors)} (${share(totals.client_errors)})` },
          { label: '5xx', value: `${formatCount(totals.server_errors)} (${share(totals.server_errors)})` },
        ]}
      />
      <TimeSeriesChart
        title="Errors over time"
        description="4xx and 5xx answers"
        times={times}
        series={overTime}
        bucket={report.scope.bucket}
        empty={EMPTY}
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <BarTable
          title="By status"
          rows={report.by_status}
          rowKey={(row) => String(row.status)}
          columns={[{ header: 'Status', cell: (row) => row.status }]}
          count={(row) => row.count}
          countLabel="Requests"
          empty={EMPTY}
        />
        <BarTable
          title="Edge or origin"
          description="5xx answers: from your origin, or from Cloudflare's edge with no answer from the origin"
          rows={[
            { where: 'Origin', count: totals.origin_errors },
            { where: 'Edge', count: totals.edge_errors },
          ].filter((row) => totals.server_errors > 0 || row.count > 0)}
          rowKey={(row) => row.where}
          columns={[{ header: 'Answered by', cell: (row) => row.where }]}
          count={(row) => row.count}
          countLabel="5xx"
          empty="No 5xx in this range"
        />
        <TopHostsAndPaths report={report} countLabel="Errors" empty={EMPTY} />
      </div>
      <ByZone
        rows={report.by_zone}
        more={report.by_zone_more}
        columns={[
          { header: '4xx', cell: (row) => formatCount(row.client_errors) },
          { header: '5xx', cell: (row) => formatCount(row.server_errors) },
          { header: 'Requests', cell: (row) => formatCount(row.requests) },
        ]}
        count={(row) => row.client_errors + row.server_errors}
        countLabel="Errors"
        empty={EMPTY}
      />
    </>
  );
}
