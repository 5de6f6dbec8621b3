import {
  REPORT_RECENT_EVENTS_MAX,
  REPORT_SERIES_MAX,
  REPORT_TOP_MAX,
  type ReportQuery,
  type SecurityReport,
} from '@guardian/contract';
import type { IpSearchService } from '../ip-search';
import { securityAnswerSchema, securityQuery } from './report-queries';
import {
  bucketOf,
  cut,
  isoTime,
  bucketTime,
  Tally,
  topRows,
  type ReportReader,
  tallyValues,
} from './report-reading';

/**
 * /reports/security: the person's zones' security events by action, source, address, ASN, country,
 * host, path and rule, and the newest sampled events; each top address with the person's lists holding
 * it now.
 */
export class SecurityReports {
  constructor(
    private readonly reader: ReportReader,
    private readonly ipSearch: IpSearchService,
  ) {}

  async read(userId: number, query: ReportQuery): Promise<SecurityReport> {
    // The lists change under a kept answer (Ban everywhere from the report): which hold each address is
    // read again every time, so a ban shows at once and not a minute later.
    return this.reader.report(
      'security',
      userId,
      query,
      () => this.readNew(userId, query),
      async (kept) => ({ ...kept, top_source_ips: await this.withListedIn(userId, kept.top_source_ips) }),
    );
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

  private async readNew(userId: number, query: ReportQuery): Promise<SecurityReport> {
    const plan = await this.reader.planner.plan(userId, query, 'firewallEventsAdaptiveGroups');
    const bucket = bucketOf(query);
    let eventsSince = plan.until;
    const { answers, queries } = await this.reader.run(
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
        tallyValues(countries, zone.topCountries, (row) => row.dimensions.clientCountryName);
        tallyValues(hosts, zone.topHosts, (row) => row.dimensions.clientRequestHTTPHost);
        tallyValues(paths, zone.topPaths, (row) => row.dimensions.clientRequestPath);
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
      scope: this.reader.scopeOf(plan, queries),
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
}
