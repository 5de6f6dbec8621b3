import { REPORT_SERIES_MAX, REPORT_TOP_MAX, type ErrorsReport, type ReportQuery } from '@guardian/contract';
import { errorsAnswerSchema, errorsQuery } from './report-queries';
import {
  bucketTime,
  byZone,
  entryOf,
  Tally,
  topRows,
  type ReportReader,
  tallyValues,
} from './report-reading';

const noTotals = (): ErrorsReport['totals'] => ({
  requests: 0,
  client_errors: 0,
  server_errors: 0,
  origin_errors: 0,
  edge_errors: 0,
});

/**
 * /reports/errors: the person's zones' 4xx and 5xx over time, by status, by zone (each zone's answer
 * has its own counts: no query more), path and host; the 5xx the origin answered and the edge's own.
 */
export class ErrorsReports {
  constructor(private readonly reader: ReportReader) {}

  read(userId: number, query: ReportQuery): Promise<ErrorsReport> {
    return this.reader.report('errors', userId, query, () => this.readNew(userId, query));
  }

  private async readNew(userId: number, query: ReportQuery): Promise<ErrorsReport> {
    const { plan, answers, queries } = await this.reader.readRequests(
      userId,
      query,
      errorsAnswerSchema,
      errorsQuery,
    );
    const series = new Map<string, ErrorsReport['over_time'][number]>();
    const statuses = new Tally<number>();
    const paths = new Tally<string>();
    const hosts = new Tally<string>();
    const totals = noTotals();
    const zones = new Map<string, ErrorsReport['totals']>();
    for (const { data } of answers) {
      for (const zone of data.viewer.zones) {
        const ofZone = entryOf(zones, zone.zoneTag, noTotals);
        for (const sum of [totals, ofZone]) sum.requests += zone.total[0]?.count ?? 0;
        for (const row of zone.overTime) {
          const time = bucketTime(row.dimensions);
          if (!time) continue;
          const point = entryOf(series, time, () => ({ time, client_errors: 0, server_errors: 0 }));
          if (row.dimensions.edgeResponseStatus >= 500) point.server_errors += row.count;
          else point.client_errors += row.count;
        }
        for (const { count, dimensions: d } of zone.byStatus) {
          statuses.add(String(d.edgeResponseStatus), d.edgeResponseStatus, count);
          for (const sum of [totals, ofZone]) {
            if (d.edgeResponseStatus >= 500) {
              sum.server_errors += count;
              // No origin status: the edge answered on its own (it could not reach the origin, or refused).
              if (d.originResponseStatus >= 500) sum.origin_errors += count;
              else if (d.originResponseStatus === 0) sum.edge_errors += count;
            } else sum.client_errors += count;
          }
        }
        tallyValues(paths, zone.topPaths, (row) => row.dimensions.clientRequestPath);
        tallyValues(hosts, zone.topHosts, (row) => row.dimensions.clientRequestHTTPHost);
      }
    }
    const worst = byZone(
      plan,
      zones,
      (figures) => figures.client_errors + figures.server_errors,
      (figures) => figures,
    );
    return {
      scope: this.reader.scopeOf(plan, queries),
      totals,
      over_time: [...series.values()].sort((a, b) => (a.time < b.time ? -1 : 1)).slice(0, REPORT_SERIES_MAX),
      by_status: statuses.top(REPORT_TOP_MAX).map(({ value, count }) => ({ status: value, count })),
      by_zone: worst.rows,
      by_zone_more: worst.more,
      top_paths: topRows(paths),
      top_hosts: topRows(hosts),
    };
  }
}
