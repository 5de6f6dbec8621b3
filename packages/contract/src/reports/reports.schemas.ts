import { z } from 'zod';
import { cloudflareIdSchema } from '../shared/ids';

/*
 * The Reports pages and the overview's tiles, read from Cloudflare's GraphQL Analytics API over the
 * person's own zones. Every list is bounded; counts are Cloudflare's (its adaptive datasets may sample:
 * see `sampled`).
 */

/** The ranges a report covers, each ending now. */
export const REPORT_RANGES = ['24h', '7d', '30d'] as const;
export type ReportRange = (typeof REPORT_RANGES)[number];
/** Each range in seconds, as Cloudflare's dataset limits are given. */
export const REPORT_RANGE_SECONDS: Record<ReportRange, number> = {
  '24h': 86_400,
  '7d': 7 * 86_400,
  '30d': 30 * 86_400,
};
/** The bucket of a report's series: an hour up to 7 days, a day for 30. */
export const REPORT_BUCKETS: Record<ReportRange, 'hour' | 'day'> = {
  '24h': 'hour',
  '7d': 'hour',
  '30d': 'day',
};

/** Rows of a "top" table (source IPs, countries, paths...). */
export const REPORT_TOP_MAX = 20;
/** Sampled events shown below the security report. */
export const REPORT_RECENT_EVENTS_MAX = 50;
/** Zones one report reads (100 GraphQL queries at 10 zones each); more: narrow it to an account. */
export const REPORT_ZONES_MAX = 1_000;
/** Zones named as left out of a report (the rest are counted). */
export const REPORT_LEFT_OUT_MAX = 100;
/** Points of a series: 7 days of hours, each with up to 12 kinds. */
export const REPORT_SERIES_MAX = 168 * 12;

export const reportQuerySchema = z.object({
  /** Only this account of the person's (Cloudflare's account id). */
  account_id: cloudflareIdSchema('account').optional(),
  /** Only this zone of the person's. */
  zone_id: cloudflareIdSchema('zone').optional(),
  range: z.enum(REPORT_RANGES).default('24h'),
});
export type ReportQuery = z.infer<typeof reportQuerySchema>;

const text = (max: number) => z.string().max(max);
const count = z.number().int().nonnegative();

/** Why a zone is not in a report. */
export const REPORT_LEFT_OUT_REASONS = ['not_on_plan', 'range_beyond_retention'] as const;

/** What every report says about itself: its range, its zones, and those left out. */
export const reportScopeSchema = z.object({
  range: z.enum(REPORT_RANGES),
  /** ISO time the report starts and ends (now, when it was read). */
  since: z.string(),
  until: z.string(),
  bucket: z.enum(['hour', 'day']),
  /** Zones read. */
  zone_count: count,
  left_out: z
    .array(
      z.object({
        zone_id: text(64),
        domain: text(253),
        reason: z.enum(REPORT_LEFT_OUT_REASONS),
        /** The person's words: "Cloudflare keeps this zone's security events for 3 days on its plan." */
        message: text(300),
      }),
    )
    .max(REPORT_LEFT_OUT_MAX),
  /** Zones left out beyond the ones named. */
  left_out_more: count,
  /** GraphQL queries this report cost at Cloudflare (0 when it was answered from the short cache). */
  cloudflare_queries: count,
  /** ISO time the answer was read from Cloudflare (a cached answer is at most a minute old). */
  read_at: z.string(),
});
export type ReportScope = z.infer<typeof reportScopeSchema>;

/** One row of a top table: a value (a country, host, path...) and its count. */
export const reportTopRowSchema = z.object({ value: text(2048), count });
export type ReportTopRow = z.infer<typeof reportTopRowSchema>;
const topRows = z.array(reportTopRowSchema).max(REPORT_TOP_MAX);

/** A list of the person's holding a source IP (exactly or in a CIDR), from the IP Lists search. */
export const reportListedInSchema = z.object({
  account_id: text(64),
  list_id: text(64),
  list_name: text(100),
});

