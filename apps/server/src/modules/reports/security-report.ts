import {
  REPORT_RECENT_EVENTS_MAX,
  REPORT_SERIES_MAX,
  REPORT_TOP_MAX,
  type ReportQuery,
  type ReportScope,
  type SecurityReport,
} from '@guardian/contract';
import type { z } from 'zod';
import type { IpSearchService } from '../ip-search';
import { securityAnswerSchema, securityQuery, type BucketDimension } from './report-queries';
import {
  bucketOf,
  cut,
  isoTime,
  bucketTime,
  Tally,
  TopHostsAndPaths,
  topRows,
  type BatchWindow,
  type ReportFold,
  type ReportListing,
  type ReportReader,
  tallyValues,
} from './report-reading';

/**
 * /reports/security: the person's zones' security events by action, source, address, ASN, country,
 * host, path and rule, and the newest sampled events; each top address with the person's lists holding
 * it now. Read progressively (ReportReader.progressive).
 */
export class SecurityReports {
  private readonly listing: ReportListing<SecurityReport>;

  constructor(
    private readonly reader: ReportReader,
    ipSearch: IpSearchService,
  ) {
    // The lists change under a kept answer (Ban everywhere from the report): which hold each address
    // is read again whenever the person's lists' version moves, so a ban shows at once, and a kept
    // answer is otherwise sent as it was serialised.
    this.listing = {
      version: (userId) => ipSearch.listsVersion(userId, 'ip'),
      apply: async (userId, report) => ({
        ...report,
        top_source_ips: await withListedIn(ipSearch, userId, report.top_source_ips),
      }),
    };
  }

  /** The report as JSON. */
  read(userId: number, query: ReportQuery): Promise<string | Buffer> {
    return this.reader.progressive(
      'security',
      userId,
      query,
      (range) => new SecurityFold(query, range),
      this.listing,
    );
  }
}

/** Each source IP with the person's lists holding it now (the IP Lists search). */
async function withListedIn<T extends { ip: string }>(
  ipSearch: IpSearchService,
  userId: number,
  rows: T[],
): Promise<(T & { listed_in: SecurityReport['top_source_ips'][number]['listed_in'] })[]> {
  const listed = await ipSearch.listsHolding(
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

/** The security report's figures, each answer folded in as it comes. */
class SecurityFold implements ReportFold<typeof securityAnswerSchema, SecurityReport> {
  readonly dataset = 'firewallEventsAdaptiveGroups' as const;
  readonly schema = securityAnswerSchema;
  private readonly bucket: BucketDimension;
  private eventsSince: Date;
  private readonly series = new Tally<{ time: string; action: string }>();
  private readonly byAction = new Tally<string>();
  private readonly bySource = new Tally<string>();
  private readonly ips = new Tally<{ ip: string; country: string; asn: string }>();
  private readonly asns = new Tally<{ asn: string; description: string }>();
  private readonly countries = new Tally<string>();
  private readonly hostsAndPaths = new TopHostsAndPaths();
  private readonly rules = new Tally<{
    zone_id: string;
    rule_id: string;
    source: string;
    description: string;
  }>();
  /** The newest sampled events so far, newest first, at most REPORT_RECENT_EVENTS_MAX. */
  private events: SecurityReport['recent_events'] = [];

  constructor(
    query: ReportQuery,
    private readonly range: { since: Date; until: Date },
  ) {
    this.bucket = bucketOf(query);
    this.eventsSince = range.until;
  }

  queryOf(part: BatchWindow) {
    const events = part.batch.settings.firewallEventsAdaptive;
    if (!part.newest || !events?.enabled) return { query: securityQuery(this.bucket, false), variables: {} };
    // The sampled events reach back as far as one query of them may, within the report's range.
    const reach = Math.min(events.maxDuration, events.notOlderThan) * 1000;
    const since = new Date(Math.max(this.range.since.getTime(), this.range.until.getTime() - reach));
    if (since < this.eventsSince) this.eventsSince = since;
    return {
      query: securityQuery(this.bucket, true),
      variables: {
        eventsSince: since.toISOString(),
        eventsLimit: Math.min(REPORT_RECENT_EVENTS_MAX, events.maxPageSize),
      },
    };
  }

  add(_part: BatchWindow, data: z.infer<typeof securityAnswerSchema>): void {
    const events: SecurityReport['recent_events'] = [];
    for (const zone of data.viewer.zones) {
      for (const row of zone.overTime) {
        const time = bucketTime(row.dimensions);
        if (!time) continue;
        this.series.add(
          `${time}\u0000${row.dimensions.action}`,
          { time, action: row.dimensions.action },
          row.count,
        );
      }
      for (const row of zone.byAction)
        this.byAction.add(row.dimensions.action!, row.dimensions.action!, row.count);
      for (const row of zone.bySource)
        this.bySource.add(row.dimensions.source!, row.dimensions.source!, row.count);
      for (const { count, dimensions: d } of zone.topIps)
        this.ips.add(d.clientIP, { ip: d.clientIP, country: d.clientCountryName, asn: d.clientAsn }, count);
      for (const { count, dimensions: d } of zone.topAsns)
        this.asns.add(d.clientAsn, { asn: d.clientAsn, description: d.clientASNDescription }, count);
      tallyValues(this.countries, zone.topCountries, (row) => row.dimensions.clientCountryName);
      this.hostsAndPaths.add(zone);
      for (const { count, dimensions: d } of zone.topRules) {
        // Events no rule matched (security level, IP access rules) name none.
        if (!d.ruleId) continue;
        this.rules.add(
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
    // Only the newest are kept: the events of 1,000 zones are never held at once.
    if (events.length > 0)
      this.events = [...this.events, ...events]
        .sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0))
        .slice(0, REPORT_RECENT_EVENTS_MAX);
  }

  /** The report so far; its source IPs' `listed_in` are filled in by the listing when it is sent. */
  report(scope: ReportScope): SecurityReport {
    return {
      scope,
      total: this.byAction.all().reduce((sum, row) => sum + row.count, 0),
      over_time: this.series
        .all()
        .map(({ value, count }) => ({ time: value.time, action: cut(value.action, 64), count }))
        .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.action < b.action ? -1 : 1))
        .slice(0, REPORT_SERIES_MAX),
      by_action: this.byAction
        .top(REPORT_TOP_MAX)
        .map(({ value, count }) => ({ action: cut(value, 64), count })),
      by_source: this.bySource
        .top(REPORT_TOP_MAX)
        .map(({ value, count }) => ({ source: cut(value, 64), count })),
      top_source_ips: this.ips.top(REPORT_TOP_MAX).map(({ value, count }) => ({
        ip: cut(value.ip, 64),
        count,
        country: cut(value.country, 64),
        asn: cut(value.asn, 16),
        listed_in: [],
      })),
      top_asns: this.asns.top(REPORT_TOP_MAX).map(({ value, count }) => ({
        asn: cut(value.asn, 16),
        description: cut(value.description, 256),
        count,
      })),
      top_countries: topRows(this.countries),
      ...this.hostsAndPaths.rows(),
      top_rules: this.rules.top(REPORT_TOP_MAX).map(({ value, count }) => ({
        zone_id: value.zone_id,
        rule_id: cut(value.rule_id, 64),
        source: cut(value.source, 64),
        description: cut(value.description, 500),
        count,
      })),
      recent_events: this.events,
      recent_events_since: this.eventsSince.toISOString(),
    };
  }
}
