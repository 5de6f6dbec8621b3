import {
  ACTIVITY_BUCKETS,
  ACTIVITY_KIND_LABELS,
  ACTIVITY_KINDS,
  ADMIN_LEVEL,
  JOB_KIND_LABELS,
  REPORT_BUCKETS,
  REPORT_BUDGETS_MAX,
  REPORT_RANGE_SECONDS,
  REPORT_RECENT_EVENTS_MAX,
  REPORT_SERIES_MAX,
  REPORT_TOP_MAX,
  type ActivityKind,
  type ActivityLink,
  type ActivityQuery,
  type ActivityReport,
  type ErrorsReport,
  type JobKind,
  type Latency,
  type PerformanceReport,
  type OverviewReport,
  type OverviewTile,
  type ReportQuery,
  type ReportScope,
  type ReportTopRow,
  type SecurityReport,
  type TrafficReport,
} from '@guardian/contract';
import type { z } from 'zod';
import { AnswerCache } from '../../answer-cache';
import { AppError } from '../../app-error';
import { queryAnalytics, type AnalyticsDataset } from '../../cloudflare';
import type { AppDeps } from '../../deps';
import { AccountsRepository } from '../accounts';
import type { IpSearchService } from '../ip-search';
import { mapWithConcurrency } from '../rules-overview';
import { ReportPlanner, windowsOf, type QueryBatch, type ReportPlan, type ReportWindow } from './report-plan';
import {
  BLOCKING_ACTIONS,
  errorsAnswerSchema,
  errorsQuery,
  OVERVIEW_QUERY,
  overviewAnswerSchema,
  performanceAnswerSchema,
  performanceQuery,
  securityAnswerSchema,
  securityQuery,
  trafficAnswerSchema,
  trafficQuery,
  type BucketDimension,
} from './report-queries';
import { ReportsRepository, type ActivityFilter, type OutcomeCounts } from './reports.repository';

/** How long a report's answer is kept: a person switching tabs or ranges does not ask Cloudflare again. */
const REPORT_KEPT_MS = 60_000;
/** How long an Activity report is kept: it reads only the database, and a change just made should show soon. */
const ACTIVITY_KEPT_MS = 10_000;
/** Queries of one report in flight at once (each is a 10-zone query). */
const QUERY_CONCURRENCY = 4;
/** Rows of a series asked per zone (Cloudflare's maxPageSize may be lower). */
const SERIES_ROWS = 10_000;
/** Cache statuses whose request the edge answered from its cache. */
const CACHED_STATUSES = new Set(['hit', 'stale', 'revalidated', 'updating']);

const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** Counts by key, summed over zones and windows. */
class Tally<V> {
  private readonly rows = new Map<string, { value: V; count: number }>();
  add(key: string, value: V, count: number): void {
    const row = this.rows.get(key);
    if (row) row.count += count;
    else this.rows.set(key, { value, count });
  }
  /** The largest first (ties by key), at most `max`. */
  top(max: number): { value: V; count: number }[] {
    return [...this.rows.entries()]
      .sort(([keyA, a], [keyB, b]) => b.count - a.count || (keyA < keyB ? -1 : 1))
      .slice(0, max)
      .map(([, row]) => row);
  }
  all(): { key: string; value: V; count: number }[] {
    return [...this.rows.entries()].map(([key, row]) => ({ key, ...row }));
  }
}

/** A top table of plain values (countries, hosts, paths). */
const topRows = (tally: Tally<string>): ReportTopRow[] =>
  tally.top(REPORT_TOP_MAX).map(({ value, count }) => ({ value: cut(value, 2048), count }));

/** Cloudflare's time as ISO time, or '' when it is not one (such a row is left out). */
function isoTime(text: string): string {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? '' : new Date(ms).toISOString();
}

/** A bucket's start as ISO time: an hour's time as Cloudflare gives it, a day's date at midnight UTC. */
const bucketTime = (dimensions: { datetimeHour?: string; date?: string }) =>
  isoTime(dimensions.datetimeHour ?? (dimensions.date ? `${dimensions.date}T00:00:00Z` : ''));

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
/** The class of an HTTP status of 100-599. */
const statusClass = (status: number) => STATUS_CLASSES[Math.floor(status / 100) - 1]!;

/**
 * Response times merged over zones and windows: the mean exactly (weighted by requests), each
 * percentile weighted by requests (an estimate once it merges more than one part).
 */
class LatencyMerge {
  count = 0;
  /** Parts with requests merged: above 1, the percentiles are estimates. */
  parts = 0;
  private total = 0;
  private readonly levels = { p50: 0, p95: 0, p99: 0 };

  add(
    count: number,
    avg: number | undefined,
    quantiles: Record<string, number | undefined>,
    measure: string,
  ): void {
    if (count <= 0) return;
    this.count += count;
    this.parts += 1;
    this.total += (avg ?? 0) * count;
    this.levels.p50 += (quantiles[`${measure}P50`] ?? 0) * count;
    this.levels.p95 += (quantiles[`${measure}P95`] ?? 0) * count;
    this.levels.p99 += (quantiles[`${measure}P99`] ?? 0) * count;
  }

