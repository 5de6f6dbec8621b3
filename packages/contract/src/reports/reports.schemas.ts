import { z } from 'zod';
import { keysOf } from '../shared/closed-set';
import { cloudflareIdSchema } from '../shared/ids';
import LABELS from '../shared/labels.en.json';

/*
 * The Reports pages and the overview's tiles, read from Cloudflare's GraphQL Analytics API over the
 * person's own zones. Every list is bounded; counts are Cloudflare's (its adaptive datasets may sample:
 * see `sampled`).
 */

/**
 * The ranges a report covers, each ending now, shortest first (a plan's range allows those before it),
 * with each range in words.
 */
export const REPORT_RANGE_WORDS = LABELS.reportRanges;
export type ReportRange = keyof typeof REPORT_RANGE_WORDS;
export const REPORT_RANGES = keysOf(REPORT_RANGE_WORDS);
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
  /** Zones the report covers (the person's zones asked for, less those left out). */
  zone_count: count,
  /**
   * Zones whose figures are in the answer: all of them once `complete`. A report over many zones
   * answers within a moment with what is read so far (`complete: false`) while the rest is read; the
   * page asks again until it is complete.
   */
  zones_read: count,
  complete: z.boolean(),
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

/** A report's figures per zone, each zone named by its domain (a Reports page shows the name, not the id). */
const zoneRows = <T extends z.ZodRawShape>(figures: T) =>
  z.array(z.object({ zone_id: text(64), domain: text(253), ...figures })).max(REPORT_TOP_MAX);

/** What a traffic report counts: over the range, in each bucket, and in each zone. */
const trafficCounts = { requests: count, cached_requests: count, bytes: count, visits: count };

export const trafficReportSchema = z.object({
  scope: reportScopeSchema,
  totals: z.object(trafficCounts),
  over_time: z.array(z.object({ time: z.string(), ...trafficCounts })).max(REPORT_SERIES_MAX),
  /** Requests by Cloudflare's cache status (hit, miss, dynamic...). */
  by_cache_status: z
    .array(z.object({ cache_status: text(64), cached: z.boolean(), count }))
    .max(REPORT_TOP_MAX),
  /** Requests by the class of the edge's answer: 1xx to 5xx. */
  by_status_class: z
    .array(z.object({ status_class: z.enum(['1xx', '2xx', '3xx', '4xx', '5xx']), count }))
    .max(5),
  /** The busiest zones (by requests) with their figures, named by domain; `by_zone_more` zones more. */
  by_zone: zoneRows(trafficCounts),
  by_zone_more: count,
  top_countries: topRows,
  top_hosts: topRows,
  top_paths: topRows,
});
export type TrafficReport = z.infer<typeof trafficReportSchema>;

/** What an errors report counts over the range and in each zone. */
const errorCounts = {
  requests: count,
  client_errors: count,
  server_errors: count,
  /** 5xx the origin answered. */
  origin_errors: count,
  /** 5xx from Cloudflare's edge itself (no origin answer). */
  edge_errors: count,
};