export const securityReportSchema = z.object({
  scope: reportScopeSchema,
  total: count,
  /** Events per bucket and action (block, managed_challenge, log, skip...), oldest first. */
  over_time: z.array(z.object({ time: z.string(), action: text(64), count })).max(REPORT_SERIES_MAX),
  by_action: z.array(z.object({ action: text(64), count })).max(REPORT_TOP_MAX),
  /** By what acted: firewallCustom, firewallManaged, ratelimit, securitylevel, ip... */
  by_source: z.array(z.object({ source: text(64), count })).max(REPORT_TOP_MAX),
  top_source_ips: z
    .array(
      z.object({
        ip: text(64),
        count,
        country: text(64),
        asn: text(16),
        /** The person's lists already holding it (empty: in none of them, a candidate for Ban everywhere). */
        listed_in: z.array(reportListedInSchema).max(REPORT_TOP_MAX),
      }),
    )
    .max(REPORT_TOP_MAX),
  top_asns: z.array(z.object({ asn: text(16), description: text(256), count })).max(REPORT_TOP_MAX),
  top_countries: topRows,
  top_hosts: topRows,
  top_paths: topRows,
  /** Rules by zone: a custom rule's description is the one Guardian gave it; a list rule names its list. */
  top_rules: z
    .array(
      z.object({
        zone_id: text(64),
        rule_id: text(64),
        source: text(64),
        description: text(500),
        count,
      }),
    )
    .max(REPORT_TOP_MAX),
  /** The newest events, sampled by Cloudflare: each stands for `sample_interval` alike events. */
  recent_events: z
    .array(
      z.object({
        time: z.string(),
        zone_id: text(64),
        action: text(64),
        source: text(64),
        ip: text(64),
        country: text(64),
        asn: text(16),
        host: text(253),
        method: text(16),
        path: text(2048),
        rule_id: text(64),
        description: text(500),
        ray_id: text(64),
        sample_interval: count,
        /** Cloudflare sampled it (sample_interval > 1). */
        sampled: z.boolean(),
      }),
    )
    .max(REPORT_RECENT_EVENTS_MAX),
  /** How far back the recent events reach (the dataset's widest range may be shorter than the report's). */
  recent_events_since: z.string(),
});
export type SecurityReport = z.infer<typeof securityReportSchema>;

export const trafficReportSchema = z.object({
  scope: reportScopeSchema,
  totals: z.object({ requests: count, cached_requests: count, bytes: count, visits: count }),
  over_time: z
    .array(
      z.object({ time: z.string(), requests: count, cached_requests: count, bytes: count, visits: count }),
    )
    .max(REPORT_SERIES_MAX),
  /** Requests by Cloudflare's cache status (hit, miss, dynamic...). */
  by_cache_status: z
    .array(z.object({ cache_status: text(64), cached: z.boolean(), count }))
    .max(REPORT_TOP_MAX),
  /** Requests by the class of the edge's answer: 1xx to 5xx. */
  by_status_class: z
    .array(z.object({ status_class: z.enum(['1xx', '2xx', '3xx', '4xx', '5xx']), count }))
    .max(5),
  top_countries: topRows,
  top_hosts: topRows,
  top_paths: topRows,
});
export type TrafficReport = z.infer<typeof trafficReportSchema>;

export const errorsReportSchema = z.object({
  scope: reportScopeSchema,
  totals: z.object({
    requests: count,
    client_errors: count,
    server_errors: count,
    /** 5xx the origin answered. */
    origin_errors: count,
    /** 5xx from Cloudflare's edge itself (no origin answer). */
    edge_errors: count,
  }),
  over_time: z
    .array(z.object({ time: z.string(), client_errors: count, server_errors: count }))
    .max(REPORT_SERIES_MAX),
  by_status: z.array(z.object({ status: z.number().int(), count })).max(REPORT_TOP_MAX),
  top_paths: topRows,
  top_hosts: topRows,
});
export type ErrorsReport = z.infer<typeof errorsReportSchema>;

/**
 * The overview's four tiles (spec: 'Genel Durum'), live. A tile whose source does not exist says so
 * (`value` null, `unavailable` the reason) and never shows a made-up number.
 */
export const overviewTileSchema = z.object({
  value: z.number().nullable(),
  /** How the value reads: a count, or a percentage (0-100). */
  unit: z.enum(['count', 'percent']),
  /** One line under the value: what it counts. */
  detail: text(300),
  /** Why there is no value (no zones yet, Cloudflare unreachable...). */
  unavailable: text(300).nullable(),
});
export type OverviewTile = z.infer<typeof overviewTileSchema>;

export const overviewReportSchema = z.object({
  /** 'Active Servers': servers that reported in the last 24 hours (null, and says so, until Server Management exists). */
  active_servers: overviewTileSchema,
  /** 'Security Alerts': the top attacking addresses of the last 24 h that none of the person's lists holds. */
  security_alerts: overviewTileSchema,
  /** 'Blocked Threats': security events of the last 24 h that blocked or challenged a request. */
  blocked_threats: overviewTileSchema,
  /** 'System Health': the share of Guardian's own checks that pass (tokens valid, Cloudflare reachable, jobs done). */
  system_health: overviewTileSchema.extend({
    checks: z
      .array(z.object({ name: text(100), passed: z.boolean(), detail: text(300) }))
      .max(REPORT_TOP_MAX),
  }),
  read_at: z.string(),
});
export type OverviewReport = z.infer<typeof overviewReportSchema>;
