import {
  REPORT_BUCKETS,
  REPORT_TOP_MAX,
  type ReportQuery,
  type ReportScope,
  type ReportTopRow,
} from '@guardian/contract';
import type { z } from 'zod';
import { AnswerCache } from '../../answer-cache';
import { queryAnalytics, type AnalyticsDataset } from '../../cloudflare';
import type { AnswerCaches, AppDeps } from '../../deps';
import { mapWithConcurrency } from '../rules-overview';
import {
  QUERY_CONCURRENCY,
  ReportPlanner,
  windowsOf,
  type QueryBatch,
  type ReportPlan,
  type ReportWindow,
} from './report-plan';
import type { BucketDimension } from './report-queries';

/*
 * What every report shares: the planner (the person's zones, 10 a query, their limits kept an hour),
 * the running of a report's queries over its batches and windows, the keeping of answers, and the
 * small figures helpers the reports merge their answers with.
 */

/** How long a report's answer is kept: a person switching tabs or ranges does not ask Cloudflare again. */
export const REPORT_KEPT_MS = 60_000;
/** Rows of a series asked per zone (Cloudflare's maxPageSize may be lower). */
const SERIES_ROWS = 10_000;
/** Cache statuses whose request the edge answered from its cache. */
export const CACHED_STATUSES = new Set(['hit', 'stale', 'revalidated', 'updating']);

export const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** Counts by key, summed over zones and windows. */
export class Tally<V> {
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

/** Counts rows by a plain value a dimension gives them (a country, a host, a path), the value its own key. */
export function tallyValues<R extends { count: number }>(
  tally: Tally<string>,
  rows: readonly R[],
  valueOf: (row: R) => string | null | undefined,
): void {
  for (const row of rows) {
    const value = valueOf(row)!;
    tally.add(value, value, row.count);
  }
}

/** A top table of plain values (countries, hosts, paths). */
export const topRows = (tally: Tally<string>): ReportTopRow[] =>
  tally.top(REPORT_TOP_MAX).map(({ value, count }) => ({ value: cut(value, 2048), count }));

/** Cloudflare's time as ISO time, or '' when it is not one (such a row is left out). */
export function isoTime(text: string): string {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? '' : new Date(ms).toISOString();
}

/** A bucket's start as ISO time: an hour's time as Cloudflare gives it, a day's date at midnight UTC. */
export const bucketTime = (dimensions: { datetimeHour?: string; date?: string }) =>
  isoTime(dimensions.datetimeHour ?? (dimensions.date ? `${dimensions.date}T00:00:00Z` : ''));

/** Cloudflare's time dimension of the range's bucket. */
export const bucketOf = (query: ReportQuery): BucketDimension =>
  REPORT_BUCKETS[query.range] === 'day' ? 'date' : 'datetimeHour';

/**
 * Per-zone figures of a report as `shown`, each zone named by its domain (the plan's zones), the
 * largest `size` first: at most `max` rows, and how many zones more there are.
 */
export function byZone<T, R extends object>(
  plan: ReportPlan,
  zones: ReadonlyMap<string, T>,
  size: (figures: T) => number,
  shown: (figures: T) => R,
  max = REPORT_TOP_MAX,
): { rows: ({ zone_id: string; domain: string } & R)[]; more: number } {
  const domains = new Map(plan.zones.map((zone) => [zone.zone.zoneId, zone.zone.domain]));
  const rows = [...zones.entries()]
    .sort(([tagA, a], [tagB, b]) => size(b) - size(a) || (tagA < tagB ? -1 : 1))
    .slice(0, max)
    .map(([zoneId, figures]) => ({
      zone_id: zoneId,
      domain: cut(domains.get(zoneId) ?? '', 253),
      ...shown(figures),
    }));
  return { rows, more: Math.max(0, zones.size - max) };
}

/** The entry of `map` under `key`, made by `make` the first time. */
export function entryOf<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

/** A query of one batch over one window. */
export interface BatchWindow {
  batch: QueryBatch;
  window: ReportWindow;
  /** The newest window of its batch: where the sampled events are read. */
  newest: boolean;
}

/**
 * Answers kept per person and question for `ttl`: a kept one is given to `again` (a report marks it
 * as costing no query; the security report reads its addresses' lists anew), a new one is read.
 */
export class KeptAnswers {
  private readonly answers: AnswerCache<object>;
  /**
   * Reads under way, by key: the same question asked again meanwhile waits for that reading instead
   * of sending its own queries (50 people opening a report as its answer expires cost one reading,
   * not 50 of the token's budget). An entry lives only while its reading runs.
   */
  private readonly reading = new Map<string, Promise<object>>();

  constructor(caches: AnswerCaches, ttl: number) {
    this.answers = new AnswerCache(caches, { max: 500, ttl });
  }

  async kept<T extends object>(
    key: readonly unknown[],
    read: () => Promise<T>,
    again: (kept: T) => T | Promise<T> = (kept) => kept,
  ): Promise<T> {
    const text = JSON.stringify(key);
    const kept = this.answers.get(text) as T | undefined;
    if (kept) return again(kept);
    const underWay = this.reading.get(text) as Promise<T> | undefined;
    if (underWay) return again(await underWay);
    const reading = read();
    this.reading.set(text, reading);
    try {
      const answer = await reading;
      this.answers.set(text, answer);
      return answer;
    } finally {
      this.reading.delete(text);
    }
  }
}

/** A kept report: its scope says no query was sent for it. */
export const keptScope = (scope: ReportScope): ReportScope => ({ ...scope, cloudflare_queries: 0 });

/**
 * The Cloudflare side of every report: one planner (so each zone's limits are read once an hour for
 * all reports), the queries of a plan run a few at a time, and the answers kept a minute.
 */
export class ReportReader {
  readonly planner: ReportPlanner;
  readonly answers: KeptAnswers;

  constructor(deps: AppDeps) {
    this.planner = new ReportPlanner(deps);
    this.answers = new KeptAnswers(deps.answerCaches, REPORT_KEPT_MS);
  }

  /** A report kept a minute per person and question, or read anew; a kept one costs no query. */
  report<T extends { scope: ReportScope }>(
    kind: string,
    userId: number,
    query: ReportQuery,
    read: () => Promise<T>,
    again: (kept: T) => T | Promise<T> = (kept) => kept,
  ): Promise<T> {
    return this.answers.kept([kind, userId, query], read, (kept) =>
      again({ ...kept, scope: keptScope(kept.scope) }),
    );
  }

  /**
   * Runs `query` for every batch and window of the plan, a few at a time. A query with a series is
   * given `$seriesLimit`: the rows of the dataset's page on the zones' plan, up to SERIES_ROWS.
   */
  async run<S extends z.ZodType>(
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

  /**
   * The plan and answers of a report of the person's HTTP requests (Traffic, Errors, Performance):
   * one query text for every batch and window.
   */
  async readRequests<S extends z.ZodType>(
    userId: number,
    query: ReportQuery,
    schema: S,
    queryOf: (bucket: BucketDimension) => string,
    variables: Record<string, unknown> = {},
  ) {
    const plan = await this.planner.plan(userId, query, 'httpRequestsAdaptiveGroups');
    const text = queryOf(bucketOf(query));
    const run = await this.run(plan, 'httpRequestsAdaptiveGroups', schema, () => ({
      query: text,
      variables,
    }));
    return { plan, ...run };
  }

  scopeOf(plan: ReportPlan, queries: number): ReportScope {
    return { ...plan.scope, cloudflare_queries: queries, read_at: new Date().toISOString() };
  }
}