  figures(): Latency {
    if (this.count === 0) return { avg: null, p50: null, p95: null, p99: null };
    const ms = (sum: number) => Math.round((sum / this.count) * 10) / 10;
    return {
      avg: ms(this.total),
      p50: ms(this.levels.p50),
      p95: ms(this.levels.p95),
      p99: ms(this.levels.p99),
    };
  }
}

/** What Performance shows of a set of requests: its edge and origin times, and how many were cached. */
class Timing {
  readonly edge = new LatencyMerge();
  readonly origin = new LatencyMerge();
  cached = 0;

  figures() {
    return {
      requests: this.edge.count,
      cached_requests: Math.min(this.cached, this.edge.count),
      edge_ttfb_ms: this.edge.figures(),
      origin_ms: this.origin.figures(),
    };
  }
}

/** A query of one batch over one window. */
interface BatchWindow {
  batch: QueryBatch;
  window: ReportWindow;
  /** The newest window of its batch: where the sampled events are read. */
  newest: boolean;
}

/**
 * The Reports pages and the overview's tiles: Cloudflare's analytics of the person's own zones (the
 * planner finds them only through the person's accounts), 10 zones a query, answers kept a minute.
 */
/** The overview's part read from Cloudflare's analytics and Guardian's checks, kept a minute. */
interface OverviewAnalytics {
  tiles: Omit<OverviewReport, 'active_servers' | 'security_alerts'>;
  /** Of the top attacking addresses of the last 24 hours, those in none of the person's lists. */
  attackers: { unlisted: number; top: number } | null;
}

/** The overview's counts kept by other modules (servers, alerts), read live on every overview. */
export interface OverviewCounts {
  /** The person's servers heard from in the last 24 hours. */
  activeServers(userId: number): Promise<number>;
  /** The person's open alerts. */
  openAlerts(userId: number): Promise<number>;
}

export class ReportsService {
  private readonly planner: ReportPlanner;
  private readonly accounts: AccountsRepository;
  private readonly repository: ReportsRepository;
  private readonly answers: AnswerCache<object>;
  private readonly activityAnswers: AnswerCache<ActivityReport>;
  private readonly deps: AppDeps;

  constructor(
    deps: AppDeps,
    private readonly ipSearch: IpSearchService,
    private readonly counts: OverviewCounts,
  ) {
    this.planner = new ReportPlanner(deps);
    this.accounts = new AccountsRepository(deps.db);
    this.repository = new ReportsRepository(deps.db);
    this.answers = new AnswerCache(deps.answerCaches, { max: 500, ttl: REPORT_KEPT_MS });
    this.activityAnswers = new AnswerCache(deps.answerCaches, { max: 500, ttl: ACTIVITY_KEPT_MS });
    this.deps = deps;
  }

  async security(userId: number, query: ReportQuery): Promise<SecurityReport> {
    let read = false;
    const answer = await this.kept('security', userId, query, () => {
      read = true;
      return this.readSecurity(userId, query);
    });
    if (read) return answer;
    // The lists change under a kept answer (Ban everywhere from the report): which hold each address is
    // read again every time, so a ban shows at once and not a minute later.
    return { ...answer, top_source_ips: await this.withListedIn(userId, answer.top_source_ips) };
  }

  /** Each source IP with the person's lists holding it now (the IP Lists search). */
  private async withListedIn<T extends { ip: string }>(
    userId: number,
    rows: T[],
  ): Promise<(T & { listed_in: SecurityReport['top_source_ips'][number]['listed_in'] })[]> {
    const listed = await this.ipSearch.listsHolding(
      userId,
      rows.map((row) => row.ip),
      REPORT_TOP_MAX,
    );
    return rows.map((row) => ({
      ...row,
      listed_in: (listed.get(row.ip) ?? []).map((list) => ({
        account_id: list.accountId,
        list_id: list.listId,
        list_name: cut(list.listName, 100),
      })),
    }));
  }

  traffic(userId: number, query: ReportQuery): Promise<TrafficReport> {
    return this.kept('traffic', userId, query, () => this.readTraffic(userId, query));
  }

  errors(userId: number, query: ReportQuery): Promise<ErrorsReport> {
    return this.kept('errors', userId, query, () => this.readErrors(userId, query));
  }

  /**
   * A kept answer of the same person and question, read at most a minute ago (its scope says no
   * query was sent for it), or a new one.
   */
  private async kept<T extends { scope: ReportScope }>(
    kind: string,
    userId: number,
    query: ReportQuery,
    read: () => Promise<T>,
  ): Promise<T> {
    const key = JSON.stringify([kind, userId, query]);
    const kept = this.answers.get(key) as T | undefined;
    if (kept) return { ...kept, scope: { ...kept.scope, cloudflare_queries: 0 } };
    const answer = await read();
    this.answers.set(key, answer);
    return answer;
  }

