import {
  REPORT_SERIES_MAX,
  REPORT_TOP_MAX,
  type ErrorsReport,
  type ReportQuery,
  type ReportScope,
} from '@guardian/contract';
import type { z } from 'zod';
import { errorsAnswerSchema, errorsQuery } from './report-queries';
import {
  bucketTime,
  byZone,
  entryOf,
  RequestsFold,
  Tally,
  TopHostsAndPaths,
  type BatchWindow,
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
 * Read progressively (ReportReader.progressive).
 */
export class ErrorsFold extends RequestsFold<typeof errorsAnswerSchema, ErrorsReport> {
  private readonly series = new Map<string, ErrorsReport['over_time'][number]>();
  private readonly statuses = new Tally<number>();
  private readonly hostsAndPaths = new TopHostsAndPaths();
  private readonly totals = noTotals();
  private readonly zones = new Map<string, ErrorsReport['totals']>();

  constructor(query: ReportQuery) {
    super(errorsAnswerSchema, query, errorsQuery);
  }

  add(_part: BatchWindow, data: z.infer<typeof errorsAnswerSchema>): void {
    for (const zone of data.viewer.zones) {
      const ofZone = entryOf(this.zones, zone.zoneTag, noTotals);
      for (const sum of [this.totals, ofZone]) sum.requests += zone.total[0]?.count ?? 0;
      for (const row of zone.overTime) {
        const time = bucketTime(row.dimensions);
        if (!time) continue;
        const point = entryOf(this.series, time, () => ({ time, client_errors: 0, server_errors: 0 }));
        if (row.dimensions.edgeResponseStatus >= 500) point.server_errors += row.count;
        else point.client_errors += row.count;
      }
      for (const { count, dimensions: d } of zone.byStatus) {
        this.statuses.add(String(d.edgeResponseStatus), d.edgeResponseStatus, count);
        for (const sum of [this.totals, ofZone]) {
          if (d.edgeResponseStatus >= 500) {
            sum.server_errors += count;
            // No origin status: the edge answered on its own (it could not reach the origin, or refused).
            if (d.originResponseStatus >= 500) sum.origin_errors += count;
            else if (d.originResponseStatus === 0) sum.edge_errors += count;
          } else sum.client_errors += count;
        }
      }
      this.hostsAndPaths.add(zone);
    }
  }

  report(scope: ReportScope, domains: ReadonlyMap<string, string>): ErrorsReport {
    const worst = byZone(
      domains,
      this.zones,
      (figures) => figures.client_errors + figures.server_errors,
      (figures) => ({ ...figures }),
    );
    return {
      scope,
      totals: { ...this.totals },
      over_time: [...this.series.values()]
        .map((point) => ({ ...point }))
        .sort((a, b) => (a.time < b.time ? -1 : 1))
        .slice(0, REPORT_SERIES_MAX),
      by_status: this.statuses.top(REPORT_TOP_MAX).map(({ value, count }) => ({ status: value, count })),
      by_zone: worst.rows,
      by_zone_more: worst.more,
      ...this.hostsAndPaths.rows(),
    };
  }
}
