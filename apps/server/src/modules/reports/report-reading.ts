import {
  REPORT_BUCKETS,
  REPORT_TOP_MAX,
  type ReportQuery,
  type ReportScope,
  type ReportTopRow,
} from '@guardian/contract';
import type { z } from 'zod';
import { setTimeout as sleep } from 'node:timers/promises';
import { AnswerCache } from '../../answer-cache';
import { AppError } from '../../app-error';
import type { AnalyticsDataset } from '../../cloudflare';
import type { AnswerCaches, AppDeps } from '../../deps';
import { mapWithConcurrency } from '../rules-overview';
import { QUERY_CONCURRENCY, ReportPlanner, windowsOf, type ReportPlan } from './report-plan';
import {
  ReportReading,
  sendPart,
  type BatchWindow,
  type PartQuery,
  type ReportFold,
} from './report-progress';
import type { BucketDimension } from './report-queries';
import type { OwnedZone } from '../zones';

export type { BatchWindow, ReportFold } from './report-progress';

/*
 * What every report shares: the planner (the person's zones, 10 a query, their limits kept an hour),
 * the running of a report's queries over its batches and windows, the keeping of answers, and the
 * small figures helpers the reports merge their answers with.
 */

/** How long a report's answer is kept: a person switching tabs or ranges does not ask Cloudflare again. */
export const REPORT_KEPT_MS = 60_000;
/**
 * How long a report's ask waits for its reading before answering with what is read so far (the page
 * shows it and asks again until the report is complete): the page's first figures within a second.
 */
export const REPORT_FIRST_ANSWER_MS = 600;
/** Reports one person may have being read at once (each goes on after its first answer). */
export const READINGS_PER_PERSON = 4;
/** How long a failed reading's error answers the page's next asks, rather than reading anew at once. */
const FAILED_KEPT_MS = 5_000;
/** Cache statuses whose request the edge answered from its cache. */
export const CACHED_STATUSES = new Set(['hit', 'stale', 'revalidated', 'updating']);

export const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/**
 * What the folds of the reports of the person's HTTP requests (Traffic, Errors) share: the dataset,
 * and one query text for every batch and window; each folds its answers its own way.
 */
export abstract class RequestsFold<S extends z.ZodType, T> implements ReportFold<S, T> {
  readonly dataset = 'httpRequestsAdaptiveGroups' as const;
  private readonly text: string;

  constructor(
    readonly schema: S,
    query: ReportQuery,
    queryText: (bucket: BucketDimension) => string,
  ) {
    this.text = queryText(bucketOf(query));
  }

  queryOf(): PartQuery {
    return { query: this.text, variables: {} };
  }

  abstract add(part: BatchWindow, data: z.infer<S>): void;
  abstract report(scope: ReportScope, domains: ReadonlyMap<string, string>): T;
}

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

type TopGroup<D extends string> = { count: number; dimensions: Partial<Record<D, string>> };

/**
 * A report's top hosts and top paths (traffic, errors, security), counted over its zones from each
 * zone's own top groups: the contract's `top_hosts` and `top_paths`.
 */
export class TopHostsAndPaths {
  private readonly hosts = new Tally<string>();
  private readonly paths = new Tally<string>();

  add(zone: {
    topHosts: readonly TopGroup<'clientRequestHTTPHost'>[];
    topPaths: readonly TopGroup<'clientRequestPath'>[];
  }): void {
    tallyValues(this.hosts, zone.topHosts, (row) => row.dimensions.clientRequestHTTPHost);
    tallyValues(this.paths, zone.topPaths, (row) => row.dimensions.clientRequestPath);
  }

  rows(): { top_hosts: ReportTopRow[]; top_paths: ReportTopRow[] } {
    return { top_hosts: topRows(this.hosts), top_paths: topRows(this.paths) };
  }
}

/** Cloudflare's time as ISO time, or '' when it is not one (such a row is left out). */
export function isoTime(text: string): string {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? '' : new Date(ms).toISOString();
}

/**
 * Bucket times as read: a report over 1,000 zones has a million series rows but only the range's
 * hours (720 at most) as distinct times, so each is parsed once. Bounded: emptied when it holds more.
 */