  /**
   * Runs `query` for every batch and window of the plan, a few at a time. A query with a series is
   * given `$seriesLimit`: the rows of the dataset's page on the zones' plan, up to SERIES_ROWS.
   */
  private async run<S extends z.ZodType>(
    plan: ReportPlan,
    dataset: AnalyticsDataset,
    schema: S,
    queryOf: (part: BatchWindow) => { query: string; variables: Record<string, unknown>; series?: false },
  ): Promise<{ answers: { part: BatchWindow; data: z.infer<S> }[]; queries: number }> {
    const parts: BatchWindow[] = plan.batches.flatMap((batch) =>
      windowsOf(plan, batch.settings[dataset]!).map((window, index) => ({
        batch,
        window,
        newest: index === 0,
      })),
    );
    const answers = await mapWithConcurrency(parts, QUERY_CONCURRENCY, async (part) => {
      const { query, variables, series } = queryOf(part);
      const limits = part.batch.settings[dataset]!;
      const data = await queryAnalytics(
        part.batch.client,
        query,
        {
          zoneTags: part.batch.zoneTags,
          since: part.window.since.toISOString(),
          until: part.window.until.toISOString(),
          ...(series === false ? {} : { seriesLimit: Math.min(SERIES_ROWS, limits.maxPageSize) }),
          ...variables,
        },
        schema,
      );
      return { part, data };
    });
    return { answers, queries: plan.queries + parts.length };
  }

  private scopeOf(plan: ReportPlan, queries: number): ReportScope {
    return { ...plan.scope, cloudflare_queries: queries, read_at: new Date().toISOString() };
  }

