import {
  REPORT_BUCKETS,
  REPORT_LEFT_OUT_MAX,
  REPORT_RANGE_SECONDS,
  REPORT_ZONES_MAX,
  type ReportQuery,
  type ReportScope,
} from '@guardian/contract';
import type Cloudflare from 'cloudflare';
import { AppError } from '../../app-error';
import { AnswerCache } from '../../answer-cache';
import type { AppDeps } from '../../deps';
import {
  zoneAnalyticsSettings,
  zoneBatches,
  type AnalyticsDataset,
  type DatasetSettings,
  type ZoneAnalyticsSettings,
} from '../../cloudflare';
import type { AccountRecord } from '../accounts';
import { AccountsRepository } from '../accounts';
import { mapWithConcurrency } from '../rules-overview';
import { ZonesRepository, type OwnedZone } from '../zones';

/** Queries of one report in flight at once (each is a 10-zone query), its settings' as its own. */
export const QUERY_CONCURRENCY = 4;
/** How long a zone's dataset limits are taken as read: they change only with its plan. */
const SETTINGS_KEPT_MS = 60 * 60_000;

/** One query's worth: up to 10 zones of one account, alike in what their plans allow. */
export interface QueryBatch {
  account: AccountRecord;
  client: Cloudflare;
  zoneTags: string[];
  settings: ZoneAnalyticsSettings;
}

/** A report's time windows: each no wider than one query may ask, newest first. */
export interface ReportWindow {
  since: Date;
  until: Date;
}

export interface ReportPlan {
  scope: Omit<ReportScope, 'cloudflare_queries' | 'read_at'>;
  zones: OwnedZone[];
  batches: QueryBatch[];
  /** Settings queries this plan cost (0 when every zone's limits were kept). */
  queries: number;
  since: Date;
  until: Date;
  rangeMs: number;
}

const DATASET_WORDS: Record<AnalyticsDataset, string> = {
  firewallEventsAdaptive: 'sampled security events',
  firewallEventsAdaptiveGroups: 'security event analytics',
  httpRequestsAdaptiveGroups: 'request analytics',
};

const dayText = (seconds: number) => {
  const days = seconds / 86_400;
  if (days >= 1) return `${Number.isInteger(days) ? days : days.toFixed(1)} day${days === 1 ? '' : 's'}`;
  return `${Math.round(seconds / 3600)} hours`;
};

/**
 * Which of the person's zones a report reads and how: the zones (their own only: another's account
 * or zone is 404), each zone's dataset limits from Cloudflare's `settings` node (kept an hour), the
 * zones whose plans do not keep the range left out (a clear 400 when that leaves none, or when the
 * one zone asked for is one of them), and the rest in batches of 10 of one account and alike limits.
 */
export class ReportPlanner {
  private readonly zones: ZonesRepository;
  private readonly accounts: AccountsRepository;
  private readonly settings: AnswerCache<ZoneAnalyticsSettings>;

  constructor(private readonly deps: AppDeps) {
    this.zones = new ZonesRepository(deps.db);
    this.accounts = new AccountsRepository(deps.db);
    this.settings = new AnswerCache(deps.answerCaches, { max: 20_000, ttl: SETTINGS_KEPT_MS });
  }

  /** The person's zones a report covers (all of them, of one account, or one). */
  async zonesOf(userId: number, query: Pick<ReportQuery, 'account_id' | 'zone_id'>): Promise<OwnedZone[]> {
    if (query.account_id && !(await this.accounts.findOwnedByCloudflareId(userId, query.account_id)))
      throw new AppError('NOT_FOUND', 'Account not found.');
    const zones = await this.zones.listOwned(
      userId,
      { accountId: query.account_id, zoneId: query.zone_id },
      REPORT_ZONES_MAX + 1,
    );
    if (query.zone_id && zones.length === 0) throw new AppError('NOT_FOUND', 'Zone not found.');
    if (zones.length > REPORT_ZONES_MAX)
      throw new AppError(
        'BAD_REQUEST',
        `A report reads at most ${REPORT_ZONES_MAX.toLocaleString('en-US')} zones: choose an account or a zone.`,
      );
    return zones;
  }

  /** The range a report asked now covers: now, back by the range. */
  rangeOf(query: Pick<ReportQuery, 'range'>): { since: Date; until: Date; rangeSeconds: number } {
    const rangeSeconds = REPORT_RANGE_SECONDS[query.range];
    // Now, to the event just added (Cloudflare allows 60 s of skew where a range starts: a range as
    // long as the plan keeps still passes when its query is sent a moment later).
    const until = new Date(this.deps.reportClock?.() ?? Date.now());
    return { since: new Date(until.getTime() - rangeSeconds * 1000), until, rangeSeconds };
  }

  /** Why a zone is left out of a report over the dataset and range, or null when it is read. */
  leftOutOf(
    zone: OwnedZone,
    limits: ZoneAnalyticsSettings | undefined,
    dataset: AnalyticsDataset,
    rangeSeconds: number,
  ): ReportScope['left_out'][number] | null {
    const node = limits?.[dataset];
    if (!limits || !node?.enabled)
      return {
        zone_id: zone.zone.zoneId,
        domain: zone.zone.domain,
        reason: 'not_on_plan',
        message: `The plan of ${zone.zone.domain} does not include Cloudflare's ${DATASET_WORDS[dataset]}.`,
      };
    if (node.notOlderThan < rangeSeconds)
      return {
        zone_id: zone.zone.zoneId,
        domain: zone.zone.domain,
        reason: 'range_beyond_retention',
        message: `Cloudflare keeps the ${DATASET_WORDS[dataset]} of ${zone.zone.domain} for ${dayText(node.notOlderThan)} on its plan: choose a shorter range.`,
      };
    return null;
  }