const bucketTimes = new Map<string, string>();
const BUCKET_TIMES_MAX = 10_000;

/** A bucket's start as ISO time: an hour's time as Cloudflare gives it, a day's date at midnight UTC. */
export function bucketTime(dimensions: { datetimeHour?: string; date?: string }): string {
  const text = dimensions.datetimeHour ?? (dimensions.date ? `${dimensions.date}T00:00:00Z` : '');
  let time = bucketTimes.get(text);
  if (time === undefined) {
    if (bucketTimes.size >= BUCKET_TIMES_MAX) bucketTimes.clear();
    bucketTimes.set(text, (time = isoTime(text)));
  }
  return time;
}

/** Cloudflare's time dimension of the range's bucket. */
export const bucketOf = (query: ReportQuery): BucketDimension =>
  REPORT_BUCKETS[query.range] === 'day' ? 'date' : 'datetimeHour';

/**
 * Per-zone figures of a report as `shown`, each zone named by its domain (the plan's zones), the
 * largest `size` first: at most `max` rows, and how many zones more there are.
 */
export function byZone<T, R extends object>(
  domains: ReadonlyMap<string, string>,
  zones: ReadonlyMap<string, T>,
  size: (figures: T) => number,
  shown: (figures: T) => R,
  max = REPORT_TOP_MAX,
): { rows: ({ zone_id: string; domain: string } & R)[]; more: number } {
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

/** The person's zones of a plan, by id: what `byZone` names them by. */
export const domainsOf = (plan: ReportPlan): Map<string, string> =>
  new Map(plan.zones.map((zone) => [zone.zone.zoneId, zone.zone.domain]));

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

/** A complete report kept, and its JSON as last sent with the version of what changes under it. */
interface KeptReport<T> {
  report: T;
  /** Its JSON as UTF-8 bytes: sent as they are, not encoded again for each ask. */
  json: { version: string; bytes: Buffer } | null;
}

/**
 * What a kept report shows that may change under it (the security report's source IPs' lists): its
 * version now, and the report with it applied.
 */
export interface ReportListing<T> {
  version(userId: number): Promise<string>;
  apply(userId: number, report: T): Promise<T>;
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
  /** Complete progressive reports by person and question, kept a minute. */
  private readonly complete: AnswerCache<KeptReport<{ scope: ReportScope }>>;
  /**
   * Progressive reports being read, by person and question: at most READINGS_PER_PERSON a person,
   * each gone once complete (its answer kept) or a moment after it failed.
   */
  private readonly readings = new Map<string, ReportReading<{ scope: ReportScope }>>();

  constructor(
    deps: AppDeps,
    private readonly firstAnswerMs = REPORT_FIRST_ANSWER_MS,
  ) {
    this.planner = new ReportPlanner(deps);
    this.answers = new KeptAnswers(deps.answerCaches, REPORT_KEPT_MS);
    this.complete = new AnswerCache(deps.answerCaches, { max: 500, ttl: REPORT_KEPT_MS });
  }

  /**
   * A report over the person's zones as JSON, read progressively: a complete answer kept a minute is
   * sent as it was serialised (a kept one costs no query); else the reading of this report (one per
   * person and question: asks meanwhile share it) is waited for up to the first-answer time, and what
   * it has read by then is sent, `complete: false`, while it goes on. `listing` marks what changes
   * under a kept answer (the person's lists): the kept JSON is made again only when its version moves.
   */
  async progressive<T extends { scope: ReportScope }>(
    kind: string,
    userId: number,
    query: ReportQuery,
    fold: (range: { since: Date; until: Date }) => ReportFold<z.ZodType, T>,
    listing?: ReportListing<T>,
  ): Promise<string | Buffer> {
    const asked = performance.now();
    const key = JSON.stringify([kind, userId, query]);
    const kept = this.complete.get(key) as KeptReport<T> | undefined;
    if (kept) return this.keptJson(kept, userId, listing);
    let reading = this.readings.get(key) as ReportReading<T> | undefined;
    let mine = false;
    if (!reading) {
      // Another person's account or zone (404) and too many zones (400) are told before any reading.
      const zones = await this.planner.zonesOf(userId, query);
      // Meanwhile another ask may have started this reading, or even seen it complete and kept.
      const keptNow = this.complete.get(key) as KeptReport<T> | undefined;
      if (keptNow) return this.keptJson(keptNow, userId, listing);
      reading = this.readings.get(key) as ReportReading<T> | undefined;
      if (!reading) {
        reading = this.startReading(key, userId, query, zones, fold);
        mine = true;
      }
    }
    // The first-answer time counts from the ask, the zones check included.
    const left = Math.max(0, this.firstAnswerMs - (performance.now() - asked));
    await Promise.race([reading.done, sleep(left, undefined, { ref: false })]);
    // A reading shared with the ask that started it: that one says what it cost, this one nothing.
    if (reading.complete && !mine) {
      const done = this.complete.get(key) as KeptReport<T> | undefined;
      if (done) return this.keptJson(done, userId, listing);
    }
    const report = reading.snapshot();
    return JSON.stringify(listing ? await listing.apply(userId, report) : report);
  }

  private startReading<T extends { scope: ReportScope }>(
    key: string,
    userId: number,
    query: ReportQuery,
    zones: OwnedZone[],
    fold: (range: { since: Date; until: Date }) => ReportFold<z.ZodType, T>,
  ): ReportReading<T> {
    let underWay = 0;
    for (const [other, reading] of this.readings)
      if ((JSON.parse(other) as unknown[])[1] === userId && !reading.failedAt) underWay += 1;
    if (underWay >= READINGS_PER_PERSON)
      throw new AppError(
        'RATE_LIMITED',
        `${READINGS_PER_PERSON} of your reports are still being read from Cloudflare: try again in a moment.`,
        { retryAfterSeconds: 5 },
      );
    const range = this.planner.rangeOf(query);
    const reading = new ReportReading(this.planner, query, zones, fold(range), range);
    this.readings.set(key, reading);
    reading.done.then(
      () => {
        this.complete.set(key, { report: reading.snapshot(), json: null });
        this.readings.delete(key);
      },
      () => {
        // The page's next ask (it asks again while the report is partial) is told the failure.
        reading.failedAt = Date.now();
        setTimeout(() => {
          if (this.readings.get(key) === reading) this.readings.delete(key);
        }, FAILED_KEPT_MS).unref();
      },
    );
    return reading;
  }

  /** A kept report as JSON bytes, its scope saying it cost no query, made again when the listing moved. */
  private async keptJson<T extends { scope: ReportScope }>(
    kept: KeptReport<T>,
    userId: number,
    listing?: ReportListing<T>,
  ): Promise<Buffer> {
    const version = listing ? await listing.version(userId) : '';
    if (kept.json?.version === version) return kept.json.bytes;
    const report = { ...kept.report, scope: keptScope(kept.report.scope) };
    const bytes = Buffer.from(JSON.stringify(listing ? await listing.apply(userId, report) : report));
    kept.json = { version, bytes };
    return bytes;
  }

  /**
   * Runs `query` for every batch and window of the plan, a few at a time. A query with a series is
   * given `$seriesLimit`: the rows of the dataset's page on the zones' plan, up to SERIES_ROWS.
   */
  async run<S extends z.ZodType>(
    plan: ReportPlan,
    dataset: AnalyticsDataset,
    schema: S,
    queryOf: (part: BatchWindow) => PartQuery,
  ): Promise<{ answers: { part: BatchWindow; data: z.infer<S> }[]; queries: number }> {
    const parts: BatchWindow[] = plan.batches.flatMap((batch) =>
      windowsOf(plan, batch.settings[dataset]!).map((window, index) => ({
        batch,
        window,
        newest: index === 0,
      })),
    );
    const answers = await mapWithConcurrency(parts, QUERY_CONCURRENCY, async (part) => ({
      part,
      data: (await sendPart(part, dataset, schema, queryOf(part))) as z.infer<S>,
    }));
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
