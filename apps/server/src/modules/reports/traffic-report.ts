import {
  REPORT_SERIES_MAX,
  REPORT_TOP_MAX,
  type ReportQuery,
  type ReportScope,
  type TrafficReport,
} from '@guardian/contract';
import type { z } from 'zod';
import { trafficAnswerSchema, trafficQuery } from './report-queries';
import {
  bucketTime,
  byZone,
  CACHED_STATUSES,
  cut,
  entryOf,
  RequestsFold,
  Tally,
  TopHostsAndPaths,
  topRows,
  type BatchWindow,
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
 * status, status class, country, host and path. Read progressively (ReportReader.progressive).
 */
export class TrafficFold extends RequestsFold<typeof trafficAnswerSchema, TrafficReport> {
  private readonly totals = noFigures();
  private readonly series = new Map<string, Figures>();
  private readonly zones = new Map<string, Figures>();
  private readonly cache = new Tally<string>();
  private readonly classes = new Tally<ReturnType<typeof statusClass>>();
  private readonly countries = new Tally<string>();
  private readonly hostsAndPaths = new TopHostsAndPaths();

  constructor(query: ReportQuery) {
    super(trafficAnswerSchema, query, trafficQuery);
  }

  add(_part: BatchWindow, data: z.infer<typeof trafficAnswerSchema>): void {
    for (const zone of data.viewer.zones) {
      const ofZone = entryOf(this.zones, zone.zoneTag, noFigures);
      for (const row of zone.overTime) {
        const time = bucketTime(row.dimensions);
        if (!time) continue;
        const cached = CACHED_STATUSES.has(row.dimensions.cacheStatus) ? row.count : 0;
        for (const sum of [this.totals, ofZone, entryOf(this.series, time, noFigures)]) {
          sum.requests += row.count;
          sum.cached_requests += cached;
          sum.bytes += row.sum.edgeResponseBytes;
          sum.visits += row.sum.visits;
        }
      }
      for (const row of zone.byCache)
        this.cache.add(row.dimensions.cacheStatus!, row.dimensions.cacheStatus!, row.count);
      for (const row of zone.byStatus) {
        const status = row.dimensions.edgeResponseStatus;
        if (status >= 100 && status < 600)
          this.classes.add(statusClass(status), statusClass(status), row.count);
      }
      tallyValues(this.countries, zone.topCountries, (row) => row.dimensions.clientCountryName);
      this.hostsAndPaths.add(zone);
    }
  }

  report(scope: ReportScope, domains: ReadonlyMap<string, string>): TrafficReport {
    const busiest = byZone(
      domains,
      this.zones,
      (figures) => figures.requests,
      (figures) => ({ ...figures }),
    );
    return {
      scope,
      totals: { ...this.totals },
      over_time: [...this.series.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .slice(0, REPORT_SERIES_MAX)
        .map(([time, figures]) => ({ time, ...figures })),
      by_cache_status: this.cache.top(REPORT_TOP_MAX).map(({ value, count }) => ({
        cache_status: cut(value, 64),
        cached: CACHED_STATUSES.has(value),
        count,
      })),
      by_status_class: this.classes
        .all()
        .map(({ value, count }) => ({ status_class: value, count }))
        .sort((a, b) => (a.status_class < b.status_class ? -1 : 1)),
      by_zone: busiest.rows,
      by_zone_more: busiest.more,
      top_countries: topRows(this.countries),
      ...this.hostsAndPaths.rows(),
    };
  }
}