  /** The 400 of a report whose zones are all left out (or whose one zone asked for is). */
  static nothingLeft(leftOut: readonly ReportScope['left_out'][number][], count = leftOut.length): AppError {
    const more = count > 1 ? ` (and ${count - 1} more zones)` : '';
    return new AppError('BAD_REQUEST', `${leftOut[0]!.message}${more}`);
  }

  /** The account's analytics client (its token decrypted). */
  clientOf(account: AccountRecord): Cloudflare {
    return this.deps.cloudflare.analyticsClient(this.deps.tokenCipher.decrypt(account.tokenEncrypted));
  }

  /** A zone's dataset limits if read within the hour. */
  keptSettings(zone: OwnedZone): ZoneAnalyticsSettings | undefined {
    return this.settings.get(`${zone.account.id}\u0000${zone.zone.zoneId}`);
  }

  /** The limits of up to 10 zones of one account: one `settings` query, kept an hour per zone. */
  async readSettings(
    account: AccountRecord,
    client: Cloudflare,
    zoneTags: string[],
  ): Promise<Map<string, ZoneAnalyticsSettings>> {
    const read = await zoneAnalyticsSettings(client, zoneTags);
    for (const [zoneTag, limits] of read) this.settings.set(`${account.id}\u0000${zoneTag}`, limits);
    return read;
  }

  async plan(userId: number, query: ReportQuery, dataset: AnalyticsDataset): Promise<ReportPlan> {
    const zones = await this.zonesOf(userId, query);
    const { since, until, rangeSeconds } = this.rangeOf(query);
    const { settings, queries } = await this.settingsOf(zones);

    const leftOut: ReportScope['left_out'] = [];
    const kept: { zone: OwnedZone; settings: ZoneAnalyticsSettings }[] = [];
    for (const zone of zones) {
      const limits = settings.get(zone.zone.zoneId);
      const out = this.leftOutOf(zone, limits, dataset, rangeSeconds);
      if (out) leftOut.push(out);
      else kept.push({ zone, settings: limits! });
    }
    if (zones.length > 0 && kept.length === 0) throw ReportPlanner.nothingLeft(leftOut);

    // Batches of one account (one token) whose limits are alike, so one query fits them all.
    const groups = new Map<
      string,
      { account: AccountRecord; zoneTags: string[]; settings: ZoneAnalyticsSettings }
    >();
    for (const { zone, settings: limits } of kept) {
      const key = `${zone.account.id}\u0000${JSON.stringify(limits)}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { account: zone.account, zoneTags: [], settings: limits }));
      group.zoneTags.push(zone.zone.zoneId);
    }
    const batches: QueryBatch[] = [];
    for (const group of groups.values()) {
      const client = this.clientOf(group.account);
      for (const zoneTags of zoneBatches(group.zoneTags))
        batches.push({ account: group.account, client, zoneTags, settings: group.settings });
    }

    return {
      scope: {
        range: query.range,
        since: since.toISOString(),
        until: until.toISOString(),
        bucket: REPORT_BUCKETS[query.range],
        zone_count: kept.length,
        zones_read: kept.length,
        complete: true,
        left_out: leftOut.slice(0, REPORT_LEFT_OUT_MAX),
        left_out_more: Math.max(0, leftOut.length - REPORT_LEFT_OUT_MAX),
      },
      zones,
      batches,
      queries,
      since,
      until,
      rangeMs: rangeSeconds * 1000,
    };
  }

  /** Each zone's dataset limits: kept ones, and the rest read 10 zones a query per account. */
  private async settingsOf(
    zones: readonly OwnedZone[],
  ): Promise<{ settings: Map<string, ZoneAnalyticsSettings>; queries: number }> {
    const settings = new Map<string, ZoneAnalyticsSettings>();
    const missing = new Map<number, { account: AccountRecord; zoneTags: string[] }>();
    for (const zone of zones) {
      const kept = this.keptSettings(zone);
      if (kept) settings.set(zone.zone.zoneId, kept);
      else {
        let group = missing.get(zone.account.id);
        if (!group) missing.set(zone.account.id, (group = { account: zone.account, zoneTags: [] }));
        group.zoneTags.push(zone.zone.zoneId);
      }
    }
    // One query per 10 zones of an account, a few at a time as a report's own queries run.
    const batches = [...missing.values()].flatMap(({ account, zoneTags }) => {
      const client = this.clientOf(account);
      return zoneBatches(zoneTags).map((batch) => ({ account, client, zoneTags: batch }));
    });
    const reads = await mapWithConcurrency(batches, QUERY_CONCURRENCY, (batch) =>
      this.readSettings(batch.account, batch.client, batch.zoneTags),
    );
    for (const read of reads) for (const [zoneTag, limits] of read) settings.set(zoneTag, limits);
    return { settings, queries: batches.length };
  }
}

/**
 * The range cut into windows no wider than the dataset's widest (`maxDuration`), newest first: a
 * range a plan keeps but one query may not span costs one query per window.
 */
export function windowsOf(plan: { since: Date; until: Date }, limits: DatasetSettings): ReportWindow[] {
  const widest = Math.max(limits.maxDuration * 1000, 60_000);
  const windows: ReportWindow[] = [];
  for (let until = plan.until.getTime(); until > plan.since.getTime(); until -= widest)
    windows.push({ since: new Date(Math.max(plan.since.getTime(), until - widest)), until: new Date(until) });
  return windows;
}
