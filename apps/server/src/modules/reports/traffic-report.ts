import { REPORT_SERIES_MAX, REPORT_TOP_MAX, type ReportQuery, type TrafficReport } from '@guardian/contract';
import { trafficAnswerSchema, trafficQuery } from './report-queries';
import {
  bucketTime,
  byZone,
  CACHED_STATUSES,
  cut,
  entryOf,
  Tally,
  topRows,
  type ReportReader,
  tallyValues,
} from './report-reading';

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
/** The class of an HTTP status of 100-599. */
const statusClass = (status: number) => STATUS_CLASSES[Math.floor(status / 100) - 1]!;

type Figures = Omit<TrafficReport['over_time'][number], 'time'>;
const noFigures = (): Figures => ({ requests: 0, cached_requests: 0, bytes: 0, visits: 0 });

/**
 * /reports/traffic: the person's zones' requests, bandwidth, cached share and visits over time and by
 * zone (both from the series' rows, which each zone's answer has apart: no query more), by cache
 * status, status class, country, host and path.
 */
export class TrafficReports {
  constructor(private readonly reader: ReportReader) {}

  read(userId: number, query: ReportQuery): Promise<TrafficReport> {
    return this.reader.report('traffic', userId, query, () => this.readNew(userId, query));
  }

  private async readNew(userId: number, query: ReportQuery): Promise<TrafficReport> {
    const { plan, answers, queries } = await this.reader.readRequests(
      userId,
      query,
      trafficAnswerSchema,
      trafficQuery,
    );
    const totals = noFigures();
    const series = new Map<string, Figures>();
    const zones = new Map<string, Figures>();
    const cache = new Tally<string>();
    const classes = new Tally<ReturnType<typeof statusClass>>();
    const countries = new Tally<string>();
    const hosts = new Tally<string>();
    const paths = new Tally<string>();
    for (const { data } of answers) {
      for (const zone of data.viewer.zones) {
        const ofZone = entryOf(zones, zone.zoneTag, noFigures);
        for (const row of zone.overTime) {
          const time = bucketTime(row.dimensions);
          if (!time) continue;
          const cached = CACHED_STATUSES.has(row.dimensions.cacheStatus) ? row.count : 0;
          for (const sum of [totals, ofZone, entryOf(series, time, noFigures)]) {
            sum.requests += row.count;
            sum.cached_requests += cached;
            sum.bytes += row.sum.edgeResponseBytes;
            sum.visits += row.sum.visits;
          }
        }
        for (const row of zone.byCache)
          cache.add(row.dimensions.cacheStatus!, row.dimensions.cacheStatus!, row.count);
        for (const row of zone.byStatus) {
          const status = row.dimensions.edgeResponseStatus;
          if (status >= 100 && status < 600) classes.add(statusClass(status), statusClass(status), row.count);
        }
        tallyValues(countries, zone.topCountries, (row) => row.dimensions.clientCountryName);
        tallyValues(hosts, zone.topHosts, (row) => row.dimensions.clientRequestHTTPHost);
        tallyValues(paths, zone.topPaths, (row) => row.dimensions.clientRequestPath);
      }
    }
    const busiest = byZone(
      plan,
      zones,
      (figures) => figures.requests,
      (figures) => figures,
    );
    return {
      scope: this.reader.scopeOf(plan, queries),
      totals,
      over_time: [...series.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .slice(0, REPORT_SERIES_MAX)
        .map(([time, figures]) => ({ time, ...figures })),
      by_cache_status: cache.top(REPORT_TOP_MAX).map(({ value, count }) => ({
        cache_status: cut(value, 64),
        cached: CACHED_STATUSES.has(value),
        count,
      })),
      by_status_class: classes
        .all()
        .map(({ value, count }) => ({ status_class: value, count }))
        .sort((a, b) => (a.status_class < b.status_class ? -1 : 1)),
      by_zone: busiest.rows,
      by_zone_more: busiest.more,
      top_countries: topRows(countries),
      top_hosts: topRows(hosts),
      top_paths: topRows(paths),
    };
  }
}