export const errorsReportSchema = z.object({
  scope: reportScopeSchema,
  totals: z.object(errorCounts),
  over_time: z
    .array(z.object({ time: z.string(), client_errors: count, server_errors: count }))
    .max(REPORT_SERIES_MAX),
  by_status: z.array(z.object({ status: z.number().int(), count })).max(REPORT_TOP_MAX),
  /** The zones with the most errors (4xx and 5xx), named by domain; `by_zone_more` zones more. */
  by_zone: zoneRows(errorCounts),
  by_zone_more: count,
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

/*
 * Activity (/reports/activity): Guardian's own changes, from its audit trail (not Cloudflare's
 * analytics), as chart data. Read from the database only: no Cloudflare query, no plan limit.
 */

/**
 * The kinds people recognise of the trail's actions: an action `banListItems.add` is of the kind
 * `banListItems`. Each kind is the first part of the actions it groups, so `${kind}.` is the Activity
 * table's `action` filter of the kind; an action of no kind here counts as `other`.
 */
export const ACTIVITY_KIND_LABELS = LABELS.activityKinds;
export type ActivityKind = keyof typeof ACTIVITY_KIND_LABELS;
export const ACTIVITY_KINDS = keysOf(ACTIVITY_KIND_LABELS);

/** The bucket of the Activity series: an hour for 24 hours, a day for 7 and 30 days. */
export const ACTIVITY_BUCKETS: Record<ReportRange, 'hour' | 'day'> = {
  '24h': 'hour',
  '7d': 'day',
  '30d': 'day',
};
/** Points of the Activity series: 31 days (or 25 hours) by every kind. */
export const ACTIVITY_SERIES_MAX = 31 * ACTIVITY_KINDS.length;

/**
 * An IANA time zone the runtime's Intl knows (`Europe/Istanbul`, `UTC`): the Activity report's hours
 * and days start at its midnights. Checked for form before Intl reads it.
 */
export const timeZoneSchema = z
  .string()
  .max(64, 'The time zone is too long.')
  .regex(/^[A-Za-z][A-Za-z0-9_+\-/]*$/, 'Not a time zone.')
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'Unknown time zone: use an IANA name such as Europe/Istanbul or UTC.');

export const activityQuerySchema = z.object({
  range: z.enum(REPORT_RANGES).default('24h'),
  /** Only the changes on this Cloudflare account (the person's own; for `everyone`, any Guardian has). */
  account_id: cloudflareIdSchema('account').optional(),
  /** `mine`: the person's own changes (everyone may); `everyone`: all people's (administrators only, else 403). */
  scope: z.enum(['mine', 'everyone']).default('mine'),
  /**
   * The time zone whose hours and days the series is bucketed by (the browser's,
   * `Intl.DateTimeFormat().resolvedOptions().timeZone`). Default UTC. Bucket times are still ISO
   * instants (UTC): the start of each local hour or day.
   */
  tz: timeZoneSchema.default('UTC'),
});
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

/** How changes ended, as the trail's outcomes: done, refused (4xx) and failed (5xx). */
const outcomeCounts = { success: count, refused: count, failed: count };

/**
 * The Activity table (web: /dashboard/activity, or /admin/activity for `everyone`) with the filters
 * that show the same changes: each field is the audit endpoints' query parameter of the same name.
 */
export const activityLinkSchema = z.object({
  path: z.enum(['/dashboard/activity', '/admin/activity']),
  filters: z.object({
    /** ISO time: the report's `since` and `until`. */
    from: z.string(),
    to: z.string(),
    account_id: text(64).optional(),
    /** The kind's actions: `${kind}.` (absent for `other`, which no prefix selects). */
    action: text(64).optional(),
    /** The person's whole e-mail (their events under earlier e-mails too). */
    actor: text(254).optional(),
  }),
});
export type ActivityLink = z.infer<typeof activityLinkSchema>;

export const activityReportSchema = z.object({
  range: z.enum(REPORT_RANGES),
  scope: z.enum(['mine', 'everyone']),
  /** ISO times the report starts and ends (now). */
  since: z.string(),
  until: z.string(),
  bucket: z.enum(['hour', 'day']),
  /** The time zone the buckets start in (the query's `tz`). */
  tz: text(64),
  totals: z.object(outcomeCounts),
  /** Changes per bucket and kind (only buckets and kinds with changes), oldest first. */
  over_time: z
    .array(z.object({ time: z.string(), kind: z.enum(ACTIVITY_KINDS), ...outcomeCounts }))
    .max(ACTIVITY_SERIES_MAX),
  /** Changes by kind, the most first, each with its link. */
  by_kind: z
    .array(
      z.object({ kind: z.enum(ACTIVITY_KINDS), label: text(64), ...outcomeCounts, link: activityLinkSchema }),
    )
    .max(ACTIVITY_KINDS.length),
  /**
   * Changes by person, the most first: for `mine` only the person. `user_id` null: sign-ins tried with
   * e-mails nobody has (no link: the table cannot select them together).
   */
  by_person: z
    .array(
      z.object({
        user_id: z.number().int().nullable(),
        email: text(254).nullable(),
        ...outcomeCounts,
        link: activityLinkSchema.nullable(),
      }),
    )
    .max(REPORT_TOP_MAX),
  /** People with changes beyond those named. */
  by_person_more: count,
  /** The Activity table with the report's filters (range and account). */
  link: activityLinkSchema,
  read_at: z.string(),
});
export type ActivityReport = z.infer<typeof activityReportSchema>;

/*
 * Performance (/dashboard/performance): the person's zones' response times and cached share from
 * Cloudflare's analytics (`httpRequestsAdaptiveGroups`), and Guardian's own jobs and token budgets
 * from its database. Its series buckets are UTC hours (days for 30 days), as Cloudflare gives them.
 */

/** Response times in milliseconds; null where no request was counted (or the plan gives no percentiles). */
export const latencySchema = z.object({
  /** The mean, exact over zones and windows. */
  avg: z.number().nonnegative().nullable(),
  p50: z.number().nonnegative().nullable(),
  p95: z.number().nonnegative().nullable(),
  p99: z.number().nonnegative().nullable(),
});
export type Latency = z.infer<typeof latencySchema>;

const timing = {
  requests: count,
  /** Requests the edge answered from its cache (hit, stale, revalidated, updating). */
  cached_requests: count,
  /** Cloudflare's time to the first byte of its answer (`edgeTimeToFirstByteMs`). */
  edge_ttfb_ms: latencySchema,
  /** The origin's time to answer the edge (`originResponseDurationMs`), over requests that reached it. */
  origin_ms: latencySchema,
};

/** One token's use of one of Guardian's budgets of it, over the budget's sliding window. */
export const tokenBudgetUseSchema = z.object({
  used: count,
  limit: count,
  window_seconds: count,
});

/** Rows of the budgets table: one per account of the person's (Guardian's limit of accounts per person). */
export const REPORT_BUDGETS_MAX = 200;

export const performanceReportSchema = z.object({
  range: z.enum(REPORT_RANGES),
  since: z.string(),
  until: z.string(),
  bucket: z.enum(['hour', 'day']),
  /** The zones' part; null when Cloudflare could not give it (`zones_unavailable` says why). */
  zones: z
    .object({
      scope: reportScopeSchema,
      totals: z.object(timing),
      /** Per bucket, oldest first. */
      over_time: z.array(z.object({ time: z.string(), ...timing })).max(REPORT_SERIES_MAX),
      /** The busiest zones. */
      by_zone: zoneRows(timing),
      /**
       * True when a percentile covers several zones or query windows: Cloudflare gives percentiles per
       * zone and window, and they are merged weighted by requests (an estimate; the mean is exact).
       */
      percentiles_estimated: z.boolean(),
    })
    .nullable(),
  /** Why the zones' part is missing: a plan without request analytics, Cloudflare's refusal... */
  zones_unavailable: text(500).nullable(),
  /** The person's jobs that ended in the range (by when they ended), per bucket (UTC). */
  jobs: z.object({
    totals: z.object({ succeeded: count, failed: count, cancelled: count }),
    over_time: z
      .array(z.object({ time: z.string(), succeeded: count, failed: count, cancelled: count }))
      .max(REPORT_SERIES_MAX),
    by_kind: z
      .array(
        z.object({ kind: text(64), label: text(100), succeeded: count, failed: count, cancelled: count }),
      )
      .max(REPORT_TOP_MAX),
  }),
  /**
   * Each of the person's accounts' API tokens: its use of Guardian's per-token budget of REST calls
   * and of GraphQL Analytics queries, now, as every server process counts them. Accounts sharing a
   * token show the same use.
   */
  budgets: z
    .array(
      z.object({
        account_id: text(64),
        account_name: text(255),
        rest: tokenBudgetUseSchema,
        analytics: tokenBudgetUseSchema,
        /** ISO time until which Cloudflare told Guardian to hold this token's calls (a 429), or null. */
        held_until: z.string().nullable(),
      }),
    )
    .max(REPORT_BUDGETS_MAX),
  budgets_more: count,
  read_at: z.string(),
});
export type PerformanceReport = z.infer<typeof performanceReportSchema>;