  private async readSecurity(userId: number, query: ReportQuery): Promise<SecurityReport> {
    const plan = await this.planner.plan(userId, query, 'firewallEventsAdaptiveGroups');
    const bucket = bucketOf(query);
    let eventsSince = plan.until;
    const { answers, queries } = await this.run(
      plan,
      'firewallEventsAdaptiveGroups',
      securityAnswerSchema,
      (part) => {
        const events = part.batch.settings.firewallEventsAdaptive;
        if (!part.newest || !events?.enabled) return { query: securityQuery(bucket, false), variables: {} };
        // The sampled events reach back as far as one query of them may, within the report's range.
        const reach = Math.min(events.maxDuration, events.notOlderThan) * 1000;
        const since = new Date(Math.max(plan.since.getTime(), plan.until.getTime() - reach));
        if (since < eventsSince) eventsSince = since;
        return {
          query: securityQuery(bucket, true),
          variables: {
            eventsSince: since.toISOString(),
            eventsLimit: Math.min(REPORT_RECENT_EVENTS_MAX, events.maxPageSize),
          },
        };
      },
    );

    const series = new Tally<{ time: string; action: string }>();
    const byAction = new Tally<string>();
    const bySource = new Tally<string>();
    const ips = new Tally<{ ip: string; country: string; asn: string }>();
    const asns = new Tally<{ asn: string; description: string }>();
    const countries = new Tally<string>();
    const hosts = new Tally<string>();
    const paths = new Tally<string>();
    const rules = new Tally<{ zone_id: string; rule_id: string; source: string; description: string }>();
    const events: SecurityReport['recent_events'] = [];
    for (const { data } of answers) {
      for (const zone of data.viewer.zones) {
        for (const row of zone.overTime) {
          const time = bucketTime(row.dimensions);
          if (!time) continue;
          series.add(
            `${time}\u0000${row.dimensions.action}`,
            { time, action: row.dimensions.action },
            row.count,
          );
        }
        for (const row of zone.byAction)
          byAction.add(row.dimensions.action!, row.dimensions.action!, row.count);
        for (const row of zone.bySource)
          bySource.add(row.dimensions.source!, row.dimensions.source!, row.count);
        for (const { count, dimensions: d } of zone.topIps)
          ips.add(d.clientIP, { ip: d.clientIP, country: d.clientCountryName, asn: d.clientAsn }, count);
        for (const { count, dimensions: d } of zone.topAsns)
          asns.add(d.clientAsn, { asn: d.clientAsn, description: d.clientASNDescription }, count);
        for (const row of zone.topCountries)
          countries.add(row.dimensions.clientCountryName!, row.dimensions.clientCountryName!, row.count);
        for (const row of zone.topHosts)
          hosts.add(row.dimensions.clientRequestHTTPHost!, row.dimensions.clientRequestHTTPHost!, row.count);
        for (const row of zone.topPaths)
          paths.add(row.dimensions.clientRequestPath!, row.dimensions.clientRequestPath!, row.count);
        for (const { count, dimensions: d } of zone.topRules) {
          // Events no rule matched (security level, IP access rules) name none.
          if (!d.ruleId) continue;
          rules.add(
            `${zone.zoneTag}\u0000${d.ruleId}`,
            { zone_id: zone.zoneTag, rule_id: d.ruleId, source: d.source, description: d.description },
            count,
          );
        }
        for (const event of zone.events ?? [])
          if (isoTime(event.datetime))
            events.push({
              time: isoTime(event.datetime),
              zone_id: zone.zoneTag,
              action: cut(event.action, 64),
              source: cut(event.source, 64),
              ip: cut(event.clientIP, 64),
              country: cut(event.clientCountryName, 64),
              asn: cut(event.clientAsn, 16),
              host: cut(event.clientRequestHTTPHost, 253),
              method: cut(event.clientRequestHTTPMethodName, 16),
              path: cut(event.clientRequestPath, 2048),
              rule_id: cut(event.ruleId, 64),
              description: cut(event.description, 500),
              ray_id: cut(event.rayName, 64),
              sample_interval: event.sampleInterval,
              sampled: event.sampleInterval > 1,
            });
      }
    }
    const topIps = await this.withListedIn(
      userId,
      ips.top(REPORT_TOP_MAX).map(({ value, count }) => ({
        ip: cut(value.ip, 64),
        count,
        country: cut(value.country, 64),
        asn: cut(value.asn, 16),
      })),
    );
    return {
      scope: this.scopeOf(plan, queries),
      total: byAction.all().reduce((sum, row) => sum + row.count, 0),
      over_time: series
        .all()
        .map(({ value, count }) => ({ time: value.time, action: cut(value.action, 64), count }))
        .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.action < b.action ? -1 : 1))
        .slice(0, REPORT_SERIES_MAX),
      by_action: byAction.top(REPORT_TOP_MAX).map(({ value, count }) => ({ action: cut(value, 64), count })),
      by_source: bySource.top(REPORT_TOP_MAX).map(({ value, count }) => ({ source: cut(value, 64), count })),
      top_source_ips: topIps,
      top_asns: asns.top(REPORT_TOP_MAX).map(({ value, count }) => ({
        asn: cut(value.asn, 16),
        description: cut(value.description, 256),
        count,
      })),
      top_countries: topRows(countries),
      top_hosts: topRows(hosts),
      top_paths: topRows(paths),
      top_rules: rules.top(REPORT_TOP_MAX).map(({ value, count }) => ({
        zone_id: value.zone_id,
        rule_id: cut(value.rule_id, 64),
        source: cut(value.source, 64),
        description: cut(value.description, 500),
        count,
      })),
      recent_events: events
        .sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0))
        .slice(0, REPORT_RECENT_EVENTS_MAX),
      recent_events_since: eventsSince.toISOString(),
    };
  }

  /** The queries of a report of the person's HTTP requests: its plan, each answer, what it cost. */
  private async readRequests<S extends z.ZodType>(
    userId: number,
    query: ReportQuery,
    schema: S,
    queryOf: (bucket: ReturnType<typeof bucketOf>) => string,
  ) {
    const plan = await this.planner.plan(userId, query, 'httpRequestsAdaptiveGroups');
    const text = queryOf(bucketOf(query));
    const run = await this.run(plan, 'httpRequestsAdaptiveGroups', schema, () => ({
      query: text,
      variables: {},
    }));
    return { plan, ...run };
  }

  private async readTraffic(userId: number, query: ReportQuery): Promise<TrafficReport> {
    const { plan, answers, queries } = await this.readRequests(
      userId,
      query,
      trafficAnswerSchema,
      trafficQuery,
    );
    const series = new Map<string, TrafficReport['over_time'][number]>();
    const cache = new Tally<string>();
    const classes = new Tally<ReturnType<typeof statusClass>>();
    const countries = new Tally<string>();
    const hosts = new Tally<string>();
    const paths = new Tally<string>();
    for (const { data } of answers) {
      for (const zone of data.viewer.zones) {
        for (const row of zone.overTime) {
          const time = bucketTime(row.dimensions);
          if (!time) continue;
          let point = series.get(time);
          if (!point)
            series.set(time, (point = { time, requests: 0, cached_requests: 0, bytes: 0, visits: 0 }));
          point.requests += row.count;
          if (CACHED_STATUSES.has(row.dimensions.cacheStatus)) point.cached_requests += row.count;
          point.bytes += row.sum.edgeResponseBytes;
          point.visits += row.sum.visits;
        }
        for (const row of zone.byCache)
          cache.add(row.dimensions.cacheStatus!, row.dimensions.cacheStatus!, row.count);
        for (const row of zone.byStatus) {
          const status = row.dimensions.edgeResponseStatus;
          if (status >= 100 && status < 600) classes.add(statusClass(status), statusClass(status), row.count);
        }
        for (const row of zone.topCountries)
          countries.add(row.dimensions.clientCountryName!, row.dimensions.clientCountryName!, row.count);
        for (const row of zone.topHosts)
          hosts.add(row.dimensions.clientRequestHTTPHost!, row.dimensions.clientRequestHTTPHost!, row.count);
        for (const row of zone.topPaths)
          paths.add(row.dimensions.clientRequestPath!, row.dimensions.clientRequestPath!, row.count);
      }
    }
    const overTime = [...series.values()]
      .sort((a, b) => (a.time < b.time ? -1 : 1))
      .slice(0, REPORT_SERIES_MAX);
    const sum = (field: 'requests' | 'cached_requests' | 'bytes' | 'visits') =>
      [...series.values()].reduce((total, point) => total + point[field], 0);
    return {
      scope: this.scopeOf(plan, queries),
      totals: {
        requests: sum('requests'),
        cached_requests: sum('cached_requests'),
        bytes: sum('bytes'),
        visits: sum('visits'),
      },
      over_time: overTime,
      by_cache_status: cache.top(REPORT_TOP_MAX).map(({ value, count }) => ({
        cache_status: cut(value, 64),
        cached: CACHED_STATUSES.has(value),
        count,
      })),
      by_status_class: classes
        .all()
        .map(({ value, count }) => ({ status_class: value, count }))
        .sort((a, b) => (a.status_class < b.status_class ? -1 : 1)),
      top_countries: topRows(countries),
      top_hosts: topRows(hosts),
      top_paths: topRows(paths),
    };
  }

  private async readErrors(userId: number, query: ReportQuery): Promise<ErrorsReport> {
    const { plan, answers, queries } = await this.readRequests(
      userId,
      query,
      errorsAnswerSchema,
      errorsQuery,
    );
    const series = new Map<string, ErrorsReport['over_time'][number]>();
    const statuses = new Tally<number>();
    const paths = new Tally<string>();
    const hosts = new Tally<string>();
    const totals = { requests: 0, client_errors: 0, server_errors: 0, origin_errors: 0, edge_errors: 0 };
    for (const { data } of answers) {
      for (const zone of data.viewer.zones) {
        totals.requests += zone.total[0]?.count ?? 0;
        for (const row of zone.overTime) {
          const time = bucketTime(row.dimensions);
          if (!time) continue;
          let point = series.get(time);
          if (!point) series.set(time, (point = { time, client_errors: 0, server_errors: 0 }));
          if (row.dimensions.edgeResponseStatus >= 500) point.server_errors += row.count;
          else point.client_errors += row.count;
        }
        for (const { count, dimensions: d } of zone.byStatus) {
          statuses.add(String(d.edgeResponseStatus), d.edgeResponseStatus, count);
          if (d.edgeResponseStatus >= 500) {
            totals.server_errors += count;
            // No origin status: the edge answered on its own (it could not reach the origin, or refused).
            if (d.originResponseStatus >= 500) totals.origin_errors += count;
            else if (d.originResponseStatus === 0) totals.edge_errors += count;
          } else totals.client_errors += count;
        }
        for (const row of zone.topPaths)
          paths.add(row.dimensions.clientRequestPath!, row.dimensions.clientRequestPath!, row.count);
        for (const row of zone.topHosts)
          hosts.add(row.dimensions.clientRequestHTTPHost!, row.dimensions.clientRequestHTTPHost!, row.count);
      }
    }
    return {
      scope: this.scopeOf(plan, queries),
      totals,
      over_time: [...series.values()].sort((a, b) => (a.time < b.time ? -1 : 1)).slice(0, REPORT_SERIES_MAX),
      by_status: statuses.top(REPORT_TOP_MAX).map(({ value, count }) => ({ status: value, count })),
      top_paths: topRows(paths),
      top_hosts: topRows(hosts),
    };
  }

  /**
   * Guardian's own changes as chart data, from the trail alone: the person's (`mine`), or everyone's
   * for an administrator. Two grouped statements whatever the trail holds; kept 10 seconds.
   */
  async activity(user: { id: number; level: number }, query: ActivityQuery): Promise<ActivityReport> {
    const everyone = query.scope === 'everyone';
    if (everyone && user.level !== ADMIN_LEVEL)
      throw new AppError('FORBIDDEN', "Only administrators see everyone's activity.");
    if (query.account_id) {
      const known = everyone
        ? await this.repository.accountExists(query.account_id)
        : await this.accounts.findOwnedByCloudflareId(user.id, query.account_id);
      if (!known) throw new AppError('NOT_FOUND', 'Account not found.');
    }
    const key = JSON.stringify(['activity', user.id, query]);
    const kept = this.activityAnswers.get(key);
    if (kept) return kept;

    const until = new Date();
    const since = new Date(until.getTime() - REPORT_RANGE_SECONDS[query.range] * 1000);
    const filter: ActivityFilter = {
      since,
      until,
      bucket: ACTIVITY_BUCKETS[query.range],
      tz: query.tz,
      userId: everyone ? undefined : user.id,
      accountId: query.account_id,
      kinds: ACTIVITY_KINDS.filter((kind) => kind !== 'other'),
    };
    let series: Awaited<ReturnType<ReportsRepository['activitySeries']>>;
    let people: Awaited<ReturnType<ReportsRepository['activityByPerson']>>;
    try {
      series = await this.repository.activitySeries(filter);
      people = await this.repository.activityByPerson(filter, REPORT_TOP_MAX);
    } catch (err) {
      // A name Intl knows and the database's time zone table does not (22023): the person's words.
      if ((err as { code?: unknown }).code === '22023')
        throw new AppError('BAD_REQUEST', `Unknown time zone: ${query.tz}.`);
      throw err;
    }

    const link = (more: Omit<ActivityLink['filters'], 'from' | 'to' | 'account_id'> = {}): ActivityLink => ({
      path: everyone ? '/admin/activity' : '/dashboard/activity',
      filters: {
        from: since.toISOString(),
        to: until.toISOString(),
        ...(query.account_id ? { account_id: query.account_id } : {}),
        ...more,
      },
    });
    const totals: OutcomeCounts = { success: 0, refused: 0, failed: 0 };
    const kinds = new Map<ActivityKind, OutcomeCounts>();
    const addTo = (sum: OutcomeCounts, row: OutcomeCounts) => {
      sum.success += row.success;
      sum.refused += row.refused;
      sum.failed += row.failed;
    };
    for (const row of series) {
      addTo(totals, row);
      let kind = kinds.get(row.kind);
      if (!kind) kinds.set(row.kind, (kind = { success: 0, refused: 0, failed: 0 }));
      addTo(kind, row);
    }
    const all = (counts: OutcomeCounts) => counts.success + counts.refused + counts.failed;
    const answer: ActivityReport = {
      range: query.range,
      scope: query.scope,
      since: since.toISOString(),
      until: until.toISOString(),
      bucket: filter.bucket,
      tz: query.tz,
      totals,
      over_time: series
        .map((row) => ({
          time: new Date(row.time).toISOString(),
          kind: row.kind,
          success: row.success,
          refused: row.refused,
          failed: row.failed,
        }))
        .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.kind < b.kind ? -1 : 1)),
      by_kind: [...kinds.entries()]
        .sort(([kindA, a], [kindB, b]) => all(b) - all(a) || (kindA < kindB ? -1 : 1))
        .map(([kind, counts]) => ({
          kind,
          label: ACTIVITY_KIND_LABELS[kind],
          ...counts,
          link: link(kind === 'other' ? {} : { action: `${kind}.` }),
        })),
      by_person: people.people.map((person) => ({
        user_id: person.userId,
        email: person.email === null ? null : cut(person.email, 254),
        success: person.success,
        refused: person.refused,
        failed: person.failed,
        // The Activity table selects a person by their whole e-mail; one's own needs no filter.
        link: person.email === null ? null : everyone ? link({ actor: cut(person.email, 254) }) : link(),
      })),
      by_person_more: Math.max(0, people.total - people.people.length),
      link: link(),
      read_at: new Date().toISOString(),
    };
    this.activityAnswers.set(key, answer);
    return answer;
  }

  /**
   * Dashboard > Performance: the zones' response times and cached share (Cloudflare's analytics, as
   * the other reports read it), the person's jobs, and their tokens' budgets. Another person's
   * account or zone is 404 before anything is read; Cloudflare's refusal of the zones' part (a plan
   * without it, its budget) leaves that part out with the reason, the rest still answers.
   */
  performance(userId: number, query: ReportQuery): Promise<PerformanceReport> {
    const key = JSON.stringify(['performance', userId, query]);
    const kept = this.answers.get(key) as PerformanceReport | undefined;
    if (kept)
      return Promise.resolve(
        kept.zones
          ? { ...kept, zones: { ...kept.zones, scope: { ...kept.zones.scope, cloudflare_queries: 0 } } }
          : kept,
      );
    return this.readPerformance(userId, query).then((answer) => {
      this.answers.set(key, answer);
      return answer;
    });
  }

  private async readPerformance(userId: number, query: ReportQuery): Promise<PerformanceReport> {
    const owned = await this.planner.zonesOf(userId, query);
    let zones: PerformanceReport['zones'] = null;
    let unavailable: string | null = null;
    try {
      zones = await this.readZoneTimes(userId, query);
    } catch (err) {
      if (!(err instanceof AppError) || err.code === 'NOT_FOUND') throw err;
      unavailable = err.message;
    }
    const until = zones ? new Date(zones.scope.until) : new Date();
    const since = new Date(until.getTime() - REPORT_RANGE_SECONDS[query.range] * 1000);
    const bucket = REPORT_BUCKETS[query.range];

    // The accounts the report covers: the one asked for, the zone's, or all the person's.
    const accountRef = query.zone_id ? owned[0]?.account.id : undefined;
    let accounts = await this.accounts.listForUser(userId);
    if (query.account_id) accounts = accounts.filter((account) => account.accountId === query.account_id);
    else if (accountRef !== undefined) accounts = accounts.filter((account) => account.id === accountRef);

    const jobRows = await this.repository.jobSeries(
      userId,
      { since, until, bucket },
      query.account_id || query.zone_id ? (accounts[0]?.id ?? -1) : undefined,
    );
    const jobTotals = { succeeded: 0, failed: 0, cancelled: 0 };
    const jobTimes = new Map<string, PerformanceReport['jobs']['over_time'][number]>();
    const jobKinds = new Map<string, PerformanceReport['jobs']['by_kind'][number]>();
    for (const row of jobRows) {
      const time = new Date(row.time).toISOString();
      let point = jobTimes.get(time);
      if (!point) jobTimes.set(time, (point = { time, succeeded: 0, failed: 0, cancelled: 0 }));
      let kind = jobKinds.get(row.kind);
      if (!kind)
        jobKinds.set(
          row.kind,
          (kind = {
            kind: cut(row.kind, 64),
            label: cut(JOB_KIND_LABELS[row.kind as JobKind] ?? row.kind, 100),
            succeeded: 0,
            failed: 0,
            cancelled: 0,
          }),
        );
      for (const sum of [jobTotals, point, kind]) {
        sum.succeeded += row.succeeded;
        sum.failed += row.failed;
        sum.cancelled += row.cancelled;
      }
    }

    const shown = accounts.slice(0, REPORT_BUDGETS_MAX);
    const budgets = shown.map((account) =>
      this.deps.cloudflare.budgetsOf(this.deps.tokenCipher.decrypt(account.tokenEncrypted)),
    );
    const use = await this.repository.budgetUse(budgets.flatMap((budget) => [budget.rest, budget.analytics]));
    const useOf = (budget: { key: string; requests: number; windowMs: number }) => ({
      used: use.get(budget.key)?.used ?? 0,
      limit: budget.requests,
      window_seconds: Math.round(budget.windowMs / 1000),
    });
    const heldUntil = (budget: (typeof budgets)[number]) => {
      const times = [use.get(budget.rest.key)?.blockedUntil, use.get(budget.analytics.key)?.blockedUntil]
        .filter((time): time is Date => time instanceof Date)
        .map((time) => time.getTime());
      return times.length === 0 ? null : new Date(Math.max(...times)).toISOString();
    };

    return {
      range: query.range,
      since: since.toISOString(),
      until: until.toISOString(),
      bucket,
      zones,
      zones_unavailable: unavailable === null ? null : cut(unavailable, 500),
      jobs: {
        totals: jobTotals,
        over_time: [...jobTimes.values()]
          .sort((a, b) => (a.time < b.time ? -1 : 1))
          .slice(0, REPORT_SERIES_MAX),
        by_kind: [...jobKinds.values()]
          .sort((a, b) => b.succeeded + b.failed + b.cancelled - (a.succeeded + a.failed + a.cancelled))
          .slice(0, REPORT_TOP_MAX),
      },
      budgets: shown.map((account, index) => ({
        account_id: account.accountId,
        account_name: cut(account.accountName, 255),
        rest: useOf(budgets[index]!.rest),
        analytics: useOf(budgets[index]!.analytics),
        held_until: heldUntil(budgets[index]!),
      })),
      budgets_more: accounts.length - shown.length,
      read_at: new Date().toISOString(),
    };
  }

  /** The zones' part of Performance: one query per 10 zones and window, every part an alias. */
  private async readZoneTimes(
    userId: number,
    query: ReportQuery,
  ): Promise<NonNullable<PerformanceReport['zones']>> {
    const plan = await this.planner.plan(userId, query, 'httpRequestsAdaptiveGroups');
    const text = performanceQuery(bucketOf(query));
    const { answers, queries } = await this.run(
      plan,
      'httpRequestsAdaptiveGroups',
      performanceAnswerSchema,
      () => ({
        query: text,
        variables: { cached: [...CACHED_STATUSES] },
      }),
    );
    const domains = new Map(plan.zones.map((zone) => [zone.zone.zoneId, zone.zone.domain]));
    const totals = new Timing();
    const series = new Map<string, Timing>();
    const zones = new Map<string, Timing>();
    const at = (time: string) => {
      let point = series.get(time);
      if (!point) series.set(time, (point = new Timing()));
      return point;
    };
    for (const { data } of answers)
      for (const zone of data.viewer.zones) {
        let byZone = zones.get(zone.zoneTag);
        if (!byZone) zones.set(zone.zoneTag, (byZone = new Timing()));
        for (const row of zone.edge)
          for (const timing of [totals, byZone])
            timing.edge.add(row.count, row.avg.edgeTimeToFirstByteMs, row.quantiles, 'edgeTimeToFirstByteMs');
        for (const row of zone.origin)
          for (const timing of [totals, byZone])
            timing.origin.add(
              row.count,
              row.avg.originResponseDurationMs,
              row.quantiles,
              'originResponseDurationMs',
            );
        for (const row of zone.cached) for (const timing of [totals, byZone]) timing.cached += row.count;
        for (const row of zone.edgeOverTime) {
          const time = bucketTime(row.dimensions);
          if (time)
            at(time).edge.add(
              row.count,
              row.avg.edgeTimeToFirstByteMs,
              row.quantiles,
              'edgeTimeToFirstByteMs',
            );
        }
        for (const row of zone.originOverTime) {
          const time = bucketTime(row.dimensions);
          if (time)
            at(time).origin.add(
              row.count,
              row.avg.originResponseDurationMs,
              row.quantiles,
              'originResponseDurationMs',
            );
        }
        for (const row of zone.cachedOverTime) {
          const time = bucketTime(row.dimensions);
          if (time) at(time).cached += row.count;
        }
      }
    const all = [totals, ...series.values(), ...zones.values()];
    return {
      scope: this.scopeOf(plan, queries),
      totals: totals.figures(),
      over_time: [...series.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .slice(0, REPORT_SERIES_MAX)
        .map(([time, timing]) => ({ time, ...timing.figures() })),
      by_zone: [...zones.entries()]
        .sort(([tagA, a], [tagB, b]) => b.edge.count - a.edge.count || (tagA < tagB ? -1 : 1))
        .slice(0, REPORT_TOP_MAX)
        .map(([zoneId, timing]) => ({
          zone_id: zoneId,
          domain: cut(domains.get(zoneId) ?? '', 253),
          ...timing.figures(),
        })),
      percentiles_estimated: all.some((timing) => timing.edge.parts > 1 || timing.origin.parts > 1),
    };
  }

  /**
   * The overview's tiles; a tile whose source fails or does not exist says why instead of a number. The
   * analytics are kept a minute; the servers and alerts counts are read every time (an alert just
   * acknowledged, a server just registered show at once).
   */
  async overview(userId: number): Promise<OverviewReport> {
    const [analytics, activeServers, openAlerts] = await Promise.all([
      this.overviewAnalytics(userId),
      this.counts.activeServers(userId),
      this.counts.openAlerts(userId),
    ]);
    const { attackers } = analytics;
    return {
      ...analytics.tiles,
      active_servers: {
        value: activeServers,
        unit: 'count',
        detail: 'Servers that reported in the last 24 hours',
        unavailable: null,
      },
      security_alerts: {
        value: openAlerts,
        unit: 'count',
        detail:
          attackers === null
            ? 'Open alerts'
            : `Open alerts; ${attackers.unlisted} of the ${attackers.top} top attacking addresses of the last 24 hours are in none of your lists`,
        unavailable: null,
      },
    };
  }

  private async overviewAnalytics(userId: number): Promise<OverviewAnalytics> {
    const key = JSON.stringify(['overview', userId]);
    const kept = this.answers.get(key) as OverviewAnalytics | undefined;
    if (kept) return kept;

    const zones = await this.planner.zonesOf(userId, {});
    let blocked: OverviewTile;
    let attackers: OverviewAnalytics['attackers'] = null;
    let reachable: { passed: boolean; detail: string } | undefined;
    if (zones.length === 0) {
      const none = 'No zones yet: add a Cloudflare account with zones to see its security events.';
      blocked = {
        value: null,
        unit: 'count',
        detail: 'Blocked or challenged in the last 24 hours',
        unavailable: none,
      };
    } else {
      try {
        const { blockedCount, unlisted, attackers: top, zoneCount } = await this.readOverview(userId);
        blocked = {
          value: blockedCount,
          unit: 'count',
          detail: `Blocked or challenged in the last 24 hours on ${zoneCount} zone${zoneCount === 1 ? '' : 's'}`,
          unavailable: null,
        };
        attackers = { unlisted, top };
        reachable = { passed: true, detail: "Cloudflare's analytics answered." };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        blocked = {
          value: null,
          unit: 'count',
          detail: 'Blocked or challenged in the last 24 hours',
          unavailable: err.message,
        };
        // A plan without security analytics is no failure of Cloudflare's.
        reachable = err.code === 'BAD_REQUEST' ? undefined : { passed: false, detail: err.message };
      }
    }

    const checks: OverviewReport['system_health']['checks'] = [];
    const accounts = await this.accounts.listForUser(userId);
    if (accounts.length > 0) {
      const valid = accounts.filter(
        (account) => account.tokenStatus === null || account.tokenStatus === 'active',
      );
      checks.push({
        name: 'Account API tokens valid',
        passed: valid.length === accounts.length,
        detail: `${valid.length} of ${accounts.length} account API token${accounts.length === 1 ? '' : 's'} valid`,
      });
    }
    if (reachable) checks.push({ name: 'Cloudflare reachable', ...reachable });
    const jobs = await this.repository.jobOutcomes(userId, new Date(Date.now() - 86_400_000));
    const ended = jobs.succeeded + jobs.failed;
    checks.push({
      name: 'Jobs succeeding',
      passed: jobs.failed === 0,
      detail:
        ended === 0
          ? 'No job ended in the last 24 hours'
          : `${jobs.succeeded} of ${ended} job${ended === 1 ? '' : 's'} of the last 24 hours succeeded`,
    });
    const passed = checks.filter((check) => check.passed).length;
    const answer: OverviewAnalytics = {
      attackers,
      tiles: {
        blocked_threats: blocked,
        system_health: {
          value: Math.round((passed / checks.length) * 1000) / 10,
          unit: 'percent',
          detail: `${passed} of ${checks.length} of Guardian's checks pass`,
          unavailable: null,
          checks,
        },
        read_at: new Date().toISOString(),
      },
    };
    this.answers.set(key, answer);
    return answer;
  }

  private async readOverview(userId: number) {
    const plan = await this.planner.plan(userId, { range: '24h' }, 'firewallEventsAdaptiveGroups');
    const { answers } = await this.run(plan, 'firewallEventsAdaptiveGroups', overviewAnswerSchema, () => ({
      query: OVERVIEW_QUERY,
      variables: { blocking: BLOCKING_ACTIONS },
      series: false,
    }));
    let blockedCount = 0;
    const ips = new Tally<string>();
    for (const { data } of answers)
      for (const zone of data.viewer.zones) {
        blockedCount += zone.blocked[0]?.count ?? 0;
        for (const row of zone.topIps) ips.add(row.dimensions.clientIP, row.dimensions.clientIP, row.count);
      }
    const attackers = ips.top(REPORT_TOP_MAX).map(({ value }) => value);
    const listed = await this.ipSearch.listsHolding(userId, attackers, 1);
    const unlisted = attackers.filter((ip) => (listed.get(ip) ?? []).length === 0).length;
    return { blockedCount, unlisted, attackers: attackers.length, zoneCount: plan.scope.zone_count };
  }
}

/** Cloudflare's time dimension of the range's bucket. */
const bucketOf = (query: ReportQuery): BucketDimension =>
  REPORT_BUCKETS[query.range] === 'day' ? 'date' : 'datetimeHour';
