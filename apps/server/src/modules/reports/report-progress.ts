import { REPORT_BUCKETS, REPORT_LEFT_OUT_MAX, type ReportQuery, type ReportScope } from '@guardian/contract';
import type Cloudflare from 'cloudflare';
import type { z } from 'zod';
import {
  MAX_ZONES_PER_QUERY,
  queryAnalytics,
  type AnalyticsDataset,
  type ZoneAnalyticsSettings,
} from '../../cloudflare';
import type { AccountRecord } from '../accounts';
import type { OwnedZone } from '../zones';
import { ReportPlanner, windowsOf, type QueryBatch, type ReportWindow } from './report-plan';

/*
 * A report read part by part, each answer folded in as it comes, so the report can answer at any
 * moment with what is read so far. The order keeps the queries to the fewest: each account's zones are
 * grouped by alike limits and sent 10 a query as soon as 10 alike zones are known, the rest of a group
 * once all its account's limits are read (so each group of n zones costs ceil(n / 10) queries, as a
 * report planned in full beforehand does), and report queries go before settings queries, so the
 * first figures come after one settings query and one report query.
 */

/**
 * Queries of one report in flight at once. Cloudflare documents no limit on queries at once, only
 * their number (300 per 5 minutes per user or token, bursts allowed: `cloudflare/analytics.ts` keeps to
 * 280) and the REST API's 200 requests a second per address; what bounds this is Guardian's memory:
 * each answer may be up to 4 MiB of text until it is folded in (6 are 24 MiB at most).
 */
export const READING_CONCURRENCY = 6;
/** Rows of a series asked per zone (Cloudflare's maxPageSize may be lower). */
const SERIES_ROWS = 10_000;

/** A query of one batch over one window. */
export interface BatchWindow {
  batch: QueryBatch;
  window: ReportWindow;
  /** The newest window of its batch: where the sampled events are read. */
  newest: boolean;
}

/** What one part's query asks: its text and the variables beyond zones and range. */
export interface PartQuery {
  query: string;
  variables: Record<string, unknown>;
  /** False for a query with no series (no `$seriesLimit`). */
  series?: false;
}

