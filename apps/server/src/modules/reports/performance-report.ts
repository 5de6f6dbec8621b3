import {
  JOB_KIND_LABELS,
  REPORT_BUCKETS,
  REPORT_BUDGETS_MAX,
  REPORT_RANGE_SECONDS,
  REPORT_SERIES_MAX,
  REPORT_TOP_MAX,
  type JobKind,
  type Latency,
  type PerformanceReport,
  type ReportQuery,
} from '@guardian/contract';
import { AppError } from '../../app-error';
import type { AppDeps } from '../../deps';
import { AccountsRepository } from '../accounts';
import { performanceAnswerSchema, performanceQuery, type PerformanceAnswer } from './report-queries';
import {
  bucketTime,
  byZone,
  CACHED_STATUSES,
  cut,
  domainsOf,
  entryOf,
  keptScope,
  type ReportReader,
} from './report-reading';
import { ReportsRepository } from './reports.repository';

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

type ZoneAnswer = PerformanceAnswer['viewer']['zones'][number];

/**
 * The two response times of an answer's zone, each over the window (`total`) and per bucket
 * (`overTime`), and where a Timing keeps it: one loop reads both.
 */
const MEASURES = [
  { side: 'edge', total: 'edge', overTime: 'edgeOverTime', measure: 'edgeTimeToFirstByteMs' },
  { side: 'origin', total: 'origin', overTime: 'originOverTime', measure: 'originResponseDurationMs' },
] as const satisfies readonly {
  side: 'edge' | 'origin';
  total: keyof ZoneAnswer;
  overTime: keyof ZoneAnswer;
  measure: string;
}[];

/**
 * Dashboard > Performance: the zones' response times and cached share (Cloudflare's analytics, as the
 * other reports read it), the person's jobs, and their tokens' budgets.
 */
export class PerformanceReports {
  private readonly accounts: AccountsRepository;
  private readonly repository: ReportsRepository;

  constructor(
    private readonly deps: AppDeps,
    private readonly reader: ReportReader,
  ) {
    this.accounts = new AccountsRepository(deps.db);
    this.repository = new ReportsRepository(deps.db);
  }

  /**
   * Another person's account or zone is 404 before anything is read; Cloudflare's refusal of the zones'
   * part (a plan without it, its budget) leaves that part out with the reason, the rest still answers.
   */
  read(userId: number, query: ReportQuery): Promise<PerformanceReport> {
    return this.reader.answers.kept(
      ['performance', userId, query],
      () => this.readNew(userId, query),
      (kept) =>
        kept.zones ? { ...kept, zones: { ...kept.zones, scope: keptScope(kept.zones.scope) } } : kept,
    );
  }

  private async readNew(userId: number, query: ReportQuery): Promise<PerformanceReport> {
    const owned = await this.reader.planner.zonesOf(userId, query);
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
    const { plan, answers, queries } = await this.reader.readRequests(
      userId,
      query,
      performanceAnswerSchema,
      performanceQuery,
      { cached: [...CACHED_STATUSES] },
    );
    const totals = new Timing();
    const series = new Map<string, Timing>();
    const zones = new Map<string, Timing>();
    const at = (time: string) => entryOf(series, time, () => new Timing());
    for (const { data } of answers)
      for (const zone of data.viewer.zones) {
        const byZone = entryOf(zones, zone.zoneTag, () => new Timing());
        for (const { side, total, overTime, measure } of MEASURES) {
          for (const row of zone[total])
            for (const timing of [totals, byZone])
              timing[side].add(row.count, row.avg[measure], row.quantiles, measure);
          for (const row of zone[overTime]) {
            const time = bucketTime(row.dimensions);
            if (time) at(time)[side].add(row.count, row.avg[measure], row.quantiles, measure);
          }
        }
        for (const row of zone.cached) for (const timing of [totals, byZone]) timing.cached += row.count;
        for (const row of zone.cachedOverTime) {
          const time = bucketTime(row.dimensions);
          if (time) at(time).cached += row.count;
        }
      }
    const all = [totals, ...series.values(), ...zones.values()];
    return {
      scope: this.reader.scopeOf(plan, queries),
      totals: totals.figures(),
      over_time: [...series.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .slice(0, REPORT_SERIES_MAX)
        .map(([time, timing]) => ({ time, ...timing.figures() })),
      by_zone: byZone(
        domainsOf(plan),
        zones,
        (timing) => timing.edge.count,
        (timing) => timing.figures(),
      ).rows,
      percentiles_estimated: all.some((timing) => timing.edge.parts > 1 || timing.origin.parts > 1),
    };
  }
}