/** Sends one part's query: its zones and window, the series' page within the zones' plan. */
export function sendPart<S extends z.ZodType>(
  part: BatchWindow,
  dataset: AnalyticsDataset,
  schema: S,
  { query, variables, series }: PartQuery,
): Promise<z.infer<S>> {
  const limits = part.batch.settings[dataset]!;
  return queryAnalytics(
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
}

/** A report's merging: each answer folded into its figures, and the report of those made at any time. */
export interface ReportFold<S extends z.ZodType, T> {
  readonly dataset: AnalyticsDataset;
  readonly schema: S;
  queryOf(part: BatchWindow): PartQuery;
  add(part: BatchWindow, data: z.infer<S>): void;
  /** The report of what is folded so far; `domains` names the person's zones by id. */
  report(scope: ReportScope, domains: ReadonlyMap<string, string>): T;
}

/** The zones of one account being read: its client, the limits groups filling up, settings to come. */
interface AccountWork {
  account: AccountRecord;
  client: Cloudflare;
  groups: Map<string, { settings: ZoneAnalyticsSettings; zones: OwnedZone[] }>;
  settingsLeft: number;
}

type Task = () => Promise<void>;

/** One report being read: started by the first ask, shared by every ask of the same report meanwhile. */
export class ReportReading<T> {
  /** Settles when every part is folded in (or the first failure). */
  readonly done: Promise<void>;
  /** When it failed (its error answers asks for a moment), else null. */
  failedAt: number | null = null;
  private completed = false;
  private readonly since: Date;
  private readonly until: Date;
  private readonly rangeSeconds: number;
  private readonly domains: Map<string, string>;
  private readonly leftOut: ReportScope['left_out'] = [];
  private covered = 0;
  private zonesRead = 0;
  private queries: number;
  private folded = 0;
  private readonly parts: Task[] = [];
  private readonly settingsReads: Task[] = [];
  private readonly windowsLeft = new Map<QueryBatch, number>();
  private kept: { folded: number; complete: boolean; report: T } | null = null;

  constructor(
    private readonly planner: ReportPlanner,
    private readonly query: ReportQuery,
    private readonly zones: readonly OwnedZone[],
    private readonly fold: ReportFold<z.ZodType, T>,
    range: { since: Date; until: Date; rangeSeconds: number },
  ) {
    this.since = range.since;
    this.until = range.until;
    this.rangeSeconds = range.rangeSeconds;
    this.domains = new Map(zones.map((zone) => [zone.zone.zoneId, zone.zone.domain]));
    this.queries = 0;
    this.done = this.read();
  }

  get complete(): boolean {
    return this.completed;
  }

  /** The report of what is read so far (made once per answer folded in, however often asked). */
  snapshot(): T {
    if (this.kept?.folded === this.folded && this.kept.complete === this.completed) return this.kept.report;
    const scope: ReportScope = {
      range: this.query.range,
      since: this.since.toISOString(),
      until: this.until.toISOString(),
      bucket: REPORT_BUCKETS[this.query.range],
      // Zones whose limits are still to be read count as covered until they are known to be left out.
      zone_count: this.zones.length - this.leftOut.length,
      zones_read: this.zonesRead,
      complete: this.completed,
      left_out: this.leftOut.slice(0, REPORT_LEFT_OUT_MAX),
      left_out_more: Math.max(0, this.leftOut.length - REPORT_LEFT_OUT_MAX),
      cloudflare_queries: this.queries,
      read_at: new Date().toISOString(),
    };
    const report = this.fold.report(scope, this.domains);
    this.kept = { folded: this.folded, complete: this.completed, report };
    return report;
  }

  private async read(): Promise<void> {
    const accounts = new Map<number, AccountWork>();
    const missing = new Map<AccountWork, OwnedZone[]>();
    for (const zone of this.zones) {
      let work = accounts.get(zone.account.id);
      if (!work) {
        const client = this.planner.clientOf(zone.account);
        accounts.set(
          zone.account.id,
          (work = { account: zone.account, client, groups: new Map(), settingsLeft: 0 }),
        );
      }
      const limits = this.planner.keptSettings(zone);
      if (limits) this.place(work, zone, limits);
      else {
        const unknown = missing.get(work);
        if (unknown) unknown.push(zone);
        else missing.set(work, [zone]);
      }
    }
    for (const work of accounts.values()) {
      const unknown = missing.get(work) ?? [];
      for (let at = 0; at < unknown.length; at += MAX_ZONES_PER_QUERY) {
        const chunk = unknown.slice(at, at + MAX_ZONES_PER_QUERY);
        work.settingsLeft += 1;
        this.settingsReads.push(() => this.readSettings(work, chunk));
      }
      if (work.settingsLeft === 0) this.flush(work);
    }
    await this.pump();
    if (this.zones.length > 0 && this.covered === 0) throw ReportPlanner.nothingLeft(this.leftOut);
    this.completed = true;
  }

  /**
   * Runs the tasks a few at a time, report parts first. The first failure fails the reading once the
   * queries already sent are answered: none is started after it, and none is left running when the
   * failure is told.
   */
  private pump(): Promise<void> {
    let running = 0;
    let failure: { error: unknown } | null = null;
    return new Promise((resolve, reject) => {
      const settle = () => {
        if (running > 0) return;
        if (failure) reject(failure.error);
        else resolve();
      };
      const more = () => {
        while (!failure && running < READING_CONCURRENCY) {
          const task = this.parts.shift() ?? this.settingsReads.shift();
          if (!task) break;
          running += 1;
          task().then(
            () => {
              running -= 1;
              more();
            },
            (error: unknown) => {
              running -= 1;
              failure ??= { error };
              settle();
            },
          );
        }
        settle();
      };
      more();
    });
  }

  private async readSettings(work: AccountWork, zones: OwnedZone[]): Promise<void> {
    this.queries += 1;
    const read = await this.planner.readSettings(
      work.account,
      work.client,
      zones.map((zone) => zone.zone.zoneId),
    );
    for (const zone of zones) this.place(work, zone, read.get(zone.zone.zoneId));
    work.settingsLeft -= 1;
    if (work.settingsLeft === 0) this.flush(work);
  }

  /** A zone whose limits are known: left out, or into its group, which is sent once it holds 10. */
  private place(work: AccountWork, zone: OwnedZone, limits: ZoneAnalyticsSettings | undefined): void {
    const out = this.planner.leftOutOf(zone, limits, this.fold.dataset, this.rangeSeconds);
    if (out) {
      this.leftOut.push(out);
      return;
    }
    this.covered += 1;
    const key = JSON.stringify(limits);
    let group = work.groups.get(key);
    if (!group) work.groups.set(key, (group = { settings: limits!, zones: [] }));
    group.zones.push(zone);
    if (group.zones.length === MAX_ZONES_PER_QUERY) {
      this.send(work, group.settings, group.zones);
      group.zones = [];
    }
  }

  /** Every account's limits read: the groups' last zones sent. */
  private flush(work: AccountWork): void {
    for (const group of work.groups.values()) {
      if (group.zones.length > 0) this.send(work, group.settings, group.zones);
      group.zones = [];
    }
  }

  /** One batch's queries, one per window of the range it needs. */
  private send(work: AccountWork, settings: ZoneAnalyticsSettings, zones: OwnedZone[]): void {
    const batch: QueryBatch = {
      account: work.account,
      client: work.client,
      zoneTags: zones.map((zone) => zone.zone.zoneId),
      settings,
    };
    const windows = windowsOf({ since: this.since, until: this.until }, settings[this.fold.dataset]!);
    this.windowsLeft.set(batch, windows.length);
    windows.forEach((window, index) => {
      const part: BatchWindow = { batch, window, newest: index === 0 };
      this.parts.push(async () => {
        this.queries += 1;
        const data: unknown = await sendPart(
          part,
          this.fold.dataset,
          this.fold.schema,
          this.fold.queryOf(part),
        );
        this.fold.add(part, data);
        this.folded += 1;
        const left = this.windowsLeft.get(batch)! - 1;
        this.windowsLeft.set(batch, left);
        if (left === 0) this.zonesRead += batch.zoneTags.length;
      });
    });
  }
}
